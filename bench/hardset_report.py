"""The Markdown report of bench/hardset.py: recall per perturbation beside ZBar alone, false
positives on the photos without a code, wrong reads, the codes ingest missed, time, and what
each perturbation is (quoted from its docstring, so the report cannot drift from the code).
"""
import datetime as dt
import os
import subprocess
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from hardset_nobarcode import NOBARCODE  # noqa: E402
from hardset_read import ZBAR_OPTIONS  # noqa: E402
from hardset_shots import PERTURBATIONS  # noqa: E402

ROOT = common.ROOT


LABEL = {"ingest": "ingest", "zbar": "ZBar alone", "pyzbar": "pyzbar", "before": "ingest before"}


def pct(hits, n):
    """A share as "hits/n (p %)", a dash for none."""
    return f"{hits}/{n} ({100 * hits / n:.0f} %)" if n else "–"


def row(cells, bold=False):
    """One Markdown table row, every cell bold with `bold` (the totals)."""
    return "| " + " | ".join(f"**{c}**" if bold else str(c) for c in cells) + " |"


def by_perturbation(sets):
    """{perturbation: [set names]}, in the order of the sets."""
    groups = defaultdict(list)
    for name, entry in sets.items():
        groups[entry["perturbation"]].append(name)
    return groups


def header_section(args, sets, results, seconds, notes):
    lines = ["# Barcode recall on a hard test set (issue 6)", "",
             "Made by `bench/hardset.py`; do not edit by hand, run it again.", "",
             f"- command: `{notes['command']}` ({notes['date']})",
             f"- seed {args.seed}: {args.per} photos per perturbation, {args.nobarcode} photos without a barcode, "
             f"{len(sets)} photos, each its own set, in {args.out}/inbox (truth.json beside it)",
             f"- ingest: `{notes['binary']}` built {notes['built']}, repository at `{notes['commit']}`{notes['dirty']}; "
             f"pipeline.json: workers {args.workers}, default symbologies (all seven)",
             f"- ingest run said: {(notes['summary'] or ['nothing'])[0]}"]
    lines += [f"  - {line.strip()}" for line in notes["summary"][1:] if line.strip() != "quarantined:"]
    lines.append(f"- ZBar alone: `{' '.join(common.ZBARIMG + ZBAR_OPTIONS)} PHOTO` ({notes['zbar_version']}), full resolution, "
                 f"{args.workers} at once")
    if "pyzbar" in results:
        lines.append(f"- pyzbar: `decode(Image.open(PHOTO).convert('L'), symbols=<the five>)`, {args.workers} processes")
    if "before" in results:
        lines.append(f"- ingest before: `{args.before}`, {args.before_label or 'an earlier build'}; read the same way")
    return lines + ["", "A read is correct when its text or GTIN-13 is the code's value or GTIN-13; any other read "
                    "is *wrong* (wrong columns count photos). *ingest only* / *ZBar only*: photos one of the two "
                    "read correctly and the other did not."]


def recall_section(sets, results):
    """The recall table, and the perturbations where ingest reads fewer codes than ZBar alone."""
    readers = list(results)
    others = [r for r in readers if r != "ingest"]
    lines = ["", "## Recall", "",
             row(["perturbation", "n"] + [LABEL[r] for r in others] + ["ingest", "ingest wrong", "ZBar wrong",
                                                                       "ingest only", "ZBar only"]),
             "|" + "---|" * (len(others) + 7)]
    groups = by_perturbation(sets)
    rows = [(p, groups[p]) for p in PERTURBATIONS if p in groups]
    rows.append(("all", [n for _, names in rows for n in names]))
    weaker = []
    for pert, names in rows:
        hits = {r: sum(results[r][n][0] for n in names) for r in readers}
        wrong = {r: sum(bool(results[r][n][1]) for n in names) for r in readers}
        ingest_only = sum(results["ingest"][n][0] and not results["zbar"][n][0] for n in names)
        zbar_only = sum(results["zbar"][n][0] and not results["ingest"][n][0] for n in names)
        if pert != "all" and hits["ingest"] < hits["zbar"]:
            weaker.append(pert)
        lines.append(row([pert, len(names)] + [pct(hits[r], len(names)) for r in others] +
                         [pct(hits["ingest"], len(names)), wrong["ingest"], wrong["zbar"], ingest_only, zbar_only],
                         bold=pert == "all"))
    return lines + ["", "Ingest reads fewer than ZBar alone on: " + (", ".join(weaker) or "none") + "."]


def false_positive_section(sets, results):
    readers = list(results)
    nobarcode = by_perturbation(sets).get("nobarcode", [])
    kinds = defaultdict(list)
    for name in nobarcode:
        kinds[sets[name]["kind"]].append(name)
    lines = ["", "## Photos without a barcode: false positives", "",
             row(["kind", "n"] + [LABEL[r] for r in readers]), "|" + "---|" * (len(readers) + 2)]
    for kind, names in [(k, kinds[k]) for k in NOBARCODE if k in kinds] + [("all", nobarcode)]:
        lines.append(row([kind, len(names)] + [sum(bool(results[r][n][1]) for n in names) for r in readers],
                         bold=kind == "all"))
    found = [f"- {LABEL[r]}: `{sets[n]['file']}` ({sets[n]['kind']}) read `{v}`"
             for r in readers for n in nobarcode for v in results[r][n][1]]
    return lines + [""] + (found or ["No false positive."])


def wrong_read_section(sets, results):
    found = [f"- {LABEL[r]}: `{sets[n]['file']}` ({sets[n]['symbology']} `{sets[n]['value']}`) read `{v}`"
             for r in results for n in sets if sets[n]["value"] for v in results[r][n][1]]
    return ["", "## Wrong reads on photos with a barcode", ""] + (found or ["None."])


def time_section(sets, results, seconds, notes):
    lines = ["", "## Time", "", row(["pipeline", "seconds", "photos/s"]), "|---|---|---|"]
    lines += [row([LABEL[r], f"{seconds[r]:.1f}", f"{len(sets) / seconds[r]:.1f}"]) for r in results]
    return lines + ["", f"Generating the photos took {seconds['generate']:.0f} s, the whole script "
                    f"{seconds['total']:.0f} s. Load average (1/5/15 min) {notes['load']} at the start, "
                    f"{notes['load_end']} at the end: other work on this 2-core machine slows every pipeline, "
                    "so compare times within one report only."]


def missed_section(sets, results):
    missed = defaultdict(list)
    for name, e in sets.items():
        if e["value"] and results["zbar"][name][0] and not results["ingest"][name][0]:
            missed[e["perturbation"]].append(f"{name} ({e['symbology']}, {e['params']['module_px']} px)")
    return (["", "## Read by ZBar alone, missed by ingest", ""] +
            ([f"- {p}: " + ", ".join(missed[p]) for p in PERTURBATIONS if p in missed] or ["None."]))


def perturbation_section(sets):
    groups = by_perturbation(sets)
    kinds = {e["kind"] for e in sets.values() if e["perturbation"] == "nobarcode"}
    lines = ["", "## The perturbations", "",
             "Every photo with a barcode: a phone-sized frame (4032×3024, 3264×2448 or 2016×1512, 30 % portrait) "
             "with gen_corpus.py's package background and shapes, the label pasted at a random place, lens blur "
             "σ 0.3–0.6 px (at most 0.35 module), light falling off across the frame, JPEG quality 85–94 unless "
             "said otherwise, EXIF DateTimeOriginal with an offset. Symbologies weighted as gen_corpus.py: EAN-13 "
             "55 %, UPC-A 20 %, EAN-8 8 %, Code 128 7 %, QR 10 %. Module sizes are photo pixels after all "
             "scaling; truth.json has each photo's parameters (module, angle, blur, label box, …).", ""]
    lines += [f"- `{p}`: {' '.join(f.__doc__.split())}" for p, f in PERTURBATIONS.items() if p in groups]
    lines += [f"- `nobarcode` {k}: {' '.join(f.__doc__.split())}" for k, f in NOBARCODE.items() if k in kinds]
    return lines


def report(args, truth, results, seconds, notes):
    """The Markdown report."""
    sets = truth["sets"]
    lines = (header_section(args, sets, results, seconds, notes) + recall_section(sets, results) +
             false_positive_section(sets, results) +
             wrong_read_section(sets, results) + missed_section(sets, results) +
             time_section(sets, results, seconds, notes) + perturbation_section(sets))
    return "\n".join(lines) + "\n"


def describe_binary(binary):
    """What the report says of the binary and of ZBar, taken before the run (others rebuild it)."""
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--", "Sources", "Package.swift"],
                           capture_output=True, text=True).stdout.strip()
    built = dt.datetime.fromtimestamp(os.path.getmtime(binary), dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    zbar_version = "zbarimg " + subprocess.run(["zbarimg", "--version"], capture_output=True, text=True).stdout.strip()
    return {"commit": commit or "?", "dirty": " (Sources/ has uncommitted changes)" if dirty else "",
            "built": built, "zbar_version": zbar_version}
