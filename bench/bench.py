#!/usr/bin/env python3
"""Speed and recall of `ingest run` against the reference pipelines, side by side in one run.

    bench/bench.py [--sets 40] [--seed 11] [--width 4032] [--height 3024] [--workers 2]
                   [--runs 3] [--work DIR] [--shell] [--skip-build] [--ingest BINARY]
                   [--before BINARY [--before-label TEXT]] [--metrics] [--report docs/benchmarks.md]

Generates (once, cached in the work folder) a corpus with ../shared/corpus/gen_corpus.py, builds
`ingest` in release mode (not with --skip-build or --ingest), then on the same photos, page cache
warm, runs:

    ingest           .build/release/ingest (or --ingest BINARY) run (workers N) + export --csv
    ingest before    only with --before: an earlier ingest binary, run and scored the same way
    ingest metrics   only with --metrics: the same binary recording its metrics (run --metrics-file),
                     to show what recording them costs
    python baseline  ../shared/bench/baseline_python.py --workers N
    shell baseline   ../shared/bench/baseline_shell.sh with JOBS=N (only with --shell: slow)
    vipsthumbnail    vipsthumbnail -s 400x over all photos, one process: the floor, thumbnails only

each pipeline --runs times, taking turns (so a slow spell of the machine hits all of them), and
prints the median seconds (with the range), photos/s, ingest's speed-up over each, barcode recall,
grouping accuracy and peak RSS (from /usr/bin/time); --report FILE rewrites the section
"## Speed (bench/bench.py)" of FILE with it. Needs the pip packages of gen_corpus.py plus pyvips and pyzbar,
and the apt packages libvips-tools zbar-tools (and libimage-exiftool-perl sqlite3 for --shell).
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from typing import NamedTuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import report  # noqa: E402

ROOT, SHARED = common.ROOT, common.SHARED
HEADING = "## Speed (bench/bench.py)"


def sh(cmd, **kw):
    return subprocess.run(cmd, shell=isinstance(cmd, str), check=True, **kw)


class Timing(NamedTuple):
    seconds: float  # wall, taken here around the process (finer than /usr/bin/time's 10 ms)
    rss: float      # peak resident set, MB
    stdout: str
    cpu: float      # user + system seconds, the process and the children it waited for


def timed(cmd, env=None, cwd=None, exits=(0, 1)):
    """Runs cmd under /usr/bin/time; its Timing. Other exit codes than `exits` stop the benchmark."""
    start = time.perf_counter()
    out = subprocess.run(["/usr/bin/time", "-f", "BENCH %M %U %S"] + cmd, capture_output=True, text=True,
                         env=env, cwd=cwd)
    seconds = time.perf_counter() - start
    match = re.search(r"^BENCH (\d+) ([\d.]+) ([\d.]+)$", out.stderr, re.M)
    if not match or out.returncode not in exits:
        sys.exit(f"{' '.join(cmd)} exited {out.returncode}:\n{out.stderr[-2000:]}")
    return Timing(seconds, int(match.group(1)) / 1024, out.stdout, float(match.group(2)) + float(match.group(3)))


def score(outdir, expected):
    text = sh([sys.executable, os.path.join(SHARED, "bench", "score.py"), outdir, expected],
              capture_output=True, text=True).stdout
    def field(label):
        m = re.search(rf"^{label}\s+(\d+)/(\d+)", text, re.M)
        return f"{m.group(1)}/{m.group(2)}" if m else "?"
    return {"recall": field("barcode recall"), "grouping": field("grouping accuracy"),
            "wrong": (re.search(r"^wrong barcodes\s+(\d+)", text, re.M) or [None, "?"])[1], "text": text}


def fresh_inbox(corpus, work, name):
    """A hard-linked copy of the corpus inbox: instant, same page cache, safe to move out of."""
    inbox = os.path.join(work, name, "inbox")
    shutil.rmtree(os.path.join(work, name), ignore_errors=True)
    os.makedirs(os.path.dirname(inbox))
    sh(["cp", "-al", os.path.join(corpus, "inbox"), inbox])
    return inbox


def add_corpus_options(ap):
    """--sets, --seed, --width and --height: the gen_corpus.py corpus corpus_and_ingest makes."""
    ap.add_argument("--sets", type=int, default=40)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--width", type=int, default=4032)
    ap.add_argument("--height", type=int, default=3024)


def corpus_and_ingest(args):
    """The corpus folder (generated once, cached in --work), its expected.json, and the ingest
    binary to time (built in release mode unless --skip-build or --ingest)."""
    corpus = os.path.join(args.work, f"corpus-{args.sets}-{args.seed}-{args.width}x{args.height}")
    expected = os.path.join(corpus, "expected.json")
    if not os.path.exists(expected):
        print(f"generating the corpus in {corpus} …", file=sys.stderr)
        sh([sys.executable, os.path.join(SHARED, "corpus", "gen_corpus.py"), corpus, "--sets", str(args.sets),
            "--seed", str(args.seed), "--width", str(args.width), "--height", str(args.height)])
    if not args.skip_build and not args.ingest:
        common.build_release("ingest")
    return corpus, expected, os.path.abspath(args.ingest or os.path.join(ROOT, ".build", "release", "ingest"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_corpus_options(ap)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--runs", type=int, default=3, help="runs of each pipeline; the median counts")
    ap.add_argument("--work", default="/tmp/ingest-bench")
    ap.add_argument("--shell", action="store_true", help="also run the (slow) shell baseline")
    ap.add_argument("--skip-build", action="store_true")
    ap.add_argument("--ingest", metavar="BINARY",
                    help="the ingest binary to time (default .build/release/ingest, built first unless --skip-build)")
    ap.add_argument("--before", metavar="BINARY",
                    help="an earlier ingest binary, run as one more pipeline ('ingest before')")
    ap.add_argument("--before-label", metavar="TEXT", default="",
                    help="what the earlier binary is, printed under the table")
    ap.add_argument("--metrics", action="store_true",
                    help="also time ingest recording its metrics (run --metrics-file), to show their cost")
    ap.add_argument("--report", metavar="FILE", help=f"rewrite the section '{HEADING}' of this Markdown file")
    args = ap.parse_args()

    corpus, expected, ingest = corpus_and_ingest(args)
    before = args.before and os.path.abspath(args.before)
    if not os.access(ingest, os.X_OK):
        sys.exit(f"{ingest}: no ingest binary; build one with `swift build -c release --product ingest` "
                 "or pass --ingest")
    if before and not os.access(before, os.X_OK):
        sys.exit(f"--before {before}: not an executable file")
    # the product photos of the ground truth (the corpus' broken files would stop vipsthumbnail)
    truth = json.load(open(expected))
    photos = sorted(os.path.join(corpus, "inbox", s["name"], p) for s in truth["sets"] for c in s["captures"]
                    for p in c["photos"])
    n = len(photos)
    sh("cat " + " ".join(f"'{p}'" for p in photos) + " > /dev/null")  # warm the page cache

    def run_ingest(binary=ingest, folder="ingest", metrics=False):
        inbox = fresh_inbox(corpus, args.work, folder)
        base = os.path.dirname(inbox)
        config = os.path.join(base, "pipeline.json")
        common.write_config(config, workers=args.workers, **common.without_text(binary))
        extra = ["--metrics-file", os.path.join(base, "metrics.prom")] if metrics else []
        run = timed([binary, "run", "--config", config, "--quiet"] + extra)
        sh([binary, "export", "--config", config, "--csv", os.path.join(base, "captures.csv"), "--quiet"])
        return run, score(base, expected)

    def run_python():
        inbox = fresh_inbox(corpus, args.work, "python")
        out = os.path.join(os.path.dirname(inbox), "out")
        os.makedirs(out)
        run = timed([sys.executable, os.path.join(SHARED, "bench", "baseline_python.py"), inbox, out,
                     "--workers", str(args.workers)])
        return run, score(out, expected)

    def run_shell():
        inbox = fresh_inbox(corpus, args.work, "shell")
        out = os.path.join(os.path.dirname(inbox), "out")
        run = timed([os.path.join(SHARED, "bench", "baseline_shell.sh"), inbox, out],
                    env=dict(os.environ, JOBS=str(args.workers)))
        return run, score(out, expected)

    def run_vipsthumbnail():
        # the floor: thumbnails only, one vipsthumbnail process
        thumbs = os.path.join(args.work, "vipsthumbnail")
        shutil.rmtree(thumbs, ignore_errors=True)
        os.makedirs(thumbs)
        return timed(["vipsthumbnail", "-s", "400x", "-o", os.path.join(thumbs, "%s.jpg")] + photos), None

    pipelines = [("ingest", run_ingest)]
    if before:
        pipelines.append(("ingest before", lambda: run_ingest(before, "ingest-before")))
    if args.metrics:
        pipelines.append(("ingest metrics", lambda: run_ingest(ingest, "ingest-metrics", metrics=True)))
    pipelines.append(("python baseline", run_python))
    if args.shell:
        pipelines.append(("shell baseline", run_shell))
    pipelines.append(("vipsthumbnail floor", run_vipsthumbnail))
    load_before = os.getloadavg()
    runs = {name: [] for name, _ in pipelines}
    for turn in range(args.runs):
        for name, run in pipelines:
            runs[name].append(run())
            print(f"run {turn + 1}/{args.runs} {name}: {runs[name][-1][0].seconds:.1f} s", file=sys.stderr)
    load_after = os.getloadavg()
    results = []
    for name, _ in pipelines:
        times = sorted(timing.seconds for timing, _ in runs[name])
        cpu = statistics.median(timing.cpu for timing, _ in runs[name]) / n
        results.append((name, statistics.median(times), (times[0], times[-1]), cpu,
                        max(timing.rss for timing, _ in runs[name]), runs[name][-1][1]))

    mine = results[0][1]
    lines = [f"{n} photos of {args.width}x{args.height}, {args.sets} sets (seed {args.seed}), "
             f"{args.workers} workers, {os.cpu_count()} cores, page cache warm, median of {args.runs} runs each; "
             f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after", "",
             f"{'pipeline':<20} {'seconds':>8} {'(range)':>13} {'photos/s':>9} {'CPU/photo':>10} {'ingest is':>10} "
             f"{'recall':>7} {'grouping':>9} {'wrong':>6} {'peak RSS':>9}"]
    for name, seconds, (low, high), cpu, rss, s in results:
        ratio = "—" if name == "ingest" else f"{seconds / mine:.1f}x"
        recall, grouping, wrong = (s["recall"], s["grouping"], s["wrong"]) if s else ("—", "—", "—")
        lines.append(f"{name:<20} {seconds:>8.1f} {f'({low:.1f}–{high:.1f})':>13} {n / seconds:>9.1f} "
                     f"{cpu * 1000:>8.1f}ms {ratio:>10} {recall:>7} {grouping:>9} {wrong:>6} {rss:>7.0f}MB")
    lines += ["", "'ingest is' = that pipeline's median seconds / ingest's (above 1: ingest is faster).",
              "CPU/photo = median user + system seconds of a run (/usr/bin/time) / the photos."]
    if args.ingest or before:
        lines.append(f"ingest = {ingest}")
    if before:
        lines.append(f"ingest before = {before}, {args.before_label or 'an earlier build'}")
    print("\n" + "\n".join(lines))
    if args.report:
        report.write(args.report, HEADING, report.section(
            f"{report.facts(load_before[0], load_after[0])}. `{report.command_line()}`: the corpus of "
            f"`gen_corpus.py --sets {args.sets} --seed {args.seed} --width {args.width} --height {args.height}`, "
            f"every pipeline {args.runs} times by turns, page cache warm.", lines))

if __name__ == "__main__":
    main()
