#!/usr/bin/env python3
"""Whether `ingest` reads the same codes whichever way round a photo is stored (issue 29).

    bench/turned.py [--photos ../shared/realphotos] [--out /tmp/ingest-turned]
                    [--ingest .build/release/ingest] [--jobs 2]

A phone stores a photo as its sensor lay: held upright, its pixels are turned by a right angle
(the EXIF orientation says so); upside down, twice. ingest reads the stored pixels, so what it
reads must not depend on that. Every photo of PHOTOS (barcodes/, off/, nobarcode/) is turned
upright by its own EXIF orientation (`vips autorot`) and then by 0°, 90°, 180° and 270° (`vips rot`,
pixels turned exactly, written as PNG so nothing else changes), and each copy is read by
`ingest explain --json --no-reference` (minPixels 8, as bench/realphotos.py reads them). Prints,
per turn, the photos whose code is read right and the wrong codes (bench/realphotos.py's rules),
then every photo whose codes differ from its read at 0°. Copies are made once and kept in OUT.
docs/barcodes.md ("Whichever way round a photo lies") has its figures; RealPhotoTurnTests checks
the barcodes/ photos turned in memory.
"""
import argparse
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import realphotos  # noqa: E402

ROOT = common.ROOT
TURNS = (0, 90, 180, 270)
BATCH = 40


def turned_copy(path, kind, turn, out):
    """The PNG of the photo at `path` upright, turned clockwise by `turn` degrees (made once)."""
    target = os.path.join(out, f"d{turn}", kind, os.path.splitext(os.path.basename(path))[0] + ".png")
    if os.path.exists(target):
        return target
    os.makedirs(os.path.dirname(target), exist_ok=True)
    upright = target + ".v"
    try:
        subprocess.run(["vips", "autorot", path, upright], check=True, capture_output=True)
        command = ["vips", "copy", upright, target] if turn == 0 else ["vips", "rot", upright, target, f"d{turn}"]
        subprocess.run(command, check=True, capture_output=True)
    finally:
        if os.path.exists(upright):
            os.remove(upright)
    return target


def explain(binary, config, paths, jobs):
    """{path: [codes]} of `ingest explain --json` on `paths`, BATCH at a time, `jobs` at once. A
    photo ingest refuses (a 1×1 image) reads nothing."""
    batches = [paths[i:i + BATCH] for i in range(0, len(paths), BATCH)]

    def one(batch):
        return common.explain(binary, config, batch, ["--no-reference"])

    codes = {}
    with ThreadPoolExecutor(jobs) as pool:
        for explained in pool.map(one, batches):
            for entry in explained:
                codes[entry["photo"]] = entry["codes"]
    return codes


def as_read(group, code):
    """A code as `ingest explain` gives it (a retail code as its GTIN-13, another by its text) as
    bench/realphotos.py's (format, text, gtin13 or None): an EAN-8 is 00000 and its 8 digits."""
    if realphotos.is_retail(group):
        return None, code, code
    if len(code) == 13 and code.isdigit() and code.startswith("00000"):
        return None, code[5:], None
    return None, code, None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", default=os.path.join(ROOT, "..", "shared", "realphotos"))
    parser.add_argument("--out", default="/tmp/ingest-turned")
    parser.add_argument("--ingest", default=common.INGEST)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()

    photos = realphotos.load_photos(os.path.abspath(args.photos))
    os.makedirs(args.out, exist_ok=True)
    config = os.path.join(args.out, "pipeline.json")
    common.write_config(config, workers=1, minPixels=realphotos.MIN_PIXELS)

    kinds = [os.path.basename(os.path.dirname(path)) for _, path, _, _, _ in photos]
    reads = {}
    for turn in TURNS:
        with ThreadPoolExecutor(args.jobs) as pool:
            copies = list(pool.map(lambda p: turned_copy(p[0][1], p[1], turn, args.out), zip(photos, kinds)))
        codes = explain(args.ingest, config, copies, args.jobs)
        reads[turn] = [codes.get(copy, []) for copy in copies]

    print(f"{len(photos)} photos of {args.photos}, each upright then turned clockwise; ingest = {args.ingest}\n")
    print(f"{'turned':>7} {'read right':>11} {'wrong codes':>12}")
    for turn in TURNS:
        right = wrong = 0
        for (file, _, group, key, _), codes in zip(photos, reads[turn]):
            found = [as_read(group, code) for code in codes]
            right += group != "nobarcode" and any(realphotos.is_correct(group, key, read) for read in found)
            wrong += sum(realphotos.is_wrong(file, group, key, read) for read in found)
        print(f"{turn:>6}° {right:>11} {wrong:>12}")
    differ = [(photo, [reads[turn][index] for turn in TURNS]) for index, photo in enumerate(photos)
              if any(sorted(reads[turn][index]) != sorted(reads[0][index]) for turn in TURNS)]
    print(f"\nphotos whose codes differ from their read at 0°: {len(differ)}")
    for (file, _, group, _, _), codes in differ:
        print(f"  {group}/{file}: " + "; ".join(f"{turn}° {','.join(c) or '-'}" for turn, c in zip(TURNS, codes)))


if __name__ == "__main__":
    main()
