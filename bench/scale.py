#!/usr/bin/env python3
"""The catalogue at scale: every command that walks it, timed on a million captures.

    bench/scale.py [--captures 1000000] [--photos-per-capture 3] [--work DIR] [--runs 3]
                   [--run-sets 40] [--skip-build] [--skip-run] [--skip-slow] [--report docs/benchmarks.md]

Fills (once, cached in the work folder) a catalogue of N captures and 3N photos with `scale-fill`,
which writes through the project's own catalogue code; every original is a small file of its own
with its real SHA-256 in the catalogue and every thumbnail a hard link to one sample, so verify and
thumbnails find a sound library. Then times, with peak RSS from
/usr/bin/time:

    export --csv            beside the sqlite3 CLI writing the same join with group_concat
    list (first page)       for every filter list offers, and two combined
    list --count            without a filter and with one
    list --json --all       the whole catalogue as one JSON array
    verify --quick          size and modification time of every file
    verify --sample 1000    hashes 1000 random originals
    thumbnails --missing    checks every thumbnail is there
    backup FILE             a verified copy
    run                     the 12 MP corpus of bench/bench.py into a copy of the big catalogue,
                            beside the same run into an empty one, by turns (--runs each)

and prints a table with the goals of issue 16 beside the figures. Fast commands are run --runs
times and the median counts; the slow walks once. Needs the sqlite3 CLI and, for the run, the pip
packages of ../shared/corpus/gen_corpus.py. --report FILE rewrites the section
"## A million captures (bench/scale.py)" of FILE with the table.
"""
import argparse
import os
import shutil
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402
import common  # noqa: E402
from bench import ROOT, SHARED, fresh_inbox, sh  # noqa: E402
from report import command_line, facts, section, write  # noqa: E402

SYNTHETIC_START = 1_767_225_600  # 2026-01-01T00:00:00Z, the time of scale-fill's first capture
HEADING = "## A million captures (bench/scale.py)"


def timed(cmd, cwd=None, exits=(0,)):
    """(wall seconds, peak RSS in MB, stdout) of cmd (`bench.timed`); other exit codes than `exits`
    stop the benchmark."""
    return bench.timed(cmd, cwd=cwd, exits=exits)[:3]


def median_of(runs, cmd, cwd=None):
    """The median wall time and the largest peak RSS of `runs` runs of cmd, and the last stdout."""
    results = [timed(cmd, cwd) for _ in range(runs)]
    return statistics.median(r[0] for r in results), max(r[1] for r in results), results[-1][2]


def fill(args, ingest_dir):
    """The big catalogue in work/big, made once for these sizes."""
    big = os.path.join(args.work, f"big-{args.captures}x{args.photos_per_capture}")
    done = os.path.join(big, "filled")
    if os.path.exists(done):
        return big
    shutil.rmtree(big, ignore_errors=True)
    os.makedirs(big)
    thumb = os.path.join(big, "thumb.jpg")
    sh([sys.executable, "-c", "from PIL import Image; import sys; "
        "Image.new('RGB', (400, 300), (200, 120, 40)).save(sys.argv[1], quality=85)", thumb])
    print(f"filling {big} with {args.captures:,} captures …", file=sys.stderr)
    start = time.perf_counter()
    sh([os.path.join(ingest_dir, "scale-fill"), "--catalog", "library/catalog.sqlite", "--library", "library",
        "--captures", str(args.captures), "--photos-per-capture", str(args.photos_per_capture),
        "--original", os.path.join(ROOT, "samples", "single-product", "IMG_0001.jpg"),
        "--thumbnail", thumb, "--thumbnail-size", "400x300", "--unique-originals"], cwd=big)
    with open(os.path.join(big, "pipeline.json"), "w") as f:
        f.write('{"workers": 2}\n')
    with open(done, "w") as f:
        f.write(f"{time.perf_counter() - start:.0f}\n")
    return big


ANCHOR_SQL = """
SELECT c.id, c.set_name, c.barcode, c.symbology, c.gtin13, c.captured_at, c.time_source, c.photo_count,
       group_concat(p.original_name, ';'), c.rating, c.quality, min(p.thumb_path),
       group_concat(p.original_path, ';'), group_concat(p.thumb_path, ';'),
       c.agent_id, a.name, c.request_id, c.note,
       ifnull(pr.name, 'Product (' || substr(c.captured_at, 1, 10) || ' ' || substr(c.captured_at, 12, 5) || ')'),
       pr.brands, pr.quantity, pr.energy_kcal, pr.nutriscore_grade, pr.source
FROM capture c LEFT JOIN photo p ON p.capture_id = c.id LEFT JOIN agent a ON a.id = c.agent_id
     LEFT JOIN product pr ON pr.gtin14 = '0' || c.gtin13
GROUP BY c.set_name, c.captured_utc, c.id
ORDER BY c.set_name, c.captured_utc, c.id;
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--captures", type=int, default=1_000_000)
    ap.add_argument("--photos-per-capture", type=int, default=3)
    ap.add_argument("--work", default="/tmp/ingest-scale")
    ap.add_argument("--runs", type=int, default=3, help="runs of each fast command; the median counts")
    ap.add_argument("--run-sets", type=int, default=40, help="sets of the 12 MP corpus for the run")
    ap.add_argument("--corpus-work", default="/tmp/ingest-bench", help="where bench/bench.py caches its corpus")
    ap.add_argument("--skip-build", action="store_true")
    ap.add_argument("--skip-run", action="store_true", help="do not time ingest run")
    ap.add_argument("--skip-slow", action="store_true", help="skip list --json --all and thumbnails --missing")
    ap.add_argument("--report", metavar="FILE", help=f"rewrite the section '{HEADING}' of this Markdown file")
    args = ap.parse_args()
    if not shutil.which("sqlite3"):
        sys.exit("needs the sqlite3 CLI for the anchor: apt-get install sqlite3")
    if not args.skip_build:
        common.build_release("ingest", "scale-fill")
    bin_dir = os.path.join(ROOT, ".build", "release")
    ingest = os.path.join(bin_dir, "ingest")
    big = fill(args, bin_dir)
    catalog = os.path.join(big, "library", "catalog.sqlite")
    photos = args.captures * args.photos_per_capture
    rows = []  # (what, seconds, rss, figure, goal, met)

    def row(what, seconds, rss, figure="", goal="", met=None):
        rows.append((what, seconds, rss, figure, goal, met))
        print(f"{what}: {seconds:.3f} s, {rss:.0f} MB {figure}", file=sys.stderr)

    def ingest_cmd(*arguments):
        return [ingest] + list(arguments) + ["--config", os.path.join(big, "pipeline.json")]

    # Warm the page cache with the database once, so the first timed command is not the one that pays.
    sh(f"cat '{catalog}' > /dev/null")
    load_before = os.getloadavg()[0]

    out = os.path.join(big, "export.csv")
    anchor_out = os.path.join(big, "anchor.csv")
    export_s, export_rss, _ = median_of(args.runs, ingest_cmd("export", "--csv", out, "--quiet"))
    with open(os.path.join(big, "anchor.sql"), "w") as f:
        f.write(f".headers on\n.mode csv\n.output {anchor_out}\n{ANCHOR_SQL}")
    anchor_s, anchor_rss, _ = median_of(args.runs, ["sqlite3", "-readonly", catalog, f".read {os.path.join(big, 'anchor.sql')}"])
    row("export --csv", export_s, export_rss, f"{export_s / anchor_s:.2f}× sqlite3", "≤ 2× sqlite3, ≤ 64 MB",
        export_s <= 2 * anchor_s and export_rss <= 64)
    row("  sqlite3 -csv (anchor)", anchor_s, anchor_rss)
    exported = sum(1 for _ in open(out)) - 1
    if exported != args.captures:
        sys.exit(f"export wrote {exported} rows, not {args.captures}")

    middle = SYNTHETIC_START + args.captures * 31 // 2
    day = time.strftime("%Y-%m-%d", time.gmtime(middle))
    filters = [
        ("list", []),
        ("list --barcode", ["--barcode", "5900000012343"]),
        ("list --set", ["--set", f"set-{args.captures // 25 // 2:06d}"]),
        ("list --since", ["--since", day]),
        ("list --until", ["--until", day]),
        ("list --no-barcode", ["--no-barcode"]),
        ("list --rating", ["--rating", "Poor"]),
        ("list --agent", ["--agent", "agent-3"]),
        ("list --agent --rating", ["--agent", "agent-3", "--rating", "Fair"]),
        ("list --since --no-barcode", ["--since", day, "--no-barcode"]),
        ("list --json (first page)", ["--json"]),
    ]
    for what, arguments in filters:
        seconds, rss, _ = median_of(args.runs, ingest_cmd("list", *arguments))
        row(what, seconds, rss, "", "< 50 ms", seconds < 0.05)
    for what, arguments in [("list --count", []), ("list --count --rating", ["--rating", "Good"])]:
        seconds, rss, text = median_of(args.runs, ingest_cmd("list", "--count", *arguments))
        row(what, seconds, rss, f"{int(text):,} matches", "< 200 ms", seconds < 0.2)

    if not args.skip_slow:
        seconds, rss, _ = timed(ingest_cmd("list", "--json", "--all"))
        row("list --json --all", seconds, rss, f"{args.captures / seconds:,.0f} captures/s", "≤ 64 MB", rss <= 64)
    seconds, rss, _ = timed(ingest_cmd("verify", "--quick"))
    row("verify --quick", seconds, rss, f"{photos / seconds:,.0f} photos/s", "≥ 50,000 photos/s, ≤ 64 MB",
        photos / seconds >= 50_000 and rss <= 64)
    seconds, rss, _ = timed(ingest_cmd("verify", "--sample", "1000"))
    row("verify --sample 1000", seconds, rss, "", "≤ 64 MB", rss <= 64)
    if not args.skip_slow:
        seconds, rss, _ = timed(ingest_cmd("thumbnails", "--missing", "--quiet"))
        row("thumbnails --missing", seconds, rss, f"{photos / seconds:,.0f} photos/s", "≤ 64 MB", rss <= 64)
    copy = os.path.join(big, "backup.sqlite")
    if os.path.exists(copy):
        os.remove(copy)
    seconds, rss, _ = timed(ingest_cmd("backup", copy))
    row("backup", seconds, rss, f"{os.path.getsize(copy) / 1e9:.2f} GB", "≤ 64 MB", rss <= 64)

    if not args.skip_run:
        run_rows(args, ingest, catalog, row)

    load_after = os.getloadavg()[0]
    lines = [f"{args.captures:,} captures, {photos:,} photos ({os.path.getsize(catalog) / 1e9:.2f} GB catalogue), "
             f"{os.cpu_count()} cores, page cache warm; fast commands: median of {args.runs} runs", "",
             f"{'command':<28} {'seconds':>8} {'peak RSS':>9}  {'':<22} {'goal':<28} met"]
    for what, seconds, rss, figure, goal, met in rows:
        mark = "" if met is None else ("yes" if met else "NO")
        lines.append(f"{what:<28} {seconds:>8.3f} {rss:>7.0f}MB  {figure:<22} {goal:<28} {mark}".rstrip())
    lines += ["", "Wall time includes starting the process (about 10 ms)."]
    print("\n" + "\n".join(lines))
    if args.report:
        filled = open(os.path.join(big, "filled")).read().strip()
        write(args.report, HEADING, section(
            f"{facts(load_before, load_after)}. `{command_line()}`: every command that walks a catalogue of "
            f"{args.captures:,} captures filled by `scale-fill` (cached; the fill took {filled} s), peak RSS from "
            "`/usr/bin/time`.", lines))

def run_rows(args, ingest, catalog, row):
    """`ingest run` of the 12 MP corpus into a copy of the big catalogue and into an empty one."""
    corpus = os.path.join(args.corpus_work, f"corpus-{args.run_sets}-11-4032x3024")
    if not os.path.exists(os.path.join(corpus, "expected.json")):
        print(f"generating the corpus in {corpus} …", file=sys.stderr)
        sh([sys.executable, os.path.join(SHARED, "corpus", "gen_corpus.py"), corpus, "--sets", str(args.run_sets),
            "--seed", "11", "--width", "4032", "--height", "3024"])
    sh(f"cat '{corpus}'/inbox/*/* > /dev/null 2>&1 || true")
    times = {"empty": [], "big": []}
    rss = {"empty": 0, "big": 0}
    for turn in range(args.runs):
        for kind in ("empty", "big"):
            inbox = fresh_inbox(corpus, args.work, f"run-{kind}")
            base = os.path.dirname(inbox)
            os.makedirs(os.path.join(base, "library"))
            if kind == "big":
                shutil.copyfile(catalog, os.path.join(base, "library", "catalog.sqlite"))
                sh(f"cat '{base}/library/catalog.sqlite' > /dev/null")
            # The copy's gigabytes must reach the disk before the clock starts, or the run's own
            # fsyncs wait for them.
            os.sync()
            common.write_config(os.path.join(base, "pipeline.json"), end="\n", workers=2,
                                **common.without_text(ingest))
            # exit 1: the corpus holds broken files on purpose, which the run sets aside
            seconds, peak, _ = timed([ingest, "run", "--config", os.path.join(base, "pipeline.json"), "--quiet"],
                                     exits=(0, 1))
            times[kind].append(seconds)
            rss[kind] = max(rss[kind], peak)
            print(f"run {turn + 1}/{args.runs} into {kind}: {seconds:.2f} s", file=sys.stderr)
    empty, big = statistics.median(times["empty"]), statistics.median(times["big"])
    row(f"run, {args.run_sets} sets 12 MP, empty", empty, rss["empty"])
    row(f"run, {args.run_sets} sets 12 MP, into big", big, rss["big"], f"{(big / empty - 1) * 100:+.1f} %",
        "≤ 5 % slower than empty", big <= empty * 1.05)
    shutil.rmtree(os.path.join(args.work, "run-big"), ignore_errors=True)


if __name__ == "__main__":
    main()
