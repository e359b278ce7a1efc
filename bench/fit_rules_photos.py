"""The development photos of bench/fit_rules.py, in groups, each with how to tell its own code:
the real photos (../shared/realphotos), generated crops (bench/crops.py, seed 1), generated photos
without a code (bench/hardset.py, seed 1) and of codes made hard (bench/hardset.py, seed 3); and
which of the real photos a plain decoder reads right, the figure the fit is set beside.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crops  # noqa: E402
import realphotos  # noqa: E402
import common  # noqa: E402
from common import gtin13_candidates, set_name  # noqa: E402
from hardset_make import generate  # noqa: E402
from hardset_read import is_correct  # noqa: E402


def pool(args):
    """[(group, path, is_right(code) -> bool)]: every development photo."""
    photos = []
    for file, path, group, key, _ in realphotos.load_photos(args.photos):
        photos.append((group, path, lambda code, g=group, k=key: is_code(g, k, code)))
    crop_out = os.path.join(args.out, "crops")
    truth = crops.load_or_generate(1, args.crops, crop_out)
    for name in sorted(truth):
        entry = truth[name]
        photos.append(("generated crops", os.path.join(crop_out, entry["file"]),
                       lambda code, e=entry: crops.is_own(e, (None, code, None))))
    hard = argparse.Namespace(seed=1, per=0, nobarcode=135, out=os.path.join(args.out, "hardset"), reuse=True)
    for name, entry in sorted(generate(hard)["sets"].items()):
        photos.append(("generated, no code", os.path.join(hard.out, "inbox", entry["file"]), lambda code: False))
    coded = argparse.Namespace(seed=3, per=args.hard, nobarcode=0, out=os.path.join(args.out, "hardset-coded"), reuse=True)
    for name, entry in sorted(generate(coded)["sets"].items()):
        photos.append(("generated, made hard", os.path.join(coded.out, "inbox", entry["file"]),
                       lambda code, e=entry: is_hard_code(e, code)))
    return photos


def is_hard_code(entry, code):
    """True when `code` (a product key) is the generated hard photo's code: its truth holds no
    GTIN-13 for an EAN-8, whose product key is its GTIN-13 all the same."""
    if entry["symbology"] == "EAN-8":
        return code in (entry["value"], "00000" + entry["value"])
    return is_correct((code, code), entry)


def is_code(group, key, code):
    """True when `code` (a product key as `ingest explain` gives it: a GTIN-13 for retail codes)
    is the photo's code `key` (an EAN-8's key is its 8 digits)."""
    if key is None:
        return False
    if realphotos.is_retail(group) or group.startswith("ean8"):
        return bool(gtin13_candidates(key) & gtin13_candidates(code))
    return realphotos.is_correct(group, key, (None, code, None))


def references(args, photos):
    """{path: True when zbarimg or zxing-cpp reads the photo's code} for the real photos, each
    reader as bench/realphotos.py runs it (cached in OUT/references.json)."""
    cache = os.path.join(args.out, "references.json")
    if os.path.exists(cache):
        with open(cache) as f:
            return json.load(f)
    real = [p for p in realphotos.load_photos(args.photos) if p[2] != "nobarcode"]
    either = {}
    for read in (realphotos.zbarimg_read, common.zxing_read):
        _, found = realphotos.per_photo(read, real, args.jobs)
        for index, (_, path, group, key, _) in enumerate(real):
            right = any(realphotos.is_correct(group, key, r) for r in found.get(set_name(index), ()))
            either[path] = either.get(path, False) or right
    with open(cache, "w") as f:
        json.dump(either, f)
    return either
