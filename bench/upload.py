#!/usr/bin/env python3
"""Uploads to `ingest serve` (POST /api/sets): throughput, the server's memory, the watch loop's latency.

    bench/upload.py [--ingest .build/release/ingest] [--work /tmp/ingest-upload] [--photos 40]
                    [--per-set 8] [--clients 4] [--rounds 3] [--big-mb 500] [--sets 10]
                    [--report docs/benchmarks.md]

On the 12 MP corpus of bench/bench.py (generated once and cached in /tmp/ingest-bench, as there),
page cache warm, with a fresh catalogue in --work for each part:

  1. throughput: the first --photos photos uploaded with curl in sets of --per-set, by one client,
     then by --clients clients at once (each uploading all of them, as its own sets), to `serve`
     without --watch (the sets pile up in the inbox, emptied between rounds), beside `cp` of the
     same files to a folder on the same disk and `sync`; MB/s, the median of --rounds rounds taken
     by turns. curl runs with `Expect:` (no `Expect: 100-continue`); one more row shows curl's default.
  2. memory: one request of about --big-mb MB (the corpus' photos again and again, each under a name
     of its own); the server's VmRSS sampled every 50 ms from /proc while it streams, and its VmHWM
     at the end. The goal is at most 64 MB.
  3. latency: `serve --watch`, --sets single-photo sets uploaded one after another, each polled
     (GET /api/sets/NAME every 50 ms) until it is ingested: seconds from the 201 (the set in the
     inbox) and from the start of the request.

Prints a Markdown section; --report FILE replaces the section of that name in FILE (or appends it).
Needs curl; ingest built in release mode (this script never builds it).
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
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import ROOT, corpus_and_ingest, sh  # noqa: E402
from report import facts, wrap, write  # noqa: E402

HEADING = "## Uploads (bench/upload.py)"
MB = 1 << 20
RSS_GOAL_MB = 64


class Server:
    """`ingest serve` over a fresh catalogue in `folder`, on a free loopback port."""

    def __init__(self, ingest, folder, watch=False, **limits):
        shutil.rmtree(folder, ignore_errors=True)
        self.inbox = os.path.join(folder, "inbox")
        os.makedirs(self.inbox)
        config = os.path.join(folder, "pipeline.json")
        with open(config, "w") as f:
            json.dump({"inbox": "inbox", "library": "library", "quarantine": "quarantine", "minFreeMB": 100,
                       "uploadMaxRequestMB": 2048, **limits}, f)
        sh([ingest, "run", "--config", config, "--quiet"])
        self.process = subprocess.Popen([ingest, "serve", "--config", config, "--listen", "127.0.0.1:0", "--quiet"]
                                        + (["--watch"] if watch else []),
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not match:
            self.stop()
            sys.exit(f"ingest serve did not start: {line!r}")
        self.port = int(match.group(1))
        self.url = match.group(0)
        self.token = self.get("/api/session")["csrfToken"]

    def get(self, path):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        connection.close()
        if response.status != 200:
            sys.exit(f"GET {path}: {response.status} {body[:300]!r}")
        return json.loads(body)

    def upload(self, files, expect_continue=False):
        """POSTs `files` (paths, or (path, name sent)) as one set with curl; returns the set's name."""
        command = ["curl", "-sS", "-H", f"X-CSRF-Token: {self.token}", "-w", "\n%{http_code}", "-F", "agentId=bench"]
        if not expect_continue:
            command += ["-H", "Expect:"]
        for file in files:
            path, name = file if isinstance(file, tuple) else (file, os.path.basename(file))
            command += ["-F", f"photo=@{path};filename={name}"]
        out = subprocess.run(command + [self.url + "api/sets"], capture_output=True, text=True)
        body, _, status = out.stdout.rpartition("\n")
        if out.returncode != 0 or status != "201":
            sys.exit(f"upload of {len(files)} photos: curl {out.returncode}, HTTP {status}: {body[:300]} {out.stderr[:300]}")
        answer = json.loads(body)
        if len(answer["photos"]) != len(files):
            sys.exit(f"upload of {len(files)} photos: the server kept {len(answer['photos'])}")
        return answer["set"]

    def empty_inbox(self):
        for name in os.listdir(self.inbox):
            if name != ".uploads":
                shutil.rmtree(os.path.join(self.inbox, name))

    def memory(self, field="VmRSS"):
        """The server's `field` of /proc/PID/status, in MB."""
        with open(f"/proc/{self.process.pid}/status") as f:
            return int(re.search(rf"^{field}:\s+(\d+) kB", f.read(), re.M).group(1)) / 1024

    def stop(self):
        self.process.terminate()
        self.process.wait()


def twelve_megapixel_corpus(ingest):
    """bench/bench.py's 12 MP corpus (its folder, its expected.json) and the ingest binary to time;
    exits when curl, which the upload benchmarks send with, is missing."""
    if not shutil.which("curl"):
        sys.exit("needs curl")
    corpus_args = argparse.Namespace(sets=40, seed=11, width=4032, height=3024, work="/tmp/ingest-bench",
                                     skip_build=True, ingest=ingest)
    return corpus_and_ingest(corpus_args)


def megabytes(files):
    return sum(os.path.getsize(f if isinstance(f, str) else f[0]) for f in files) / MB


def throughput(args, ingest, photos):
    """{row: [MB/s of each round]} for cp, one client, N clients at once, and one client with curl's default."""
    sets = [photos[i:i + args.per_set] for i in range(0, len(photos), args.per_set)]
    size = megabytes(photos)
    server = Server(ingest, os.path.join(args.work, "throughput"))
    copies = os.path.join(args.work, "cp")

    def copy():
        shutil.rmtree(copies, ignore_errors=True)
        os.makedirs(copies)
        sh(["sync"])
        start = time.perf_counter()
        sh(["cp"] + photos + [copies])
        sh(["sync"])
        return size / (time.perf_counter() - start)

    def clients(n, expect_continue=False):
        server.empty_inbox()
        sh(["sync"])
        start = time.perf_counter()
        threads = [threading.Thread(target=lambda: [server.upload(s, expect_continue) for s in sets]) for _ in range(n)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seconds = time.perf_counter() - start
        uploaded = [f for root, _, files in os.walk(server.inbox) for f in files if f.endswith(".jpg")]
        if len(uploaded) != n * len(photos):
            sys.exit(f"{n} clients: {len(uploaded)} photos in the inbox, {n * len(photos)} uploaded")
        return n * size / seconds

    rows = {"cp + sync (same disk)": copy,
            "curl, 1 client": lambda: clients(1),
            f"curl, {args.clients} clients at once": lambda: clients(args.clients),
            "curl, 1 client, curl's default `Expect: 100-continue`": lambda: clients(1, expect_continue=True)}
    results = {row: [] for row in rows}
    try:
        for turn in range(args.rounds):
            for row, run in rows.items():
                results[row].append(run())
                print(f"round {turn + 1}/{args.rounds} {row}: {results[row][-1]:.1f} MB/s", file=sys.stderr)
    finally:
        server.stop()
        shutil.rmtree(copies, ignore_errors=True)
        server.empty_inbox()
    return size, len(sets), results


def memory(args, ingest, photos):
    """(MB sent, photos, seconds, RSS before, peak VmRSS sampled, VmHWM) of one request of about --big-mb MB."""
    by_size = sorted(photos, key=os.path.getsize, reverse=True)
    files = []
    while megabytes(files) < args.big_mb:
        path = by_size[len(files) % len(by_size)]
        files.append((path, f"big-{len(files):04d}.jpg"))
    server = Server(ingest, os.path.join(args.work, "memory"), uploadMaxFiles=len(files) + 1,
                    uploadMaxRequestMB=2 * args.big_mb + 64)
    try:
        before = server.memory()
        samples, done = [], threading.Event()

        def sample():
            while not done.is_set():
                samples.append(server.memory())
                time.sleep(0.05)
        sampler = threading.Thread(target=sample)
        sampler.start()
        start = time.perf_counter()
        server.upload(files)
        seconds = time.perf_counter() - start
        done.set()
        sampler.join()
        return megabytes(files), len(files), seconds, before, max(samples), server.memory("VmHWM")
    finally:
        server.stop()
        server.empty_inbox()


def latency(args, ingest, photos):
    """[(seconds from the 201 to ingested, seconds from the request's start to ingested)] of --sets sets."""
    server = Server(ingest, os.path.join(args.work, "latency"), watch=True)
    times = []
    try:
        for photo in photos[:args.sets]:
            start = time.perf_counter()
            name = server.upload([photo])
            stored = time.perf_counter()
            while (state := server.get(f"/api/sets/{name}"))["state"] != "ingested":
                if state["state"] == "quarantined" or time.perf_counter() - stored > 120:
                    sys.exit(f"set {name} did not become ingested: {state}")
                time.sleep(0.05)
            done = time.perf_counter()
            times.append((done - stored, done - start))
            print(f"set {len(times)}/{args.sets}: ingested {done - stored:.2f} s after its 201", file=sys.stderr)
    finally:
        server.stop()
    return times


def render(args, photos, load, tp, mem, lat):
    """The section's body (without its heading)."""
    size, sets, results = tp
    sent, parts, seconds, before, peak, hwm = mem
    since_201, since_start = sorted(t[0] for t in lat), sorted(t[1] for t in lat)
    lines = [wrap(f"{facts(*load)}; 12 MP JPEGs of the `bench/bench.py` corpus (4032×3024), page cache warm, "
                  "server and clients on loopback. MB = 2^20 bytes."), "",
             wrap(f"**Throughput.** {len(photos)} photos ({size:.1f} MB) uploaded with curl in {sets} sets of up to "
                  f"{args.per_set} photos, one set per request, to `serve` without `--watch`; {args.clients} clients at "
                  "once each upload all of them as sets of their own. Every photo is flushed to disk before its 201, as "
                  f"`cp` and `sync` do. Median of {args.rounds} rounds taken by turns:"), "",
             "| copy | MB/s | (range) |", "|---|---|---|"]
    lines += [f"| {row} | {statistics.median(r):.1f} | {min(r):.1f}–{max(r):.1f} |" for row, r in results.items()]
    lines += ["", wrap(f"**Memory.** One request of {sent:.0f} MB ({parts} photos, each under a name of its own) took "
                   f"{seconds:.1f} s ({sent / seconds:.1f} MB/s); the server's resident memory, sampled every 50 ms "
                   "from `/proc/PID/status` while it streamed:"), "",
              "| RSS before | peak VmRSS sampled | VmHWM at the end | goal | met |", "|---|---|---|---|---|",
              f"| {before:.1f} MB | {peak:.1f} MB | {hwm:.1f} MB | ≤ {RSS_GOAL_MB} MB | "
              f"{'yes' if max(peak, hwm) <= RSS_GOAL_MB else 'NO'} |", "",
              wrap(f"**Latency.** `serve --watch`: {len(lat)} single-photo sets uploaded one after another, each "
                   "polled with `GET /api/sets/NAME` every 50 ms until `ingested`:"), "",
              "| seconds to `ingested` | median | worst |", "|---|---|---|",
              f"| from the 201 (the set in the inbox) | {statistics.median(since_201):.2f} | {since_201[-1]:.2f} |",
              f"| from the start of the request | {statistics.median(since_start):.2f} | {since_start[-1]:.2f} |"]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ingest", default=os.path.join(ROOT, ".build", "release", "ingest"))
    ap.add_argument("--work", default="/tmp/ingest-upload")
    ap.add_argument("--photos", type=int, default=40, help="photos of the throughput rounds")
    ap.add_argument("--per-set", type=int, default=8, help="photos per request in the throughput rounds")
    ap.add_argument("--clients", type=int, default=4, help="clients at once in the second throughput row")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--big-mb", type=int, default=500, help="megabytes of the one request whose memory is measured")
    ap.add_argument("--sets", type=int, default=10, help="sets timed with the watch loop")
    ap.add_argument("--report", help="replace (or append) the section in this Markdown file")
    args = ap.parse_args()
    corpus, expected, ingest = twelve_megapixel_corpus(args.ingest)
    if not os.access(ingest, os.X_OK):
        sys.exit(f"{ingest}: no ingest binary; build one with `swift build -c release --product ingest` or pass --ingest")
    truth = json.load(open(expected))
    every = sorted(os.path.join(corpus, "inbox", s["name"], p) for s in truth["sets"] for c in s["captures"]
                   for p in c["photos"])
    photos = every[:args.photos]
    sh("cat " + " ".join(f"'{p}'" for p in every) + " > /dev/null")  # warm the page cache

    load_before = os.getloadavg()
    tp = throughput(args, ingest, photos)
    mem = memory(args, ingest, every)
    lat = latency(args, ingest, every)
    section = render(args, photos, (load_before[0], os.getloadavg()[0]), tp, mem, lat)
    print(HEADING + "\n\n" + section)
    if args.report:
        write(args.report, HEADING, section)


if __name__ == "__main__":
    main()
