#!/usr/bin/env python3
"""`ingest serve` over a big catalogue: page latencies, and throughput under load with wrk.

    bench/serve.py [--captures 100000] [--work /tmp/ingest-scale] [--requests 30]
                   [--seconds 15] [--connections 16] [--skip-build] [--report docs/benchmarks.md]

Fills (once, cached and shared with bench/scale.py) a catalogue of N captures and 3N photos with
`scale-fill`, starts `ingest serve` on a free loopback port over it, then

  - times each kind of page one request after another on one connection (--requests each; median,
    95th percentile, worst): the catalogue's first page, filtered, searched and deep in its pages,
    a capture, the review queue, the API's largest page, a thumbnail — the catalogue's pages against
    the goal of issue 14 (< 100 ms at 100,000 captures);
  - loads the catalogue page and one thumbnail with wrk (Debian's wrk: 2 threads, --connections
    connections, --seconds seconds) and reports requests per second and the 99th-percentile latency.

The server runs with the machine's cores; wrk shares them, so the throughput is a floor.
--report FILE rewrites the section "## Serve (bench/serve.py)" of FILE with the tables.
"""
import argparse
import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from bench import ROOT, sh  # noqa: E402
from report import command_line, facts, section, write  # noqa: E402
from scale import SYNTHETIC_START, fill  # noqa: E402

HEADING = "## Serve (bench/serve.py)"


def start_server(ingest, big):
    """`ingest serve` on a free port; returns the process and its base URL."""
    server = subprocess.Popen([ingest, "serve", "--listen", "127.0.0.1:0", "--config", os.path.join(big, "pipeline.json"),
                               "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = server.stdout.readline()
    match = re.search(r"http://[^ \n]+", line)
    if not match:
        server.kill()
        sys.exit(f"ingest serve did not start: {line!r}")
    return server, match.group(0)


def latencies(base, path, requests):
    """Seconds of each of `requests` GETs of path, one after another on one kept-alive connection."""
    parts = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    times = []
    for _ in range(requests + 1):
        start = time.perf_counter()
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        elapsed = time.perf_counter() - start
        if response.status != 200:
            sys.exit(f"GET {path}: {response.status} {body[:300]!r}")
        times.append(elapsed)
    connection.close()
    return times[1:]  # the first warms the connection and the page cache


def get_json(base, path):
    parts = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    connection.request("GET", path)
    return json.loads(connection.getresponse().read())


def wrk(url, seconds, connections):
    """Requests per second and the 99th-percentile latency (ms) wrk measured."""
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", url],
                         capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    value, unit = re.search(r"\s99%\s+([\d.]+)(us|ms|s)", out).groups()
    p99 = float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors or "Socket errors" in out:
        sys.exit(f"wrk saw errors:\n{out}")
    return rate, p99


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--captures", type=int, default=100_000)
    ap.add_argument("--photos-per-capture", type=int, default=3)
    ap.add_argument("--work", default="/tmp/ingest-scale")
    ap.add_argument("--requests", type=int, default=30)
    ap.add_argument("--seconds", type=int, default=15)
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--skip-build", action="store_true")
    ap.add_argument("--report", metavar="FILE", help=f"rewrite the section '{HEADING}' of this Markdown file")
    args = ap.parse_args()
    if not shutil.which("wrk"):
        sys.exit("needs wrk: scripts/setup --test installs it")
    if not args.skip_build:
        common.build_release("ingest", "scale-fill")
    bin_dir = os.path.join(ROOT, ".build", "release")
    big = fill(args, bin_dir)
    sh(f"cat '{os.path.join(big, 'library', 'catalog.sqlite')}' > /dev/null")
    load_before = os.getloadavg()[0]
    server, base = start_server(os.path.join(bin_dir, "ingest"), big)
    try:
        first = get_json(base, "/api/captures?limit=1")["captures"][0]
        capture = get_json(base, f"/api/captures/{first['id']}")
        photo = capture["photos"][0]["id"]
        middle = get_json(base, f"/api/captures?limit=1&before={SYNTHETIC_START + args.captures * 31 // 2}.0~z")["next"]
        day = time.strftime("%Y-%m-%d", time.gmtime(SYNTHETIC_START + args.captures * 31 // 2))
        pages = [
            ("catalogue, first page", "/", True),
            ("catalogue, rating Poor", "/?rating=Poor", True),
            ("catalogue, no barcode", "/?nobarcode=1", True),
            ("catalogue, since a day", f"/?since={day}", True),
            ("catalogue, agent", "/?agent=agent-3", True),
            ("catalogue, search a set", f"/?q=set-{args.captures // 25 // 2:06d}", True),
            # The search's other paths: a term in every capture (read newest first, a page soon full),
            # one in none, one too short for the trigram index, and one in the oldest 2,500 captures
            # only (too many to look up by id, so the captures' text is read to the end: the worst).
            ("catalogue, search found everywhere", "/?q=set-0", True),
            ("catalogue, search found nowhere", "/?q=no-such-thing", True),
            ("catalogue, search 2 letters, nowhere", "/?q=zq", True),
            ("catalogue, search oldest 2,500", "/?q=set-0000", True),
            ("catalogue, page at the middle", "/?before=" + urllib.parse.quote(middle, safe=""), True),
            ("capture page", f"/captures/{first['id']}", False),
            ("review queue", "/review", False),
            ("API, 1000 captures", "/api/captures?limit=1000", False),
            ("thumbnail", f"/photos/{photo}/thumbnail", False),
        ]
        rows = []
        for what, path, goal in pages:
            times = sorted(latencies(base, path, args.requests))
            median, p95 = statistics.median(times), times[int(len(times) * 0.95) - 1]
            rows.append((what, median * 1000, p95 * 1000, times[-1] * 1000, goal))
            print(f"{what}: median {median * 1000:.1f} ms", file=sys.stderr)
        loads = []
        for what, path in [("catalogue page", "/"), ("thumbnail", f"/photos/{photo}/thumbnail")]:
            rate, p99 = wrk(base.rstrip("/") + path, args.seconds, args.connections)
            loads.append((what, rate, p99))
            print(f"wrk {what}: {rate:.0f} requests/s, p99 {p99:.1f} ms", file=sys.stderr)
    finally:
        server.terminate()
        server.wait()

    load_after = os.getloadavg()[0]
    lines = [f"{args.captures:,} captures, {args.captures * args.photos_per_capture:,} photos, {os.cpu_count()} cores, "
             f"page cache warm; {args.requests} requests each, one after another", "",
             f"{'page':<38} {'median':>8} {'p95':>8} {'worst':>8}  goal        met"]
    for what, median, p95, worst, goal in rows:
        mark = ("yes" if p95 < 100 else "NO") if goal else ""
        lines.append(f"{what:<38} {median:>6.1f}ms {p95:>6.1f}ms {worst:>6.1f}ms  {'< 100 ms' if goal else '':<10}  "
                     f"{mark}".rstrip())
    lines += ["", f"wrk, 2 threads, {args.connections} connections, {args.seconds} s each (on the server's cores)", "",
              f"{'load':<38} {'requests/s':>11} {'p99':>9}"]
    lines += [f"{what:<38} {rate:>11,.0f} {p99:>7.1f}ms" for what, rate, p99 in loads]
    print("\n" + "\n".join(lines))
    if args.report:
        write(args.report, HEADING, section(
            f"{facts(load_before, load_after)}. `{command_line()}`: `ingest serve` over a catalogue of "
            f"{args.captures:,} captures filled by `scale-fill`, each page timed one request after another, then "
            "the catalogue page and a thumbnail loaded with wrk.", lines))

if __name__ == "__main__":
    main()
