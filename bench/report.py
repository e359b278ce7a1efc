"""The bench scripts' `--report FILE`: each rewrites its own section of docs/benchmarks.md.

A section runs from its heading line to the next heading of the same or a higher level (headings
inside fenced blocks do not count); replace_section swaps it for the script's latest output, or
appends it when the file has no such heading. Everything else in the file is left as it is.
"""
import datetime as dt
import os
import re
import shlex
import subprocess
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FENCE = re.compile(r"^(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s")


def wrap(text):
    """A paragraph wrapped at 100 columns, as docs/benchmarks.md is."""
    return textwrap.fill(text, 100, break_on_hyphens=False, break_long_words=False)


def bounds(lines, heading):
    """(start, end) of the section under the line `heading` in `lines`: from the heading to the
    next heading of the same or a higher level outside fenced blocks (end None: to the last line);
    (None, None) when there is no such heading."""
    level = len(HEADING.match(heading).group(1))
    start = None
    fenced = False
    for number, line in enumerate(lines):
        if FENCE.match(line):
            fenced = not fenced
            continue
        match = None if fenced else HEADING.match(line)
        if start is None and not fenced and line.rstrip() == heading:
            start = number
        elif start is not None and match and len(match.group(1)) <= level:
            return start, number
    return start, None


def read_lines(path):
    """The lines of the file `path`, split at line feeds only: a carriage return or another of the
    characters str.splitlines breaks at stays inside its line (docs/recall.md quotes QR codes'
    texts, which hold them)."""
    with open(path, newline="", encoding="utf-8") as f:
        lines = f.read().split("\n")
    return lines[:-1] if lines[-1] == "" else lines


def read_section(path, heading):
    """The lines of the section under `heading` in the Markdown file `path`, the heading first;
    None when the file or the heading is missing."""
    try:
        lines = read_lines(path)
    except FileNotFoundError:
        return None
    start, end = bounds(lines, heading)
    return None if start is None else lines[start:end]


def replace_section(path, heading, text):
    """Replaces the section under the line `heading` (e.g. "## Speed (bench/bench.py)") in the
    Markdown file `path` with `text` (the section's body, without the heading), or appends the
    heading and text at the end."""
    lines = read_lines(path)
    section = [heading, ""] + text.strip("\n").split("\n")
    start, end = bounds(lines, heading)
    if start is None:
        while lines and not lines[-1].strip():
            lines.pop()
        lines += [""] + section
    else:
        rest = lines[end:] if end is not None else []
        lines = lines[:start] + section + ([""] + rest if rest else [])
    with open(path, "w", newline="", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def commit():
    """HEAD's short hash, marked when Sources or Package.swift differ from it."""
    def git(*arguments):
        return subprocess.run(["git", "-C", ROOT] + list(arguments), capture_output=True, text=True).stdout.strip()
    head = git("rev-parse", "--short", "HEAD") or "unknown"
    changed = git("status", "--porcelain", "--untracked-files=no", "--", "Sources", "Package.swift")
    return f"`{head}`" + (" with uncommitted changes to Sources" if changed else "")


def facts(load_before, load_after):
    """When, at which commit and on what: "2026-11-26 10:03 UTC, commit `e7b22b1`, 2 cores (AMD
    EPYC), load average 1.0 before, 1.2 after"."""
    try:
        with open("/proc/cpuinfo") as f:
            cpu = re.search(r"^model name\s*:\s*(.+)$", f.read(), re.M).group(1).strip()
    except (OSError, AttributeError):
        cpu = "CPU unknown"
    return (f"{dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC, commit {commit()}, {os.cpu_count()} cores "
            f"({cpu}), load average {load_before:.1f} before, {load_after:.1f} after")


def command_line():
    """How the script was run, as `bench/NAME.py ARGUMENTS` (without --report FILE)."""
    arguments, skip = [], False
    for argument in sys.argv[1:]:
        if skip or argument == "--report" or argument.startswith("--report="):
            skip = argument == "--report"
            continue
        arguments.append(argument)
    return shlex.join(["bench/" + os.path.basename(sys.argv[0])] + arguments)


def section(lead, table):
    """A section's body: a paragraph of what was run, then the printed table as a fenced block."""
    return wrap(lead) + "\n\n```\n" + "\n".join(table).strip("\n") + "\n```\n"


def write(path, heading, text):
    replace_section(path, heading, text)
    print(f"report: {heading} in {path}", file=sys.stderr)
