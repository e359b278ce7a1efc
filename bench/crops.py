#!/usr/bin/env python3
"""Generated close-up crops of barcodes, made as hard as real ones, with ground truth (issue 11).

    bench/crops.py [--seed 1] [--count 600] [--out /tmp/ingest-crops] [--report FILE]
                   [--ingest .build/release/ingest] [--workers 2] [--references] [--reuse]

The real photos of ../shared/realphotos are the judge of barcode reading, but they are few (81 retail
codes): too few to say how often a reader that models blur reads a wrong code that passes the check
digit. This makes many photos like them — a code alone, 100–600 px wide, some 11 px tall — each
degraded at random as phone photos are (see `degrade`), and counts, per kind of code:

    read     the photo's own code was read (retail codes by GTIN-13, others by text)
    wrong    any other code was read: for the kinds `ean-like` (a retail code's guard bars around
             random modules), `badcheck` (an EAN-13 whose check digit is wrong), `itf`, `code39` and
             `codabar` (symbologies ingest does not read) every read is wrong but a reference's right read

Every crop is its own set in OUT/inbox (OUT/truth.json has each one's code and parameters), read by
`ingest run` with minPixels 8 as bench/realphotos.py does; `--references` adds zbarimg and zxing-cpp
(PyPI's `zxing-cpp`) on the same files. A reader change that reads more of the real photos must keep
`wrong` at 0 here: that is how a threshold set on the real photos is checked on photos it was not
set on. Needs pillow, numpy and python-barcode; `ingest` built in release mode.
"""
import argparse
import datetime as dt
import json
import os
import random
import subprocess
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import realphotos  # noqa: E402  (run_ingest, zbarimg_read)
from common import check_digit  # noqa: E402
from crops_render import render, save  # noqa: E402
from ean import ean8_modules, ean13_modules, random_upce, upce_modules  # noqa: E402

ROOT = common.ROOT

def python_barcode_modules(kind, text):
    import barcode
    if kind == "code39":
        return barcode.get_barcode_class("code39")(text, add_checksum=False).build()[0]
    return barcode.get_barcode_class(kind)(text).build()[0]


def make_code(rng, kind):
    """(modules, truth) for one code of `kind`; truth: {"gtin13"} for retail, {"text"} else."""
    digits = lambda n: "".join(rng.choice("0123456789") for _ in range(n))  # noqa: E731
    if kind == "ean13":
        body = rng.choice("123456789") + digits(11)
        code = body + check_digit(body)
        return ean13_modules(code), {"gtin13": code}
    if kind == "upca":
        body = "0" + digits(11)
        code = body + check_digit(body)
        return ean13_modules(code), {"gtin13": code}
    if kind == "ean8":
        body = digits(7)
        code = body + check_digit(body)
        return ean8_modules(code), {"gtin13": "00000" + code, "ean8": code}
    if kind == "upce":
        code = random_upce(rng)
        return upce_modules(code), {"gtin13": "0" + common.upce_to_upca(code), "upce": code}
    if kind == "badcheck":
        body = rng.choice("123456789") + digits(11)
        good = check_digit(body)
        code = body + rng.choice([d for d in "0123456789" if d != good])
        return ean13_modules(code), {"none": code}
    if kind == "ean-like":
        slots = "".join(rng.choice("01") for _ in range(42))
        return "101" + slots + "01010" + "".join(rng.choice("01") for _ in range(42)) + "101", {"none": ""}
    if kind == "code128":
        text = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789-") for _ in range(rng.randint(4, 12)))
        return python_barcode_modules("code128", text), {"text": text}
    if kind == "code39":
        text = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789") for _ in range(rng.randint(4, 10)))
        return python_barcode_modules("code39", text), {"other": text}
    if kind == "itf":
        body = digits(13)
        return python_barcode_modules("itf", body + check_digit(body)), {"other": body + check_digit(body)}
    if kind == "codabar":
        text = "A" + digits(rng.randint(6, 12)) + "B"
        return python_barcode_modules("codabar", text), {"other": text}
    raise ValueError(kind)


# Kinds and how often they come: retail codes most, the rest to catch misreads.
KINDS = [("ean13", 30), ("upca", 15), ("upce", 10), ("ean8", 5), ("code128", 8), ("badcheck", 8),
         ("ean-like", 10), ("itf", 5), ("code39", 5), ("codabar", 4)]


# ---------------------------------------------------------------- rendering
def degrade(rng):
    """Random photo conditions, each drawn independently (module pixels after all scaling)."""
    return {
        "module": round(rng.uniform(1.3, 4.0), 2),
        "blur": round(rng.choices([rng.uniform(0.15, 0.55), rng.uniform(0.55, 0.9), rng.uniform(0.9, 1.2)],
                                  weights=[70, 25, 5])[0], 2),  # modules
        "spread": round(rng.uniform(-0.35, 0.35), 2),  # modules of ink gain (+) or loss (-)
        "stretch": round(rng.uniform(-0.25, 0.25), 2),  # module width change across the code (perspective)
        "bend": round(rng.choice([0, 0, rng.uniform(0.3, 2.0)]), 2),  # modules of curvature across the height
        "angle": round(rng.choice([0, 0, rng.uniform(-12, 12)]) + rng.choice([0, 0, 0, 180]), 1),
        "quiet": [rng.choice([0, 1, 3, 6, 10, 14]), rng.choice([0, 1, 3, 6, 10, 14])],
        "height": rng.choice([rng.randint(11, 30), rng.randint(30, 200), rng.randint(30, 200)]),  # pixels of bars
        "ink": rng.randint(0, 90), "paper": rng.randint(160, 255),
        "light": round(rng.uniform(0, 0.35), 2),  # light falling off across the crop
        "noise": round(rng.choice([0, rng.uniform(1, 5), rng.uniform(5, 10)]), 1),
        "digits": rng.random() < 0.6,
        "format": rng.choice(["jpeg", "jpeg", "jpeg", "webp", "png"]),
        "quality": rng.randint(35, 95),
    }


def generate(seed, count, out):
    rng = random.Random(seed)
    inbox = os.path.join(out, "inbox")
    os.makedirs(inbox)
    kinds = [k for k, weight in KINDS for _ in range(weight)]
    truth = {}
    for index in range(count):
        kind = rng.choice(kinds)
        modules, code = make_code(rng, kind)
        p = degrade(rng)
        text = code.get("ean8") or code.get("upce") or code.get("gtin13") or code.get("text") or code.get("other") or code.get("none", "")
        image = render(modules, text if kind not in ("ean-like", "codabar") else "", p, rng)
        name = common.set_name(index)
        os.makedirs(os.path.join(inbox, name))
        file = save(image, p, os.path.join(inbox, name, "crop"))
        truth[name] = {"kind": kind, **code, **p, "file": os.path.relpath(file, out)}
    with open(os.path.join(out, "truth.json"), "w") as f:
        json.dump({"seed": seed, "count": count, "sets": truth}, f, indent=1)
    return truth


def load_or_generate(seed, count, out, reuse=True):
    """OUT's crops as `generate` made them, made again unless `reuse` and OUT/truth.json has the
    same seed and count; returns the truth of each set."""
    truth_file = os.path.join(out, "truth.json")
    if reuse and os.path.exists(truth_file):
        with open(truth_file) as f:
            saved = json.load(f)
        if saved["seed"] == seed and saved["count"] == count:
            return saved["sets"]
    import shutil
    shutil.rmtree(out, ignore_errors=True)
    return generate(seed, count, out)


# ---------------------------------------------------------------- scoring
def is_own(entry, read):
    """read: (format, text, gtin13 or None)."""
    text = read[1]
    if "gtin13" in entry:
        return common.reads_gtin(entry["gtin13"], read)
    if "text" in entry:
        return text == entry["text"]
    # A symbology ingest does not read: a reference reading it right is not wrong.
    return "other" in entry and entry["other"] in text


def score(truth, reads):
    counts = defaultdict(lambda: [0, 0, 0])  # read, wrong, n
    wrong = []
    for name, entry in truth.items():
        found = reads.get(name, set())
        c = counts[entry["kind"]]
        c[2] += 1
        c[0] += any(is_own(entry, r) for r in found)
        bad = [r for r in found if not is_own(entry, r)]
        c[1] += bool(bad)
        wrong += [(name, entry, r) for r in bad]
    return counts, wrong


def report(args, truth, results, seconds):
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    lines = ["# Generated crops: reads and wrong reads (issue 11)", "",
             f"- {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC, repository at `{commit}`"
             f"{' with uncommitted changes' if dirty else ''}; `bench/crops.py --seed {args.seed} --count {args.count}`",
             f"- {len(truth)} crops, each its own set; ingest with {args.workers} workers, minPixels 8", "",
             "| kind | n | " + " | ".join(f"{label} read | {label} wrong" for label in results) + " |",
             "|---|---|" + "---|---|" * len(results)]
    tallies = {label: score(truth, reads) for label, reads in results.items()}
    for kind, _ in KINDS:
        n = tallies[next(iter(results))][0][kind][2]
        cells = []
        for label in results:
            read, bad, _ = tallies[label][0][kind]
            cells += [f"{read}/{n}" if kind not in ("badcheck", "ean-like", "itf", "code39", "codabar") else "–", str(bad)]
        lines.append(f"| {kind} | {n} | " + " | ".join(cells) + " |")
    retail = ("ean13", "upca", "upce", "ean8")
    cells = []
    for label in results:
        counts = tallies[label][0]
        cells += [f"**{sum(counts[k][0] for k in retail)}/{sum(counts[k][2] for k in retail)}**",
                  f"**{sum(c[1] for c in counts.values())}**"]
    lines.append("| **retail / all wrong** | | " + " | ".join(cells) + " |")
    for label in results:
        wrong = tallies[label][1]
        lines += ["", f"Wrong reads by {label}: {len(wrong)}"]
        for name, entry, read in wrong[:40]:
            params = {k: entry[k] for k in ("module", "blur", "spread", "stretch", "bend", "angle", "noise", "quality")}
            lines.append(f"- {name} ({entry['kind']} {entry.get('gtin13') or entry.get('text') or entry.get('none', '')}): "
                         f"{read[0]} `{read[1]}` {params}")
    if len(results) > 1:
        own = lambda label, name: any(is_own(truth[name], r) for r in results[label].get(name, set()))  # noqa: E731
        missed = [name for name in sorted(truth) if "gtin13" in truth[name] and not own("ingest", name)
                  and any(own(label, name) for label in results if label != "ingest")]
        lines += ["", f"Retail codes a reference reads and ingest does not: {len(missed)}"]
        lines += [f"- {name} ({truth[name]['kind']}): " + str({k: truth[name][k] for k in (
            "module", "blur", "spread", "stretch", "bend", "angle", "quiet", "height", "noise", "format", "quality")})
            for name in missed]
    lines += ["", "| reader | seconds |", "|---|---|"] + [f"| {k} | {v:.1f} |" for k, v in seconds.items()]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=600)
    ap.add_argument("--out", default="/tmp/ingest-crops")
    ap.add_argument("--report", help="also write the Markdown report here")
    ap.add_argument("--ingest", default=common.INGEST)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--references", action="store_true", help="also zbarimg and zxing-cpp")
    ap.add_argument("--reuse", action="store_true", help="keep crops made before with the same seed and count")
    args = ap.parse_args()

    truth = load_or_generate(args.seed, args.count, args.out, reuse=args.reuse)
    inbox = os.path.join(args.out, "inbox")
    results, seconds = {}, {}
    seconds["ingest"], results["ingest"] = realphotos.run_ingest(args.ingest, inbox, os.path.join(args.out, "work"), args.workers)
    if args.references:
        names = sorted(truth)
        paths = [os.path.join(args.out, truth[name]["file"]) for name in names]
        for label, read in (("zbarimg", realphotos.zbarimg_read), ("zxing", common.zxing_read)):
            seconds[label], found = common.read_each(read, paths, args.workers)
            results[label] = dict(zip(names, found))
    text = report(args, truth, results, seconds)
    if args.report:
        common.write_report(args.report, text)
    else:
        print(text)


if __name__ == "__main__":
    main()
