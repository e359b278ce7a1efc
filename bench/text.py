#!/usr/bin/env python3
"""Reading the words on the photos: `ingest text` beside `tesseract --psm 1` on the same photos.

    bench/text.py [--sets 20] [--seed 31] [--width 2016] [--height 1512] [--work DIR] [--ingest BINARY]
                  [--real] [--report docs/benchmarks.md]

Generates `gen_corpus.py --text` photo sets (cached in the work folder), ingests them with
`ingest run --no-text`, then, by turns on a warm page cache:

    ingest text       reads every catalogued photo (2 workers, one Tesseract each)
    tesseract --psm 1 Debian's tesseract on a 2000-px copy of each original (made beforehand, not
                      timed), eng+fra+deu, OMP_THREAD_LIMIT=1, two at a time

and scores both against the corpus' truth: a front photo's product name is found when a search for
its last word finds its capture (`ingest list --search`; for tesseract, the word in its text,
folded); the nutrition values of the nutrition photos are right when `show --json`'s
`labelNutrition` gives each truth value the photo prints (to its printed precision; a US table
prints no kJ). CPU is user + system seconds of all processes. With --real, also the real grocery
photos of bench/realtext.tsv (a word a person reads on each, from ../shared/realphotos/off), each
its own set: found when a search for the word finds its capture (tesseract: the word in its text).
--report FILE rewrites the section "## Text (bench/text.py)" of FILE.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import unicodedata
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from bench import timed  # noqa: E402
from report import command_line, facts, section, write  # noqa: E402

HEADING = "## Text (bench/text.py)"
# The values a layout does not print: gen_corpus's US "Nutrition Facts" gives Calories, no kJ.
NOT_PRINTED = {"us": ("energy_kj",)}
NUTRIENTS = {"energy_kj": "energyKJ", "energy_kcal": "energyKcal", "fat": "fat", "saturates": "saturates",
             "carbohydrate": "carbohydrate", "sugars": "sugars", "fibre": "fibre", "protein": "protein", "salt": "salt"}


def fold(text):
    return "".join(c for c in unicodedata.normalize("NFD", text.lower()) if unicodedata.category(c) != "Mn")


def corpus(args):
    out = os.path.join(args.work, f"corpus-{args.sets}-{args.seed}-{args.width}x{args.height}")
    if not os.path.exists(os.path.join(out, "expected.json")):
        shutil.rmtree(out, ignore_errors=True)
        subprocess.run(["python3", common.GEN_CORPUS, out, "--text", "--sets", str(args.sets), "--seed", str(args.seed),
                        "--width", str(args.width), "--height", str(args.height)], check=True, capture_output=True)
    with open(os.path.join(out, "expected.json")) as f:
        return out, json.load(f)


def truths(expected):
    """(set, photo file, truth) of every photo whose text the corpus says."""
    for s in expected["sets"]:
        for capture in s["captures"]:
            for name, truth in (capture.get("text") or {}).items():
                yield s["name"], name, truth


def ingest(binary, command, config, *more):
    return subprocess.run([binary, command, "--config", config, *more], capture_output=True, text=True)


def real_photos(args):
    """Of bench/realtext.tsv's photos, how many ingest's search and tesseract's text find the word of."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "realtext.tsv")) as f:
        labels = [line.rstrip("\n").split("\t") for line in f if line.strip() and not line.startswith("#")]
    inbox = os.path.join(args.work, "real-inbox")
    shutil.rmtree(inbox, ignore_errors=True)
    for index, (name, _) in enumerate(labels):
        os.makedirs(os.path.join(inbox, common.set_name(index)))
        os.symlink(os.path.join(common.REALPHOTOS, "off", name), os.path.join(inbox, common.set_name(index), name))
    work = os.path.join(args.work, "real-run")
    seconds, _ = common.run_ingest(args.ingest, inbox, work, workers=2, originals="copy", minPixels=8, text="on")
    config = os.path.join(work, "pipeline.json")
    found = {"ingest": 0, "tesseract": 0}
    misses = []
    environment = dict(os.environ, OMP_THREAD_LIMIT="1")
    for index, (name, word) in enumerate(labels):
        listed = json.loads(ingest(args.ingest, "list", config, "--search", word, "--all", "--json").stdout or "[]")
        hit = any(c["setName"] == common.set_name(index) for c in listed)
        copy = os.path.join(args.work, "real-copy.png")
        subprocess.run(["vips", "thumbnail", os.path.join(common.REALPHOTOS, "off", name), copy, "2000", "--size", "both"],
                       check=True)
        read = subprocess.run(["tesseract", copy, "stdout", "--psm", "1", "-l", "eng+fra+deu"], capture_output=True,
                              text=True, env=environment).stdout
        found["ingest"] += hit
        found["tesseract"] += fold(word) in fold(read)
        if not hit:
            misses.append(f"{name} ({word})")
    return len(labels), found, misses


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sets", type=int, default=20)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--width", type=int, default=2016)
    parser.add_argument("--height", type=int, default=1512)
    parser.add_argument("--work", default="/tmp/ingest-bench-text")
    parser.add_argument("--ingest", default=common.INGEST)
    parser.add_argument("--real", action="store_true")
    parser.add_argument("--real-only", action="store_true", help="only the real photos (no corpus, no timing)")
    parser.add_argument("--report")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    if args.real_only:
        total, found, misses = real_photos(args)
        print(f"real: ingest {found['ingest']} of {total}, tesseract {found['tesseract']}; missed: {', '.join(misses)}")
        return
    out, expected = corpus(args)
    work = os.path.join(args.work, "run")
    common.run_ingest(args.ingest, os.path.join(out, "inbox"), work, link=True, workers=2, text="off")
    config = os.path.join(work, "pipeline.json")
    common.write_config(config, workers=2, text="on")
    catalogue = os.path.join(work, "library", "catalog.sqlite")
    import sqlite3
    db = sqlite3.connect(catalogue)
    photos = {(s, n): (p, c) for s, n, p, c in db.execute(
        "SELECT c.set_name, ph.source_path, ph.original_path, c.id FROM photo ph JOIN capture c ON c.id = ph.capture_id")}
    db.close()

    # The reference's copies, made before anything is timed.
    copies = os.path.join(args.work, "copies")
    os.makedirs(copies, exist_ok=True)
    originals = sorted(p for p, _ in photos.values())
    for index, original in enumerate(originals):
        copy = os.path.join(copies, f"{index:04d}.png")
        if not os.path.exists(copy):
            subprocess.run(["vips", "thumbnail", os.path.join(work, "library", original), copy, "2000", "--size", "both"],
                           check=True)
    load_before = os.getloadavg()[0]
    text = timed([args.ingest, "text", "--config", config, "--workers", "2", "--quiet"])
    environment = dict(os.environ, OMP_THREAD_LIMIT="1")

    def tesseract(index):
        copy = os.path.join(copies, f"{index:04d}.png")
        return timed(["tesseract", copy, "stdout", "--psm", "1", "-l", "eng+fra+deu"], env=environment, exits=(0,))
    with ThreadPoolExecutor(max_workers=2) as pool:
        reference = list(pool.map(tesseract, range(len(originals))))
    load_after = os.getloadavg()[0]
    reference_text = {original: fold(r.stdout) for original, r in zip(originals, reference)}

    names = {"ingest": [0, 0], "tesseract": [0, 0]}
    upright = {"ingest": [0, 0], "tesseract": [0, 0]}
    values = [0, 0, 0]  # right, read wrong, not read
    for set_name, name, truth in truths(expected):
        original, capture = photos.get((set_name, name), (None, None))
        if original is None:
            continue
        if truth["role"] == "front":
            last = fold(truth["name"].split()[-1])
            listed = ingest(args.ingest, "list", config, "--search", last, "--all", "--json")
            found = {"ingest": capture in {c["id"] for c in json.loads(listed.stdout or "[]")},
                     "tesseract": last in reference_text[original]}
            for reader, hit in found.items():
                names[reader][0] += hit
                names[reader][1] += 1
                if not truth["turned"]:
                    upright[reader][0] += hit
                    upright[reader][1] += 1
        else:
            shown = json.loads(ingest(args.ingest, "show", config, capture, "--json").stdout)
            read = shown.get("labelNutrition") or {}
            for key, value in truth["nutrition"].items():
                if key in NOT_PRINTED.get(truth["layout"], ()):
                    continue
                got = read.get(NUTRIENTS[key])
                values[0 if got is not None and abs(got - value) < 0.005 else 1 if got is not None else 2] += 1
    reference_cpu = sum(r.cpu for r in reference)
    count = len(originals)
    table = [
        f"{'reader':<28}{'names found':>14}{'not turned':>14}{'CPU s':>9}{'ms/photo':>10}",
        f"{'ingest text':<28}{names['ingest'][0]:>7} / {names['ingest'][1]:<4}{upright['ingest'][0]:>7} / {upright['ingest'][1]:<4}"
        f"{text.cpu:>9.1f}{1000 * text.cpu / count:>10.0f}",
        f"{'tesseract --psm 1, 2000 px':<28}{names['tesseract'][0]:>7} / {names['tesseract'][1]:<4}"
        f"{upright['tesseract'][0]:>7} / {upright['tesseract'][1]:<4}{reference_cpu:>9.1f}{1000 * reference_cpu / count:>10.0f}",
        "",
        f"nutrition values of {sum(values)}: {values[0]} right, {values[1]} read wrong, {values[2]} not read (ingest)",
        f"ingest text: {text.seconds:.1f} s wall, peak RSS {text.rss:.0f} MB; CPU ratio to tesseract "
        f"{text.cpu / reference_cpu:.2f}",
    ]
    if args.real:
        total, found, misses = real_photos(args)
        table += ["", f"real grocery photos (bench/realtext.tsv), a word a person reads found: ingest {found['ingest']} of "
                      f"{total}, tesseract --psm 1 {found['tesseract']} of {total}",
                  "ingest missed: " + ", ".join(misses)]
    lead = (f"`{command_line()}`: {count} photos of {args.width}×{args.height}, {facts(load_before, load_after)}. "
            f"A name is found when a search for its last word finds its capture.")
    print(lead)
    print("\n".join(table))
    if args.report:
        write(args.report, HEADING, section(lead, table))


if __name__ == "__main__":
    main()
