"""What the bench scripts share: GTIN forms, what generated photos are drawn with, running
`ingest` on a folder and reading back its catalogue, the reference readers, and printing a report
(the sections other reports keep are report.py's).

Each piece is written once here so that every script counts a read the same way and runs ingest
the same way; a script keeps only what is its own (its photos, its truth, its tables). Scripts
import it as `import common` after putting bench/ on `sys.path`, so `python3 bench/x.py` works
from the repository root.
"""
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")
INGEST = os.path.join(ROOT, ".build", "release", "ingest")
REALPHOTOS = os.path.join(SHARED, "realphotos")
GEN_CORPUS = os.path.join(SHARED, "corpus", "gen_corpus.py")
ZBARIMG = ["zbarimg", "-q", "--nodbus"]


# ---------------------------------------------------------------- GTIN forms
def check_digit(body):
    """The GS1 check digit (as text) of the digits `body`: weights 3, 1, … from the right."""
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(body)))
    return str((10 - total % 10) % 10)


def upce_to_upca(code):
    """The 12-digit UPC-A of an 8-digit UPC-E (number system, six digits, check digit)."""
    ns, d, check = code[0], code[1:7], code[7]
    last = d[5]
    if last in "012":
        body = d[0:2] + last + "0000" + d[2:5]
    elif last == "3":
        body = d[0:3] + "00000" + d[3:5]
    elif last == "4":
        body = d[0:4] + "00000" + d[4]
    else:
        body = d[0:5] + "0000" + last
    return ns + body + check


def gtin13_candidates(text):
    """Every GTIN-13 a retail read's text can stand for (an 8-digit code is EAN-8 or UPC-E)."""
    digits = re.sub(r"\D", "", text)
    if len(digits) == 14 and digits[0] == "0":
        digits = digits[1:]
    if len(digits) == 13:
        return {digits}
    if len(digits) == 12:
        return {"0" + digits}
    if len(digits) == 8:
        found = {"00000" + digits}
        if digits[0] in "01":
            found.add("0" + upce_to_upca(digits))
        return found
    return set()


def gtin14(code):
    """The GTIN-14 a product table keys `code` by (leading zeros dropped, then padded), or None
    when it is not 1–14 significant digits."""
    if not code.isascii() or not code.isdigit():
        return None
    significant = code.lstrip("0")
    return significant.zfill(14) if 0 < len(significant) <= 14 else None


def reads_gtin(gtin13, read):
    """True when `read` ((format, text, gtin13 or None)) is the retail code `gtin13`: by the GTIN-13
    the reader gave, else by any GTIN-13 its text can stand for."""
    _, text, gtin = read
    return gtin13 in ({gtin} if gtin else gtin13_candidates(text))


def plain(text):
    """The text without line breaks: the TSV drops some and writes others as `<LF>`."""
    return re.sub(r"\r|\n|<LF>", "", text)


# ---------------------------------------------------------------- generated photos
def load_gen_corpus():
    """../shared/corpus/gen_corpus.py as a module: its code, label and scene drawing are reused,
    not copied."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("gen_corpus", GEN_CORPUS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def homography(src, dst):
    """Coefficients of Pillow's PERSPECTIVE transform mapping the output's points `dst` to the
    input's points `src` (four each)."""
    import numpy as np  # here: most scripts never warp an image
    rows, rhs = [], []
    for (x, y), (u, v) in zip(dst, src):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs += [u, v]
    return np.linalg.solve(np.array(rows, float), np.array(rhs, float)).tolist()


# ---------------------------------------------------------------- running ingest
def build_release(*products):
    """`swift build -c release --product P` in the repository for each product, for the scripts
    that build what they time unless told --skip-build."""
    for product in products:
        subprocess.run(["swift", "build", "-c", "release", "--product", product], cwd=ROOT, check=True)


def set_name(index):
    """The set folder of the index-th photo when every photo is its own set."""
    return f"photo-{index:03d}"


def write_config(path, indent=None, end="", **settings):
    """A pipeline.json with the usual layout (inbox, library, catalogue, quarantine beside it)
    and `settings` (workers, minPixels, …) after it; `indent` and `end` keep each script's file
    as it always was."""
    layout = {"inbox": "inbox", "library": "library", "catalog": "library/catalog.sqlite",
              "quarantine": "quarantine", **settings}
    with open(path, "w") as f:
        f.write(json.dumps(layout, indent=indent) + end)


def without_text(binary):
    """The settings that leave the words on the photos unread by `binary`: `text` off for an ingest
    that reads them after a run (its speed figures are taken without: issue 67), none for an older
    one, which would refuse the key."""
    help_text = subprocess.run([binary, "run", "--help"], capture_output=True, text=True).stdout
    return {"text": "off"} if "--no-text" in help_text else {}


def run_ingest(binary, inbox, work, link=False, export=None, indent=None, end="", **settings):
    """`binary run` on a copy of `inbox` in WORK/inbox (hard-linked with `link`), configured by
    WORK/pipeline.json (see write_config; text not read unless `settings` say `text`), then
    `binary export --csv EXPORT` when asked.
    Returns (seconds of the run and the export, the run's summary lines). An exit other than
    0 or 1 (1: some photos quarantined) stops the script: every figure after it would be wrong."""
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    if link:
        subprocess.run(["cp", "-al", inbox, os.path.join(work, "inbox")], check=True)
    else:
        shutil.copytree(inbox, os.path.join(work, "inbox"))
    config = os.path.join(work, "pipeline.json")
    write_config(config, indent=indent, end=end, **{**without_text(binary), **settings})
    start = time.monotonic()
    run = subprocess.run([binary, "run", "--config", config], capture_output=True, text=True)
    if run.returncode not in (0, 1):
        sys.exit(f"ingest run exited {run.returncode}:\n{run.stderr[-3000:]}")
    if export:
        subprocess.run([binary, "export", "--config", config, "--csv", export], check=True, capture_output=True)
    return time.monotonic() - start, run.stdout.strip().splitlines()


def barcode_hits(work):
    """Every barcode hit of every photo in WORK's catalogue, not only the one a capture keeps, as
    rows with `set_name` and the hit's columns; none when the catalogue (an early build's) has no
    barcode_hit table."""
    catalog = os.path.join(work, "library", "catalog.sqlite")
    with sqlite3.connect(f"file:{catalog}?mode=ro", uri=True) as db:
        db.row_factory = sqlite3.Row
        if not db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'barcode_hit'").fetchone()[0]:
            return []
        return db.execute("SELECT c.set_name AS set_name, h.* FROM barcode_hit h JOIN photo p ON p.id = h.photo_id "
                          "JOIN capture c ON c.id = p.capture_id").fetchall()


def explain(binary, config, paths, options=(), exits=None):
    """The records of `binary explain --json OPTIONS --config CONFIG PATHS`; with `exits`, any
    other exit code stops the script."""
    run = subprocess.run([binary, "explain", "--json", *options, "--config", config] + list(paths),
                         capture_output=True, text=True)
    if exits is not None and run.returncode not in exits:
        sys.exit(f"ingest explain exited {run.returncode}:\n{run.stderr[-3000:]}")
    return json.loads(run.stdout or "[]")


# ---------------------------------------------------------------- reference readers
def zbarimg(options, path):
    """`zbarimg -q --nodbus OPTIONS PATH`; a format its ImageMagick cannot open (exit neither 0
    nor 4, "no code found") goes through a temporary PNG made by vips."""
    def run(file):
        return subprocess.run(ZBARIMG + list(options) + [file], capture_output=True, text=True)
    out = run(path)
    if out.returncode not in (0, 4):
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, "photo.png")
            subprocess.run(["vips", "copy", path, copy], check=True, capture_output=True)
            out = run(copy)
    return out


def zxing_read(path):
    """zxing-cpp's Python binding on the photo, all formats: {(format, text, None)}."""
    import zxingcpp
    from PIL import Image
    with Image.open(path) as image:
        return {(str(code.format), code.text, None) for code in zxingcpp.read_barcodes(image)}


def read_each(read, paths, workers, pool_type=None):
    """read(path) of every path, `workers` at once (threads unless `pool_type` says otherwise):
    (seconds, [results in the paths' order])."""
    from concurrent.futures import ThreadPoolExecutor  # here: products_baseline.py is timed from its start
    pool_type = pool_type or ThreadPoolExecutor
    start = time.monotonic()
    with pool_type(max_workers=workers) as pool:
        results = list(pool.map(read, paths))
    return time.monotonic() - start, results


# ---------------------------------------------------------------- reports
def write_report(path, text):
    """Prints the Markdown report and writes it to `path` (its folder made if need be)."""
    print(text)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def package_version(package):
    """The installed version of a pip package, '?' when it cannot be told."""
    try:
        from importlib.metadata import version
        return version(package)
    except Exception:
        return "?"
