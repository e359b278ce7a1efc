#!/usr/bin/env python3
"""Product import speed: `ingest products import` beside a Python import of the same dump.

    bench/products.py [--rows 500000] [--runs 3] [--work DIR] [--skip-build] [--ingest BINARY]
                      [--before BINARY] [--report docs/benchmarks.md]

Writes (once, cached in the work folder) an Open Food Facts CSV export of --rows made-up products
with bench/off_dump.py — all ~200 columns, most empty, long ingredient lists, 0.1 % malformed
lines, the samples' codes first — and its gzip copy. Then, page cache warm, by turns, --runs times
each (the median counts; peak RSS from /usr/bin/time):

    ingest                    products import DUMP into an empty catalogue
    ingest, gzip              the same from DUMP.gz (decompressed by gzip on the other core)
    ingest --only-catalogued  into the samples' catalogue (7 captures): only their products stored
    ingest before             only with --before: an earlier ingest binary, into an empty catalogue of its own
    python baseline           bench/products_baseline.py: csv module + sqlite3 executemany, 10,000
                              rows a transaction, into an empty database

and prints a table with the goals of issue 13 beside the figures: MB/s of uncompressed input.
--report FILE rewrites the section "## Products import (bench/products.py)" of FILE with it.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from bench import ROOT, sh, timed  # noqa: E402
from report import command_line, facts, section, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
HEADING = "## Products import (bench/products.py)"


def dump(args):
    """The generated dump and its gzip copy, made once for this row count."""
    path = os.path.join(args.work, f"off-{args.rows}.csv")
    if not os.path.exists(path + ".gz"):
        codes = os.path.join(args.work, "sample-codes.txt")
        sh(f"python3 -c 'import json; [print(c[\"barcode\"]) for s in json.load(open(\"{ROOT}/samples/expected.json\"))[\"sets\"] "
           f"for c in s[\"captures\"] if c.get(\"barcode\")]' > '{codes}'")
        print(f"writing {path} ({args.rows:,} rows) …", file=sys.stderr)
        sh([sys.executable, os.path.join(HERE, "off_dump.py"), path, "--rows", str(args.rows), "--codes", codes])
        sh(f"gzip -kf '{path}'")
    return path


def catalogue(work, name, ingest, samples=False):
    """A folder with a pipeline.json and a catalogue: empty, or of the samples."""
    folder = os.path.join(work, name)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(os.path.join(folder, "inbox"))
    if samples:
        sh(f"for s in '{ROOT}'/samples/*/; do cp -a \"$s\" '{folder}/inbox/'; done")
    with open(os.path.join(folder, "pipeline.json"), "w") as f:
        f.write('{"inbox": "inbox", "library": "library", "quarantine": "quarantine"}\n')
    subprocess.run([ingest, "run", "--quiet"], cwd=folder, check=False, stdout=subprocess.DEVNULL)
    return os.path.join(folder, "library", "catalog.sqlite")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=500_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--work", default="/tmp/ingest-products")
    ap.add_argument("--skip-build", action="store_true")
    ap.add_argument("--ingest", metavar="BINARY", help="time this ingest binary instead of building one")
    ap.add_argument("--before", metavar="BINARY", help="also time an earlier ingest binary in the same turns")
    ap.add_argument("--report", metavar="FILE", help=f"rewrite the section '{HEADING}' of this Markdown file")
    args = ap.parse_args()
    if args.before:
        args.before = os.path.abspath(args.before)
    os.makedirs(args.work, exist_ok=True)
    if not args.skip_build and not args.ingest:
        common.build_release("ingest")
    ingest = os.path.abspath(args.ingest or os.path.join(ROOT, ".build", "release", "ingest"))
    path = dump(args)
    size = os.path.getsize(path)
    empty = catalogue(args.work, "empty", ingest)
    samples = catalogue(args.work, "samples", ingest, samples=True)
    sh(f"cat '{path}' '{path}.gz' > /dev/null")  # warm the page cache

    def fresh(source, name):
        target = os.path.join(args.work, name + ".sqlite")
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(target + suffix):
                os.remove(target + suffix)
        if source:
            shutil.copy(source, target)
        return target

    config = ["--config", os.path.join(args.work, "empty", "pipeline.json")]
    pipelines = {
        "ingest": lambda: [ingest, "products", "import", path, "--catalog", fresh(empty, "a")] + config,
        "ingest, gzip": lambda: [ingest, "products", "import", path + ".gz", "--catalog", fresh(empty, "b")] + config,
        "ingest --only-catalogued": lambda: [ingest, "products", "import", path, "--only-catalogued",
                                             "--catalog", fresh(samples, "c")] + config,
        "python baseline": lambda: [sys.executable, os.path.join(HERE, "products_baseline.py"), path, fresh(None, "d")],
    }
    if args.before:
        # A catalogue the earlier binary made: it may not open one a newer ingest migrated.
        empty_before = catalogue(args.work, "empty-before", args.before)
        before_config = ["--config", os.path.join(args.work, "empty-before", "pipeline.json")]
        pipelines["ingest before"] = lambda: [args.before, "products", "import", path, "--catalog",
                                              fresh(empty_before, "e")] + before_config
    results = {name: [] for name in pipelines}
    outputs = {}
    load_before = os.getloadavg()[0]
    for _ in range(args.runs):
        for name, command in pipelines.items():
            run = timed(command(), cwd=args.work)
            results[name].append((run.seconds, run.rss))
            outputs[name] = run.stdout.splitlines()[0] if run.stdout else ""
    report(args, size, results, outputs, (load_before, os.getloadavg()[0]))


def report(args, size, results, outputs, load):
    median = {name: statistics.median(s for s, _ in runs) for name, runs in results.items()}
    rss = {name: max(r for _, r in runs) for name, runs in results.items()}
    python = median["python baseline"]
    goals = {
        "ingest": ("≥ 100 MB/s, ≥ 3× python, ≤ 150 MB",
                   size / 1e6 / median["ingest"] >= 100 and python / median["ingest"] >= 3 and rss["ingest"] <= 150),
        "ingest, gzip": ("≤ 150 MB", rss["ingest, gzip"] <= 150),
        "ingest --only-catalogued": ("faster than ingest", median["ingest --only-catalogued"] < median["ingest"]),
    }
    lines = [f"{args.rows:,} rows, {size / 1e6:,.0f} MB uncompressed (OFF CSV export, 207 columns), "
             f"{os.cpu_count()} cores, page cache warm, median of {args.runs} runs each; "
             f"load average {load[0]:.1f} before, {load[1]:.1f} after", "",
             f"{'pipeline':26}{'seconds':>8}{'MB/s':>8}{'ingest is':>11}{'peak RSS':>10}  goal{'':32}met"]
    for name in results:
        seconds = median[name]
        ratio = "—" if name.startswith("ingest") and name != "ingest before" else f"{seconds / median['ingest']:.1f}x"
        goal, met = goals.get(name, ("", None))
        lines.append(f"{name:26}{seconds:8.1f}{size / 1e6 / seconds:8.0f}{ratio:>11}{rss[name]:8.0f}MB  {goal:36}"
                     f"{'' if met is None else 'yes' if met else 'NO'}".rstrip())
    lines += ["", "'ingest is' = that pipeline's median seconds / ingest's. MB/s: uncompressed bytes of the dump per second."]
    lines += [f"{name}: {line}" for name, line in outputs.items()]
    print("\n".join(lines))
    if args.report:
        write(args.report, HEADING, section(
            f"{facts(*load)}. `{command_line()}`: an Open Food Facts CSV export of {args.rows:,} made-up products "
            "written by `bench/off_dump.py` and its gzip copy, imported with `ingest products import` and with "
            f"`bench/products_baseline.py`, {args.runs} runs each by turns, page cache warm.", lines))

if __name__ == "__main__":
    main()
