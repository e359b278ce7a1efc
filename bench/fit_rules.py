#!/usr/bin/env python3
"""Fits the barcode reader's acceptance thresholds, and scores them on groups left out (issue 29).

    bench/fit_rules.py [--photos ../shared/realphotos] [--out /tmp/ingest-fit]
                       [--ingest .build/release/ingest] [--jobs 2] [--crops 300] [--hard 8]
                       [--write] [--report docs/recall.md]

The reader decides whether a read counts by a chain of rules (`AcceptanceRules`: the scan lines
that make a read trusted, the lines under which a read needs a second one, the quiet zone test's
reach, lines and the reads it spares, the template reader's contradiction). This script fits
their thresholds instead of anyone choosing them:

1. The development photos, in groups: each group of ../shared/realphotos (barcodes/ and off/), its
   photos without a code, generated crops of codes (bench/crops.py, seed 1; codes ingest must not
   read count as wrong there), generated photos without a code (bench/hardset.py's textures,
   fronts and labels, seed 1) and generated photos of codes made hard (bench/hardset.py's
   perturbations, seed 3: other photos than the seed-1 hard set docs/recall-hardset.md reports).
2. Every photo is read by `ingest explain --json --rules FILE`, FILE listing every combination of
   GRID: each photo alone, as `bench/realphotos.py` reads them, decoded once for all combinations
   and read with each by a reader of its own. Reads are cached per combination in OUT.
3. A combination's score on some groups: right codes − WRONG_COST × wrong codes (a wrong code is a
   wrong product key in the catalogue; a missed one only leaves a capture without a barcode). The
   fit is the combination with the best score on the groups it is given; ties go to the stricter
   one (GRID lists each threshold strictest first). One photo is no evidence: a threshold keeps its
   strictest value unless loosening it gains more than EVIDENCE (with the others fitted freely
   either way); the others are then fitted with those kept. (Without this rule, thresholds moved
   for a single generated crop: contradictingShortfall 0.25 read one crop more, and on
   bench/perturbed.py's copies 3 codes fewer and 5 wrong ones more.)
4. Leave one group out: for each group, fit on all the others and score the fit on it. Those are
   the figures that count; beside them, the fit on all groups (the thresholds the reader ships).

`--write` writes the fit on all groups into Sources/Pipeline/Analysis/Barcodes/AcceptanceRules+Fitted.swift
and the figures into REPORT's section "## Leave one group out (bench/fit_rules.py)". Needs what
bench/realphotos.py, bench/crops.py and bench/hardset.py need; `ingest` built in release mode.
"""
import argparse
import datetime as dt
import itertools
import json
import os
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import realphotos  # noqa: E402
import report  # noqa: E402
from fit_rules_photos import pool, references  # noqa: E402

ROOT = common.ROOT
FITTED = os.path.join(ROOT, "Sources", "Pipeline", "Analysis", "Barcodes", "AcceptanceRules+Fitted.swift")
SECTION = "## Leave one group out (bench/fit_rules.py)"
# Each threshold's values, strictest first (the tie-break).
GRID = {
    "trustedLines": [6, 3],
    "confirmedLines": [20, 12],
    "quietZoneNearest": [2.0, 3.0],
    "quietZoneLines": [2, 3],
    "quietZoneCrossings": [0, 2],
    "contradictingShortfall": [0.15, 0.25],
    "quietZoneExemptLines": [None, 20],
    "templateExemptLines": [None, 20],
}
WRONG_COST = 20
# A looser threshold must gain more than this score (one photo) over its strictest value.
EVIDENCE = 1


# ---------------------------------------------------------------- reading
def combinations():
    keys = list(GRID)
    return [dict(zip(keys, values)) for values in itertools.product(*(GRID[k] for k in keys))]


def label(rules):
    return "-".join(f"{rules[k]}" for k in GRID)


def read_all(args, config, grid, paths):
    """[{path: [codes]}] of `ingest explain` with each rules of `grid`, cached in OUT/reads per
    combination. One `ingest explain` reads each photo with every combination not cached (decoded
    once for all of them)."""
    reads, missing = [], []
    for rules in grid:
        cache = os.path.join(args.out, "reads", label(rules) + ".json")
        saved = None
        if os.path.exists(cache):
            with open(cache) as f:
                saved = json.load(f)
            if saved["sources"] != sources_stamp() or not set(saved["codes"]) >= set(paths):
                saved = None
        reads.append(saved and saved["codes"])
        if saved is None:
            missing.append(len(reads) - 1)
    if not missing:
        return reads
    os.makedirs(os.path.join(args.out, "reads"), exist_ok=True)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump([grid[i] for i in missing], f)
    chunks = [paths[i::args.jobs] for i in range(args.jobs)]
    done = [0]
    start = time.monotonic()

    def explain(chunk):
        # A few photos at a time: the JSON of 128 readings of a photo is large.
        found = [[] for _ in missing]
        for i in range(0, len(chunk), 8):
            readings = common.explain(args.ingest, config, chunk[i:i + 8], ["--no-reference", "--rules", f.name], exits=(0, 1))
            for index, explained in enumerate(readings):
                found[index] += [(e["photo"], e["codes"]) for e in explained]
            done[0] += len(chunk[i:i + 8])
            print(f"\r{done[0]}/{len(paths)} photos read with {len(missing)} combinations, {time.monotonic() - start:.0f} s",
                  end="", file=sys.stderr, flush=True)
        return found
    with ThreadPoolExecutor(max_workers=args.jobs) as jobs:
        parts = list(jobs.map(explain, chunks))
    print(file=sys.stderr)
    os.unlink(f.name)
    for position, index in enumerate(missing):
        codes = {path: [] for path in paths}
        codes.update({photo: found for part in parts for photo, found in part[position]})
        with open(os.path.join(args.out, "reads", label(grid[index]) + ".json"), "w") as out:
            json.dump({"sources": sources_stamp(), "codes": codes}, out)
        reads[index] = codes
    return reads


def sources_stamp():
    """What the reads depend on: the SHA-256 of Sources/, all but the file of fitted thresholds
    (reads with `--rules` do not use them). Cached reads are reused only for the same sources;
    `--ingest` must be built from them."""
    import hashlib
    digest = hashlib.sha256()
    for folder, dirs, files in sorted(os.walk(os.path.join(ROOT, "Sources"))):
        dirs.sort()
        for name in sorted(files):
            file = os.path.join(folder, name)
            if file != FITTED:
                digest.update(os.path.relpath(file, ROOT).encode())
                with open(file, "rb") as f:
                    digest.update(f.read())
    return digest.hexdigest()


# ---------------------------------------------------------------- fitting
def tally(photos, codes, groups):
    """(right, wrong, photos) over `groups`."""
    right = wrong = n = 0
    for group, path, is_right in photos:
        if group not in groups:
            continue
        found = codes.get(path, [])
        n += 1
        right += any(is_right(c) for c in found)
        wrong += sum(not (is_right(c) or realphotos.is_also_held(path, c)) for c in found)
    return right, wrong, n


def fit(photos, reads, groups):
    """The index of the best combination on `groups` (the first, strictest, of equals) among those
    that keep at its strictest value every threshold whose loosening alone gains at most EVIDENCE."""
    grid = combinations()
    scores = []
    for index in range(len(reads)):
        right, wrong, _ = tally(photos, reads[index], groups)
        scores.append(right - WRONG_COST * wrong)
    best = max(scores)
    kept = {name: values[0] for name, values in GRID.items()
            if best - max(s for s, rules in zip(scores, grid) if rules[name] == values[0]) <= EVIDENCE}
    allowed = [i for i, rules in enumerate(grid) if all(rules[name] == value for name, value in kept.items())]
    return max(allowed, key=lambda i: (scores[i], -i))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--photos", default=common.REALPHOTOS)
    ap.add_argument("--out", default="/tmp/ingest-fit")
    ap.add_argument("--ingest", default=common.INGEST)
    ap.add_argument("--jobs", type=int, default=2, help="ingest explain processes at once")
    ap.add_argument("--crops", type=int, default=300, help="generated crops (bench/crops.py, seed 1)")
    ap.add_argument("--hard", type=int, default=8, help="generated hard photos per perturbation (bench/hardset.py, seed 3)")
    ap.add_argument("--write", action="store_true", help="write the fit into the source and REPORT")
    ap.add_argument("--report", default=os.path.join(ROOT, "docs", "recall.md"))
    args = ap.parse_args()

    os.makedirs(args.out, exist_ok=True)
    # A copy: a build while the fit runs (about 16 minutes) must not replace the binary under it.
    snapshot = os.path.join(args.out, "ingest")
    shutil.copy2(args.ingest, snapshot)
    args.ingest = snapshot
    photos = pool(args)
    config = os.path.join(args.out, "pipeline.json")
    common.write_config(config, minPixels=realphotos.MIN_PIXELS)
    paths = [path for _, path, _ in photos]
    grid = combinations()
    reads = read_all(args, config, grid, paths)

    groups = list(dict.fromkeys(group for group, _, _ in photos))
    chosen = fit(photos, reads, set(groups))
    rows = []
    for group in groups:
        held = fit(photos, reads, set(groups) - {group})
        rows.append((group, held, tally(photos, reads[held], {group}), tally(photos, reads[chosen], {group}), grid[held]))
    text = render(args, grid, chosen, rows, photos, reads, references(args, photos))
    print(text)
    if args.write:
        write_fitted(grid[chosen])
        report.replace_section(args.report, SECTION, text)


def render(args, grid, chosen, rows, photos, reads, either):
    """The report section: the fit, then per group its held-out and all-data figures beside what
    zbarimg or zxing-cpp reads, and the photos a plain decoder reads that the held-out fit does not."""
    names = list(GRID)
    lines = [f"- {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC, repository at {report.commit()}; "
             f"{len(photos)} photos in {len(rows)} groups, each photo its own set, read by `ingest explain --rules` "
             f"with each of {len(grid)} combinations of the thresholds: " + "; ".join(f"{k} {GRID[k]}" for k in names),
             f"- score: right codes − {WRONG_COST} × wrong codes, ties to the stricter thresholds; a threshold is "
             f"loosened only where that alone gains more than {EVIDENCE} (one photo is no evidence). The fit on all "
             "groups (what the reader ships, `AcceptanceRules+Fitted.swift`): "
             + ", ".join(f"{k} {grid[chosen][k]}" for k in names),
             "- **held out**: a group's figures with the thresholds fitted on all the other groups. All data: with "
             "the fit on every group, itself included. The held-out figures are the ones that count.",
             "- either reference: photos zbarimg (defaults) or zxing-cpp reads right; below it, the photos either "
             "reads right and the held-out fit does not.", "",
             "| group | photos | **held out: right** | held out: wrong | all data: right | all data: wrong | either reference |",
             "|---|---|---|---|---|---|---|"]
    totals = [0] * 6
    lost = []
    for group, held, (hr, hw, n), (ar, aw, _), _ in rows:
        paths = [path for g, path, _ in photos if g == group]
        reference = sum(1 for path in paths if either.get(path))
        has_reference = any(path in either for path in paths)
        lines.append(f"| {group} | {n} | **{hr}** | {hw} | {ar} | {aw} | {reference if has_reference else '—'} |")
        for i, v in enumerate((n, hr, hw, ar, aw, reference)):
            totals[i] += v
        for g, path, is_right in photos:
            if g == group and either.get(path) and not any(is_right(c) for c in reads[held].get(path, [])):
                lost.append(f"`{os.path.basename(path)}` ({group})")
    n, hr, hw, ar, aw, reference = totals
    lines.append(f"| **all groups** | {n} | **{hr}** | **{hw}** | {ar} | {aw} | {reference} |")
    lines += ["", f"Read right by zbarimg or zxing-cpp, not by the held-out fit ({len(lost)}): " + (", ".join(lost) or "none") + ".",
              "", "The fit without each group:", "", "| group | " + " | ".join(names) + " |",
              "|---|" + "---|" * len(names)]
    lines += [f"| {group} | " + " | ".join(str(rules[k]) for k in names) + " |" for group, _, _, _, rules in rows]
    return "\n".join(lines) + "\n"


def swift(value):
    return "nil" if value is None else str(value)


def write_fitted(rules):
    with open(FITTED, "w") as f:
        f.write("// Written by bench/fit_rules.py; do not edit by hand, run it again.\n\n"
                "extension AcceptanceRules {\n"
                "    /// The thresholds the reader uses (see `AcceptanceRules`).\n"
                f"    package static let fitted = AcceptanceRules(trustedLines: {rules['trustedLines']}, "
                f"confirmedLines: {rules['confirmedLines']}, quietZoneNearest: {rules['quietZoneNearest']:.1f}, "
                f"quietZoneLines: {rules['quietZoneLines']},\n"
                f"                                               quietZoneCrossings: {rules['quietZoneCrossings']}, "
                f"quietZoneExemptLines: {swift(rules['quietZoneExemptLines'])},\n"
                f"                                               contradictingShortfall: {rules['contradictingShortfall']}, "
                f"templateExemptLines: {swift(rules['templateExemptLines'])})\n"
                "}\n")


if __name__ == "__main__":
    main()
