"""Generating bench/hardset.py's photos: the plan (every photo, its code and its own seed, from
--seed alone), rendered in parallel, saved with EXIF, and OUT/truth.json beside the inbox.

The photos depend only on --seed, --per and --nobarcode (and the perturbations made): the same
arguments give the same files, so `--reuse` can keep a set already generated.
"""
import datetime as dt
import io
import json
import os
import random
import shutil
import sys
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hardset_labels import Code, gen  # noqa: E402
from hardset_nobarcode import NOBARCODE  # noqa: E402
from hardset_shots import PERTURBATIONS  # noqa: E402

EXTENSIONS = {"JPEG": "jpg", "WEBP": "webp", "PNG": "png"}


def save(shot, path, when, rng):
    """Writes the shot with EXIF DateTimeOriginal + offset (JPEG, WebP and PNG all carry EXIF)."""
    exif = gen.exif_bytes(when, 1, rng.randint(0, 999))
    buf = io.BytesIO()
    if shot.fmt == "PNG":
        shot.image.save(buf, "PNG", exif=exif, compress_level=3)
    else:
        shot.image.save(buf, shot.fmt, exif=exif, quality=shot.quality or rng.randint(85, 94))
    with open(path, "wb") as f:
        f.write(buf.getvalue())
    os.utime(path, (when.timestamp(), when.timestamp()))


def render(job):
    """One photo from its job (a plain dict, so it crosses process boundaries)."""
    rng = random.Random(job["seed"])
    if job["perturbation"] == "nobarcode":
        shot = NOBARCODE[job["kind"]](rng)
    else:
        shot = PERTURBATIONS[job["perturbation"]](rng, Code(job["symbology"], job["value"]))
    folder = os.path.join(job["inbox"], job["set"])
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "photo." + EXTENSIONS[shot.fmt])
    save(shot, path, dt.datetime.fromisoformat(job["when"]), rng)
    return job["set"], os.path.relpath(path, job["inbox"]), shot.params


def plan(args):
    """Every photo to make, in a fixed order, each with its own seed."""
    rng = random.Random(args.seed)
    jobs, clock = [], gen.EPOCH
    inbox = os.path.join(args.out, "inbox")
    for name in PERTURBATIONS:
        for i in range(args.per):
            symbology = gen.pick_symbology(rng)
            value = gen.random_code(rng, symbology)
            clock += dt.timedelta(minutes=rng.randint(2, 30))
            jobs.append({"set": f"{name}-{i + 1:03d}", "perturbation": name, "symbology": symbology,
                         "value": value, "seed": rng.randint(0, 2**31), "when": clock.isoformat(), "inbox": inbox})
    kinds = list(NOBARCODE)
    for i in range(args.nobarcode):
        clock += dt.timedelta(minutes=rng.randint(2, 30))
        jobs.append({"set": f"nobarcode-{i + 1:03d}", "perturbation": "nobarcode", "kind": kinds[i % len(kinds)],
                     "symbology": None, "value": None, "seed": rng.randint(0, 2**31), "when": clock.isoformat(),
                     "inbox": inbox})
    return jobs


def generate(args):
    """Writes OUT/inbox and OUT/truth.json (or keeps them with --reuse); returns the truth."""
    truth_path = os.path.join(args.out, "truth.json")
    key = {"seed": args.seed, "per": args.per, "nobarcode": args.nobarcode, "perturbations": list(PERTURBATIONS)}
    if args.reuse and os.path.exists(truth_path):
        with open(truth_path) as f:
            truth = json.load(f)
        if truth.get("generated_with") == key:
            return truth
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(os.path.join(args.out, "inbox"))
    jobs = plan(args)
    sets = {}
    with ProcessPoolExecutor(max_workers=os.cpu_count()) as pool:
        for job, (name, file, params) in zip(jobs, pool.map(render, jobs, chunksize=2)):
            value = job["value"]
            sets[name] = {"perturbation": job["perturbation"], "symbology": job["symbology"], "value": value,
                          "gtin13": gen.gtin13(job["symbology"], value) if value else None, "file": file,
                          **({"kind": job["kind"]} if "kind" in job else {}), "params": params}
    truth = {"generated_with": key, "sets": sets}
    with open(truth_path, "w") as f:
        json.dump(truth, f, indent=1)
    return truth
