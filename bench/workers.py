#!/usr/bin/env python3
"""Workers sharing one PostgreSQL catalogue beside one SQLite run, on the 12 MP corpus.

    bench/workers.py [--sets 40] [--seed 11] [--width 4032] [--height 3024] [--runs 3]
                     [--work DIR] [--skip-build] [--ingest BINARY] [--report docs/benchmarks.md]

Uses the corpus of bench/bench.py (generated once, cached in the work folder), builds `ingest`
in release mode (not with --skip-build or --ingest), starts a throwaway PostgreSQL cluster
(Debian's postgresql: initdb + pg_ctl in a temporary folder, on a Unix socket, with PostgreSQL's
default durability — every commit flushed, as SQLite's are), then, page cache warm, by turns,
--runs times each:

    sqlite        one `ingest run` (workers 2) into an empty SQLite catalogue
    postgres, 1   one `ingest run` (workers 2) into an empty PostgreSQL database
    postgres, 2   two `ingest run`s at once (workers 1 each) sharing inbox, library and database
    postgres, 3   three at once (workers 1 each)

and prints the median wall time (first start to last end, with the range), the time beside the
SQLite run, photos and captures catalogued, and what claiming a set cost (each worker logs its
claims' mean and longest, `--verbose`). On this 2-core machine the point is the overhead of
sharing, not the scaling: more processes share the same two cores. Goals (issue 15): PostgreSQL
with one worker within 10 % of SQLite's time, claims under 5 ms a set. --report FILE rewrites the
section "## PostgreSQL workers (bench/workers.py)" of FILE with the table.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from bench import add_corpus_options, corpus_and_ingest, fresh_inbox, sh  # noqa: E402
from report import command_line, facts, section, write  # noqa: E402

HEADING = "## PostgreSQL workers (bench/workers.py)"


class Cluster:
    """A throwaway PostgreSQL cluster; as root, run by the `postgres` user (PostgreSQL refuses root)."""

    def __init__(self):
        versions = sorted(int(v) for v in os.listdir("/usr/lib/postgresql") if v.isdigit())
        if not versions:
            sys.exit("no PostgreSQL server in /usr/lib/postgresql: scripts/setup --test installs Debian's postgresql")
        self.bin = f"/usr/lib/postgresql/{versions[-1]}/bin"
        self.folder = tempfile.mkdtemp(prefix="ingest-bench-pg-")
        self.port = 55000 + os.getpid() % 1000
        if os.getuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        self.server(["initdb", "-D", f"{self.folder}/data", "-U", "ingest", "--auth=trust", "-E", "UTF8", "--no-locale"])
        self.server(["pg_ctl", "-D", f"{self.folder}/data", "-l", f"{self.folder}/log", "-w", "-o",
                     f"-k {self.folder} -p {self.port} -c listen_addresses=''", "start"])

    def server(self, command):
        prefix = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
        subprocess.run(prefix + [f"{self.bin}/{command[0]}"] + command[1:], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)

    def url(self, database):
        return f"postgresql://ingest@/{database}?host={self.folder}&port={self.port}"

    def psql(self, sql, database="postgres"):
        return subprocess.run(["psql", "-X", "-q", "-A", "-t", "-d", self.url(database), "-c", sql], check=True,
                              capture_output=True, text=True).stdout.strip()

    def fresh(self, name):
        self.psql(f"DROP DATABASE IF EXISTS {name}")
        self.psql(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self):
        self.server(["pg_ctl", "-D", f"{self.folder}/data", "-m", "fast", "-w", "stop"])
        shutil.rmtree(self.folder, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_corpus_options(ap)
    ap.add_argument("--runs", type=int, default=3, help="runs of each pipeline; the median counts")
    ap.add_argument("--work", default="/tmp/ingest-bench", help="where bench/bench.py caches its corpus")
    ap.add_argument("--skip-build", action="store_true")
    ap.add_argument("--ingest", metavar="BINARY", help="time this ingest binary instead of building one")
    ap.add_argument("--report", metavar="FILE", help=f"rewrite the section '{HEADING}' of this Markdown file")
    args = ap.parse_args()

    corpus, expected, ingest = corpus_and_ingest(args)
    truth = json.load(open(expected))
    photos = [os.path.join(corpus, "inbox", s["name"], p) for s in truth["sets"] for c in s["captures"] for p in c["photos"]]
    sh("cat " + " ".join(f"'{p}'" for p in photos) + " > /dev/null")  # warm the page cache

    cluster = Cluster()
    try:
        results = measure(args, corpus, ingest, cluster)
    finally:
        cluster.stop()
    report(args, len(photos), results)


def measure(args, corpus, ingest, cluster):
    def run(name, catalog, processes):
        inbox = fresh_inbox(corpus, args.work, "workers-" + name.replace(", ", "-"))
        base = os.path.dirname(inbox)
        config = os.path.join(base, "pipeline.json")
        common.write_config(config, catalog=catalog, workers=2 if processes == 1 else 1)
        start = time.perf_counter()
        started = [subprocess.Popen([ingest, "run", "--config", config, "--verbose"], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, text=True) for _ in range(processes)]
        logs = [p.communicate()[1] for p in started]
        seconds = time.perf_counter() - start
        for p, log in zip(started, logs):
            if p.returncode not in (0, 1):
                sys.exit(f"{name}: ingest exited {p.returncode}:\n{log[-2000:]}")
        claims = [tuple(float(x) for x in m) for log in logs
                  for m in re.findall(r"claims=(\d+) msEach=([\d.]+) msLongest=([\d.]+)", log)]
        rows = subprocess.run([ingest, "list", "--count", "--config", config], capture_output=True, text=True).stdout.strip()
        return seconds, int(rows or 0), claims

    pipelines = [("sqlite", lambda: run("sqlite", "library/catalog.sqlite", 1))]
    for count in (1, 2, 3):
        pipelines.append((f"postgres, {count}", lambda count=count: run(f"postgres, {count}", cluster.fresh(f"bench{count}"), count)))
    results = {name: [] for name, _ in pipelines}
    load_before = os.getloadavg()
    for turn in range(args.runs):
        for name, pipeline in pipelines:
            results[name].append(pipeline())
            print(f"run {turn + 1}/{args.runs} {name}: {results[name][-1][0]:.1f} s", file=sys.stderr)
    results["load"] = (load_before, os.getloadavg())
    return results


def report(args, photos, results):
    load_before, load_after = results.pop("load")
    median = {name: statistics.median(r[0] for r in runs) for name, runs in results.items()}
    sqlite = median["sqlite"]
    lines = [f"{photos} photos of {args.width}x{args.height}, {args.sets} sets (seed {args.seed}), {os.cpu_count()} cores, "
             f"page cache warm, median of {args.runs} runs each; load average {load_before[0]:.1f} before, "
             f"{load_after[0]:.1f} after", "",
             f"{'pipeline':<13} {'seconds':>8} {'(range)':>13} {'vs sqlite':>10} {'captures':>9} "
             f"{'claim ms':>9} {'longest':>8}  goal"]
    for name, runs in results.items():
        times = sorted(r[0] for r in runs)
        claims = [c for r in runs for c in r[2] if c[0] > 0]
        each = statistics.median(c[1] for c in claims) if claims else None
        longest = max(c[2] for c in claims) if claims else None
        goal = ""
        if name == "postgres, 1":
            goal = f"within 10 % of sqlite: {'yes' if median[name] <= 1.10 * sqlite else 'NO'}"
        if each is not None:
            goal += ("; " if goal else "") + f"claims < 5 ms: {'yes' if each < 5 else 'NO'}"
        lines.append(f"{name:<13} {median[name]:>8.2f} {f'({times[0]:.2f}–{times[-1]:.2f})':>13} "
                     f"{f'{median[name] / sqlite * 100 - 100:+.1f} %' if name != 'sqlite' else '—':>10} {runs[-1][1]:>9} "
                     f"{'—' if each is None else f'{each:.2f}':>9} {'—' if longest is None else f'{longest:.1f}':>8}  {goal}".rstrip())
    lines += ["", "claim ms: the median of the workers' mean time to claim a set (one transaction with the server); "
              "longest: the slowest claim of any run."]
    print("\n" + "\n".join(lines))
    if args.report:
        write(args.report, HEADING, section(
            f"{facts(load_before[0], load_after[0])}. `{command_line()}`: the corpus of `bench/bench.py`, 1, 2 and "
            "3 workers against a throwaway local PostgreSQL with its default durability beside one SQLite run, "
            f"{args.runs} runs each by turns, page cache warm.", lines))

if __name__ == "__main__":
    main()
