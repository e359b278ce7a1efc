"""The loss table of bench/realphotos.py: what `ingest explain` says became of each code a
reference reads and ingest does not (the rule that dropped it, or that no step read it).

Apart from realphotos.py because it asks a question of its own (why), of ingest's own account.
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import explain, gtin13_candidates, plain, set_name  # noqa: E402


def loss_table(ingest, config, photos, correct):
    """The loss table's rows (Markdown): `ingest explain --json` (with CONFIG, the run's) on each
    photo ingest lost. correct: {"ingest", "zbarimg", "zxing": {set: read right?}}."""
    ours, zbar, zxing = (correct[label] for label in ("ingest", "zbarimg", "zxing"))
    lost = [i for i in range(len(photos)) if photos[i][2] != "nobarcode" and not ours[set_name(i)]
            and (zbar[set_name(i)] or zxing[set_name(i)])]
    if not lost:
        return ["none"]
    explained = {e["photo"]: e for e in explain(ingest, config, [photos[i][1] for i in lost])}
    rows = ["| photo | group | zbarimg | zxing | what became of the code in ingest |", "|---|---|---|---|---|"]
    counts = defaultdict(int)
    for i in lost:
        file, path, group, key, _ = photos[i]
        what, detail = fate(explained.get(path), key)
        counts[what] += 1
        rows.append(f"| `{file}` | {group} | {'yes' if zbar[set_name(i)] else 'no'} | {'yes' if zxing[set_name(i)] else 'no'} "
                    f"| {what}{': ' + detail if detail else ''} |")
    return rows + ["", "By what became of the code: " + ", ".join(f"{what} {n}" for what, n in sorted(counts.items())) + "."]


def fate(explanation, key):
    """What became of the code `key` in one `ingest explain` record: (what, detail)."""
    if explanation is None:
        return "not explained", "ingest explain failed on it"
    events = [e for e in explanation["events"] if e.get("code") and (e["code"] == key or key in gtin13_candidates(e["code"]))]
    if key in explanation["codes"]:
        return "read alone, lost in the run", ""
    drops = [e for e in events if e["outcome"] == "dropped"]
    if drops:
        last = drops[-1]
        return "dropped", f"{last['because']} ({last['step']}: {last['source']}, {last.get('lines')} lines)"
    if any(e["outcome"] == "unconfirmed" for e in events):
        return "unconfirmed", "read once, no second read agreed"
    others = sorted({plain(e["code"])[:40] for e in explanation["events"] if e["step"] == "decision"})
    gave = f"the photo gave `{'`, `'.join(others)}`; " if others else ""
    reference = explanation.get("zxingOnWholePhoto")
    if reference is None or any(key == plain(code) or key in gtin13_candidates(code) for code in reference):
        return "never read by any step", gave + f"the linked zxing-cpp reads it on the whole photo at full resolution ({LINKED_ZXING})"
    return "not readable by the linked decoders", gave + ("zxing-cpp as linked reads nothing of it on the whole photo either "
                                                          f"({LINKED_ZXING})")


# What `ingest explain`'s reference read is: zxing-cpp as ingest links it, with its own defaults
# (turned, shrunk, inverted) on the photo's luminance as ingest decodes it.
LINKED_ZXING = "ingest's zxing-cpp with its defaults, on the luminance ingest decodes"
