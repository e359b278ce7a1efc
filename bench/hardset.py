#!/usr/bin/env python3
"""A hard barcode test set, and how many of its codes ZBar alone and `ingest` read (issue 6).

    bench/hardset.py [--seed 1] [--per 30] [--nobarcode 135] [--out /tmp/ingest-hardset]
                     [--report docs/recall-hardset.md] [--ingest .build/release/ingest] [--workers 2]
                     [--only clean,blur,...] [--reuse] [--no-pyzbar]

Writes OUT/inbox/<perturbation>-<nnn>/photo.<ext>, every photo its own set: one barcode (EAN-13,
UPC-A, EAN-8, Code 128 or QR, weighted as ../shared/corpus/gen_corpus.py weights them) on a label
pasted on a package background, made hard by one perturbation (see PERTURBATIONS). The
`nobarcode-<nnn>` sets are package fronts, nutrition labels and textures that fool barcode readers
(stripes, wood grain, printed text, tables, checkerboards, an EAN-13 with a wrong check digit): any
barcode read there is a false positive. OUT/truth.json maps each set to {perturbation, symbology,
value, gtin13, ...}. The photos depend only on --seed, --per and --nobarcode; --reuse keeps a set
already generated with the same ones.

Then the same photos are read by
    ingest   `ingest run` (pipeline.json: workers N, default symbologies) on a hard-linked copy of
             the inbox, then `ingest export --csv`; every barcode of a set counts, from the CSV and
             from the catalogue's barcode_hit table
    zbar     `zbarimg` on each photo at full resolution, only the five symbologies, N at once
    pyzbar   pyzbar on the Pillow greyscale image (the Python baseline's method), N processes
and a Markdown report (recall, wrong reads, false positives, time) is printed and written.

Needs the pip packages pillow numpy python-barcode qrcode piexif (pyzbar for the third reader) and
the apt packages zbar-tools and libvips-tools; `ingest` built in release mode.
"""
import argparse
import csv
import dataclasses
import datetime as dt
import importlib.util
import io
import json
import math
import os
import random
import shlex
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GENERATOR = os.path.join(os.path.dirname(ROOT), "shared", "corpus", "gen_corpus.py")


def load_generator():
    """gen_corpus.py as a module: its code, label and scene drawing are reused, not copied."""
    spec = importlib.util.spec_from_file_location("gen_corpus", GENERATOR)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen = load_generator()

HI = 8  # labels are drawn at 8 px per module, warped there, then resampled once to the module size
MIN_MODULE = 1.6  # px per module after all scaling: readable in principle (1.5) with a margin
PHONE_SIZES = [(4032, 3024), (3264, 2448), (2016, 1512)]
CLEAR = (255, 255, 255, 0)  # what rotations and warps fill with: transparent, white if blended


@dataclasses.dataclass
class Code:
    symbology: str
    value: str


@dataclasses.dataclass
class Shot:
    """A rendered photo and how to save it; params go to truth.json."""
    image: Image.Image
    params: dict
    fmt: str = "JPEG"
    quality: int = 0  # 0: a phone's ordinary quality


# ---------------------------------------------------------------- labels
def draw_label(rng, code, levels=(0, 255)):
    """The code at HI px per module as RGBA (opaque), bars at levels[0] on levels[1]."""
    if code.symbology == "QR-Code":
        grey = gen.render_qr(code.value, HI)
    else:
        grey = gen.render_1d(code.symbology, code.value, HI, rng)
    if levels != (0, 255):
        dark, light = levels
        grey = grey.point(lambda v: round(dark + (light - dark) * v / 255))
    return Image.merge("RGBA", (grey, grey, grey, Image.new("L", grey.size, 255)))


def code_box(label):
    """Bounding box (x0, y0, x1, y1) of the label's dark pixels: the bars or modules (and digits)."""
    grey = np.asarray(label.convert("L"), np.float32)
    dark = grey < (grey.min() + grey.max()) / 2
    ys, xs = np.nonzero(dark)
    return xs.min(), ys.min(), xs.max() + 1, ys.max() + 1


def rotated(label, angle):
    return label.rotate(angle, expand=True, resample=Image.BICUBIC, fillcolor=CLEAR)


def resampled(label, module):
    """The hi-res label at `module` px per module (Pillow resizes RGBA with premultiplied alpha)."""
    f = module / HI
    return label.resize((max(1, round(label.width * f)), max(1, round(label.height * f))), Image.LANCZOS)


def with_glare(rng, label):
    """A bright, soft-edged elliptical highlight over 30–50 % of the box round the bars and digits
    (a QR code: its modules), centred at a random point of that box."""
    x0, y0, x1, y1 = code_box(label)
    target = rng.uniform(0.30, 0.50)
    cx, cy = rng.uniform(x0, x1), rng.uniform(y0, y1)
    aspect, tilt, strength = rng.uniform(0.5, 2.0), rng.uniform(0, math.pi), rng.uniform(0.75, 0.95)
    ys, xs = np.mgrid[0:label.height, 0:label.width].astype(np.float32)
    u = (xs - cx) * math.cos(tilt) + (ys - cy) * math.sin(tilt)
    v = -(xs - cx) * math.sin(tilt) + (ys - cy) * math.cos(tilt)

    def glow(radius):
        r2 = (u / (radius * aspect)) ** 2 + (v / radius) ** 2
        return np.exp(-(r2 ** 2) * math.log(2))  # flat top, 0.5 at the ellipse's edge

    def coverage(radius):
        return float((glow(radius)[y0:y1, x0:x1] >= 0.5).mean())

    lo, hi = 1.0, float(max(label.size)) * 2
    for _ in range(30):  # the radius whose half-intensity ellipse covers the target share
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if coverage(mid) < target else (lo, mid)
    g = glow(hi)[:, :, None] * strength
    arr = np.asarray(label, np.float32).copy()
    arr[:, :, :3] += (255 - arr[:, :, :3]) * g
    out = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8), "RGBA")
    return out, 1.0, {"glare_cover": round(coverage(hi), 3), "glare_strength": round(strength, 2)}


def homography(src, dst):
    """Coefficients of Pillow's PERSPECTIVE transform mapping points dst -> src."""
    rows, rhs = [], []
    for (x, y), (u, v) in zip(dst, src):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs += [u, v]
    return np.linalg.solve(np.array(rows, float), np.array(rhs, float)).tolist()


def with_perspective(rng, label):
    """The label tilted 25–40° about its vertical or horizontal axis, seen by a pinhole camera
    at 1.2–2.5 label lengths: modules shrink towards the far edge."""
    theta = math.radians(rng.uniform(25, 40)) * rng.choice([-1, 1])
    axis = rng.choice(["vertical", "horizontal"])
    w, h = label.size
    extent = w if axis == "vertical" else h
    dist = rng.uniform(1.2, 2.5) * max(w, h)

    def project(x, y):
        # centred coordinates; the tilted coordinate moves in depth by t·sin θ
        cx, cy = x - w / 2, y - h / 2
        t = cx if axis == "vertical" else cy
        depth = dist + t * math.sin(theta)
        if axis == "vertical":
            return dist * cx * math.cos(theta) / depth, dist * cy / depth
        return dist * cx / depth, dist * cy * math.cos(theta) / depth

    corners = [(0, 0), (w, 0), (w, h), (0, h)]
    projected = [project(x, y) for x, y in corners]
    minx, miny = min(p[0] for p in projected), min(p[1] for p in projected)
    dst = [(x - minx, y - miny) for x, y in projected]
    size = (math.ceil(max(p[0] for p in dst)), math.ceil(max(p[1] for p in dst)))
    out = label.transform(size, Image.PERSPECTIVE, homography(corners, dst), Image.BICUBIC, fillcolor=CLEAR)
    # smallest local scale along the tilt (at the far edge): D² cos θ / (D + L/2 · |sin θ|)²
    factor = dist ** 2 * math.cos(theta) / (dist + extent / 2 * abs(math.sin(theta))) ** 2
    return out, factor, {"tilt_deg": round(math.degrees(theta), 1), "axis": axis, "min_scale": round(factor, 3)}


def with_curve(rng, label):
    """The label wrapped round a can (axis vertical): the arc of ±45–70° projects as x = R sin φ,
    so modules narrow by cos φ towards the edges, which also darken."""
    span = math.radians(rng.uniform(45, 70))
    w = label.width
    radius = w / (2 * span)
    out_w = max(2, round(2 * radius * math.sin(span)))
    xo = np.arange(out_w, dtype=np.float64) + 0.5 - out_w / 2
    phi = np.arcsin(np.clip(xo / radius, -1, 1))
    xi = np.clip(phi * radius + w / 2 - 0.5, 0, w - 1)
    left = np.floor(xi).astype(int)
    right = np.minimum(left + 1, w - 1)
    frac = (xi - left)[None, :, None]
    arr = np.asarray(label, np.float32)
    warped = arr[:, left] * (1 - frac) + arr[:, right] * frac
    warped[:, :, :3] *= (0.7 + 0.3 * np.cos(phi))[None, :, None]
    # seen from a little above or below, the label's top and bottom edges bow
    bow = rng.uniform(-0.1, 0.1)
    shift = np.round(bow * label.height * (1 - np.cos(phi))).astype(int)
    shift -= shift.min()
    bowed = np.zeros((label.height + shift.max(), out_w, 4), np.float32)
    bowed[:, :, :3] = 255
    bowed[np.arange(label.height)[:, None] + shift[None, :], np.arange(out_w)[None, :]] = warped
    x0, _, x1, _ = code_box(label)
    outer = max(abs(x0 - w / 2), abs(x1 - w / 2))  # the outermost bar's arc length from the centre
    factor = math.cos(outer / radius)
    out = Image.fromarray(np.clip(bowed, 0, 255).astype(np.uint8), "RGBA")
    return out, factor, {"arc_deg": round(math.degrees(span), 1), "bow": round(bow, 3), "min_scale": round(factor, 3)}


# ---------------------------------------------------------------- scenes
def ordinary_module(rng, code):
    """Px per module of a code photographed at an ordinary distance, log-uniform."""
    lo, hi = (2.5, 10.0) if code.symbology == "QR-Code" else (2.0, 8.0)
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def phone_size(rng):
    w, h = rng.choice(PHONE_SIZES)
    return (h, w) if rng.random() < 0.3 else (w, h)


def package_with(rng, label, size):
    """The label pasted at a random place on a package background with a few shapes, and its box
    (x, y, width, height); the frame grows (keeping its aspect) when the label would not fit in
    90 % of it."""
    w, h = size
    grow = max(1.0, label.width / (0.9 * w), label.height / (0.9 * h))
    w, h = math.ceil(w * grow), math.ceil(h * grow)
    img = gen.package_background(rng, w, h)
    gen.scribble(ImageDraw.Draw(img), rng, w, h, 6)
    x, y = rng.randint(0, w - label.width), rng.randint(0, h - label.height)
    img.paste(label.convert("RGB"), (x, y), label.getchannel("A"))
    return img, [x, y, label.width, label.height]


def optics(rng, img, sigma):
    """Lens blur of `sigma` px and light falling off across the frame, as gen_corpus does."""
    if sigma > 0.2:
        img = img.filter(ImageFilter.GaussianBlur(sigma))
    h = img.height
    light = np.linspace(rng.uniform(0.75, 1.0), rng.uniform(0.9, 1.15), h, dtype=np.float32)[:, None, None]
    return Image.fromarray(np.clip(np.asarray(img, np.float32) * light, 0, 255).astype(np.uint8), "RGB")


def scene(rng, code, module=None, angle=None, size=None, sigma=None, levels=(0, 255), warp=None, label=None):
    """A photo of `code` on a package: the label drawn at HI, warped (warp(rng, label) returns the
    label, its smallest local scale and params), rotated by `angle`, resampled so that no module
    is under MIN_MODULE px unless `module` asks for less, pasted, blurred by `sigma`."""
    module = ordinary_module(rng, code) if module is None else module
    angle = rng.uniform(-5, 5) if angle is None else angle
    label = draw_label(rng, code, levels) if label is None else label
    params = {}
    if warp is not None:
        label, factor, params = warp(rng, label)
        module = max(module, MIN_MODULE / factor)
    label = resampled(rotated(label, angle), module)
    sigma = min(rng.uniform(0.3, 0.6), 0.35 * module) if sigma is None else sigma
    img, box = package_with(rng, label, size or phone_size(rng))
    img = optics(rng, img, sigma)
    params.update({"module_px": round(module, 2), "angle": round(angle, 1), "sigma": round(sigma, 2),
                   "size": list(img.size), "label_box": box})
    return img, params


# ---------------------------------------------------------------- perturbations
def clean(rng, code):
    """Control: an upright (±5°) label at 2–8 px per module (QR 2.5–10), lightly blurred."""
    return Shot(*scene(rng, code))


def blur(rng, code):
    """Gaussian blur σ 1.5–3 px over the photo, at 3–5 px per module."""
    return Shot(*scene(rng, code, module=rng.uniform(3, 5), sigma=rng.uniform(1.5, 3.0)))


def noise(rng, code):
    """Gaussian sensor noise σ 15–30 grey levels on every channel."""
    img, params = scene(rng, code)
    sigma = rng.uniform(15, 30)
    arr = np.asarray(img, np.float32) + np.random.default_rng(rng.randint(0, 2**31)).normal(0, sigma, (img.height, img.width, 3))
    params["noise_sigma"] = round(sigma, 1)
    return Shot(Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8), "RGB"), params)


def perspective(rng, code):
    """The label tilted 25–40° about one axis (homography); modules ≥ 1.6 px at the far edge."""
    return Shot(*scene(rng, code, warp=with_perspective))


def small(rng, code):
    """Modules of 1.2–1.8 px: at and below the edge of what can be read."""
    module = rng.uniform(1.2, 1.8)
    return Shot(*scene(rng, code, module=module, sigma=min(rng.uniform(0.3, 0.6), 0.35 * module)))


def rot90(rng, code):
    """The label turned 90° or 270° (±3°): bars horizontal."""
    return Shot(*scene(rng, code, angle=rng.choice([90, 270]) + rng.uniform(-3, 3)))


def rot180(rng, code):
    """The label upside down (180° ±3°)."""
    return Shot(*scene(rng, code, angle=180 + rng.uniform(-3, 3)))


def skew(rng, code):
    """The label rotated 20–45° either way."""
    return Shot(*scene(rng, code, angle=rng.uniform(20, 45) * rng.choice([-1, 1])))


def jpeg(rng, code):
    """Saved as JPEG at quality 15–35."""
    img, params = scene(rng, code)
    quality = rng.randint(15, 35)
    params["jpeg_quality"] = quality
    return Shot(img, params, quality=quality)


def glare(rng, code):
    """A bright elliptical highlight over 30–50 % of the code's box."""
    return Shot(*scene(rng, code, warp=with_glare))


def lowcontrast(rng, code):
    """Bars at grey 90–130 on a label of grey 150–190."""
    levels = (rng.randint(90, 130), rng.randint(150, 190))
    img, params = scene(rng, code, levels=levels)
    params["levels"] = list(levels)
    return Shot(img, params)


def curved(rng, code):
    """The label round a can: horizontal compression towards the edges (≥ 1.6 px per module there)."""
    return Shot(*scene(rng, code, warp=with_curve))


def webp(rng, code):
    """Saved as lossy WebP, quality 75–90."""
    img, params = scene(rng, code)
    params["webp_quality"] = rng.randint(75, 90)
    return Shot(img, params, fmt="WEBP", quality=params["webp_quality"])


def png(rng, code):
    """Saved as PNG."""
    return Shot(*scene(rng, code), fmt="PNG")


def sizes(rng, code):
    """The whole photo 300 px to 12 MP (4000 px) wide, log-uniform; the module scales with it
    (6–14 px at 4032 px wide) but stays ≥ 1.6 px."""
    w = round(math.exp(rng.uniform(math.log(300), math.log(4000))))
    h = round(w * 3 / 4)
    module = max(MIN_MODULE, rng.uniform(6, 14) * w / 4032)
    return Shot(*scene(rng, code, module=module, size=(h, w) if rng.random() < 0.3 else (w, h)))


PERTURBATIONS = {f.__name__: f for f in (clean, blur, noise, perspective, small, rot90, rot180, skew, jpeg,
                                         glare, lowcontrast, curved, webp, png, sizes)}


# ---------------------------------------------------------------- photos without a barcode
FONT_FILES = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf",
    "/usr/share/fonts/opentype/urw-base35/NimbusRoman-Regular.otf", "/usr/share/fonts/opentype/urw-base35/NimbusSansNarrow-Regular.otf",
    "/usr/share/fonts/opentype/urw-base35/NimbusMonoPS-Regular.otf", "/usr/share/fonts/opentype/urw-base35/URWGothic-Book.otf",
    "/usr/share/fonts/opentype/urw-base35/C059-Italic.otf",
]
WORDS = ("ingredients wheat flour sugar palm oil salt yeast emulsifier lecithin may contain traces of nuts "
         "store in a cool dry place best before see lid net weight produced for distributed by recycle "
         "energy fat saturates carbohydrate protein fibre per 100 g serving 1520 kJ 363 kcal 6.5 g 0.02 "
         "4006381333931 5901234123457 E322 E471 | III ||| 11 111 lll IIl 0110 1001").split()


def font(rng, size):
    files = [f for f in FONT_FILES if os.path.exists(f)]
    if files and rng.random() < 0.85:
        return ImageFont.truetype(rng.choice(files), size)
    return ImageFont.load_default(size=size)


def region(rng, w, h, least=0.4):
    """A random rectangle covering `least`…100 % of each side of the frame."""
    rw, rh = round(w * rng.uniform(least, 1.0)), round(h * rng.uniform(least, 1.0))
    x, y = rng.randint(0, w - rw), rng.randint(0, h - rh)
    return x, y, rw, rh


def stripe_profile(rng, length):
    """Grey levels along one axis: random-width bars (barcode-like), corrugated card, or shelf edges."""
    style = rng.choice(["bars", "corrugated", "shelf"])
    if style == "corrugated":
        period = rng.uniform(6, 30)
        phase = np.cumsum(np.random.default_rng(rng.randint(0, 2**31)).normal(1, 0.05, length))
        return style, 150 + 60 * np.sin(2 * math.pi * phase / period)
    profile = np.empty(length, np.float32)
    pos, dark = 0, rng.random() < 0.5
    unit = rng.uniform(1.5, 6)
    while pos < length:
        width = max(1, round(unit * rng.choice([1, 2, 3, 4]))) if style == "bars" else rng.randint(8, 300)
        if style == "bars":
            grey = rng.randint(0, 70) if dark else rng.randint(190, 255)
        else:
            grey = rng.randint(0, 255) if rng.random() < 0.8 else rng.randint(0, 40)  # bands and edges
        profile[pos:pos + width] = grey
        pos, dark = pos + width, not dark
    return style, profile


def stripes(rng, w, h, vertical):
    """Stripes of random widths across part of a package: corrugated card, shelf edges, bar-like."""
    img = np.asarray(gen.package_background(rng, w, h), np.float32).copy()
    x, y, rw, rh = region(rng, w, h)
    style, profile = stripe_profile(rng, rw if vertical else rh)
    grey = profile[None, :] if vertical else profile[:, None]
    tint = np.array([rng.uniform(0.8, 1.0) for _ in range(3)], np.float32)
    img[y:y + rh, x:x + rw] = np.broadcast_to(grey, (rh, rw))[:, :, None] * tint
    return Image.fromarray(np.clip(img, 0, 255).astype(np.uint8), "RGB"), {"style": style}


def vertical_stripes(rng, w, h):
    """Vertical stripes of random widths: bar-like runs, corrugated card or shelf edges."""
    return stripes(rng, w, h, vertical=True)


def horizontal_stripes(rng, w, h):
    """Horizontal stripes of random widths: bar-like runs, corrugated card or shelf edges."""
    return stripes(rng, w, h, vertical=False)


def wood(rng, w, h):
    """Wood grain: fine rings bent by smooth noise, along the grain's random axis."""
    gen_np = np.random.default_rng(rng.randint(0, 2**31))
    period = rng.uniform(5, 30)
    coarse = Image.fromarray((gen_np.random((max(2, h // 200), max(2, w // 200))) * 255).astype(np.uint8), "L")
    bend = np.asarray(coarse.resize((w, h), Image.BICUBIC), np.float32) / 255 * rng.uniform(20, 120)
    along = np.arange(w, dtype=np.float32)[None, :] if rng.random() < 0.5 else np.arange(h, dtype=np.float32)[:, None]
    rings = 0.5 + 0.5 * np.sin(2 * math.pi * (along + bend) / period)
    grain = rings ** rng.uniform(1, 4) + gen_np.normal(0, 0.05, (h, w))
    base = np.array([rng.randint(120, 200), rng.randint(70, 130), rng.randint(30, 80)], np.float32)
    img = base * (0.6 + 0.4 * grain[:, :, None])
    return Image.fromarray(np.clip(img, 0, 255).astype(np.uint8), "RGB"), {"period": round(period, 1)}


def text_page(rng, w, h):
    """A printed page: lines of words and numbers in several fonts and sizes, one or two columns."""
    img = gen.package_background(rng, w, h)
    draw = ImageDraw.Draw(img)
    x, y, rw, rh = region(rng, w, h, least=0.6)
    draw.rectangle([x, y, x + rw, y + rh], fill=(rng.randint(225, 255), rng.randint(225, 255), rng.randint(215, 250)))
    columns = rng.choice([1, 2])
    col_w = rw // columns
    for c in range(columns):
        ty = y + rh // 30
        while True:
            size = rng.randint(max(10, h // 120), max(12, h // 25))
            if ty + size > y + rh:
                break
            words = " ".join(rng.choice(WORDS) for _ in range(40))
            f = font(rng, size)
            line = words
            while len(line) > 1 and draw.textlength(line, font=f) > col_w * 0.92:
                line = line[: int(len(line) * 0.8)]
            draw.text((x + c * col_w + col_w // 25, ty), line, fill=(0, 0, 0), font=f)
            ty += int(size * rng.uniform(1.1, 1.6))
    return img, {"columns": columns}


def grid(rng, w, h):
    """A table: ruled cells of numbers, sometimes zebra-striped rows."""
    img = gen.package_background(rng, w, h)
    draw = ImageDraw.Draw(img)
    x, y, rw, rh = region(rng, w, h, least=0.5)
    draw.rectangle([x, y, x + rw, y + rh], fill=(250, 250, 245))
    cw, ch = rng.randint(30, max(31, w // 8)), rng.randint(16, max(17, h // 15))
    line = rng.randint(1, 4)
    zebra = rng.random() < 0.4
    f = font(rng, max(8, int(ch * 0.55)))
    for r, ty in enumerate(range(y, y + rh - ch, ch)):
        if zebra and r % 2:
            draw.rectangle([x, ty, x + rw, ty + ch], fill=(215, 215, 215))
        for tx in range(x, x + rw - cw, cw):
            draw.text((tx + 3, ty + 2), f"{rng.randint(0, 9999) / 10:.1f}", fill=(0, 0, 0), font=f)
    for ty in range(y, y + rh, ch):
        draw.line([x, ty, x + rw, ty], fill=(0, 0, 0), width=line)
    for tx in range(x, x + rw, cw):
        draw.line([tx, y, tx, y + rh], fill=(0, 0, 0), width=line)
    return img, {"cell": [cw, ch], "line": line}


def checkerboard(rng, w, h):
    """A checkerboard of 3–40 px squares, turned by a random angle, over part of the frame."""
    img = np.asarray(gen.package_background(rng, w, h), np.float32).copy()
    x, y, rw, rh = region(rng, w, h, least=0.3)
    square, angle = rng.uniform(3, 40), rng.uniform(0, math.pi / 2)
    ys, xs = np.mgrid[0:rh, 0:rw].astype(np.float32)
    u = (xs * math.cos(angle) + ys * math.sin(angle)) // square
    v = (-xs * math.sin(angle) + ys * math.cos(angle)) // square
    dark, light = rng.randint(0, 80), rng.randint(170, 255)
    img[y:y + rh, x:x + rw] = np.where((u + v) % 2 == 0, dark, light)[:, :, None]
    return Image.fromarray(img.astype(np.uint8), "RGB"), {"square": round(square, 1)}


# the right-hand (R) patterns of EAN digits, for bars that encode a wrong check digit
EAN_R = ["1110010", "1100110", "1101100", "1000010", "1011100", "1001110", "1010000", "1000100", "1001000", "1110100"]


def bad_check_label(rng):
    """An EAN-13 label whose last digit's bars encode a wrong check digit: no valid code."""
    code = Code("EAN-13", gen.random_code(rng, "EAN-13"))
    label = draw_label(rng, code)
    arr = np.asarray(label).copy()
    quiet, top = 11 * HI, 4 * HI
    bars = np.nonzero(arr[top:, quiet + HI // 2, 0] < 128)[0]  # rows of the first guard bar
    bottom = top + bars.max() + 1
    wrong = (int(code.value[-1]) + rng.randint(1, 9)) % 10
    for i, bit in enumerate(EAN_R[wrong]):
        x = quiet + (85 + i) * HI  # modules 85–91 hold the check digit
        arr[top:bottom, x:x + HI, :3] = 0 if bit == "1" else 255
    return Image.fromarray(arr, "RGBA"), code.value[:-1] + str(wrong)


def finished(rng, img):
    return optics(rng, img, rng.uniform(0.3, 0.8))


def nobarcode_front(rng):
    """gen_corpus.py's package front: shapes and a brand name."""
    w, h = phone_size(rng)
    return Shot(gen.front_photo(rng, w, h), {})


def nobarcode_nutrition(rng):
    """gen_corpus.py's nutrition label: a ruled table of text."""
    w, h = phone_size(rng)
    return Shot(gen.nutrition_photo(rng, w, h), {})


def nobarcode_texture(draw_texture):
    def shot(rng):
        img, params = draw_texture(rng, *phone_size(rng))
        return Shot(finished(rng, img), params)
    shot.__doc__ = draw_texture.__doc__
    return shot


def nobarcode_badcheck(rng):
    """An EAN-13 whose bars carry a wrong check digit (must not be read)."""
    label, digits = bad_check_label(rng)
    img, params = scene(rng, Code("EAN-13", digits), label=label)
    params["bars_encode"] = digits
    return Shot(img, params)


NOBARCODE = {
    "front": nobarcode_front,
    "nutrition": nobarcode_nutrition,
    "stripes-vertical": nobarcode_texture(vertical_stripes),
    "stripes-horizontal": nobarcode_texture(horizontal_stripes),
    "wood": nobarcode_texture(wood),
    "text": nobarcode_texture(text_page),
    "grid": nobarcode_texture(grid),
    "checkerboard": nobarcode_texture(checkerboard),
    "badcheck": nobarcode_badcheck,
}


# ---------------------------------------------------------------- generation
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


# ---------------------------------------------------------------- readers
def run_ingest(args, inbox, work, binary):
    """`binary run` + `binary export` on a hard-linked copy of the inbox.
    Returns (seconds, {set: {(text, gtin13)}}, the lines of the run summary)."""
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    subprocess.run(["cp", "-al", inbox, os.path.join(work, "inbox")], check=True)
    config = os.path.join(work, "pipeline.json")
    with open(config, "w") as f:
        json.dump({"inbox": "inbox", "library": "library", "catalog": "library/catalog.sqlite",
                   "quarantine": "quarantine", "workers": args.workers}, f, indent=1)
    captures = os.path.join(work, "captures.csv")
    start = time.monotonic()
    run = subprocess.run([binary, "run", "--config", config], capture_output=True, text=True)
    if run.returncode not in (0, 1):
        sys.exit(f"ingest run exited {run.returncode}:\n{run.stderr[-3000:]}")
    subprocess.run([binary, "export", "--config", config, "--csv", captures], check=True, capture_output=True)
    seconds = time.monotonic() - start
    reads = defaultdict(set)
    with open(captures, newline="") as f:
        for capture in csv.DictReader(f):
            if capture.get("barcode"):
                reads[capture["set_name"]].add((capture["barcode"], capture.get("gtin13") or None))
    # every hit of every photo, not only the one a capture keeps (an early build may not record them)
    with sqlite3.connect(f"file:{os.path.join(work, 'library', 'catalog.sqlite')}?mode=ro", uri=True) as db:
        has_hits = db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'barcode_hit'").fetchone()[0]
        for set_name, text, gtin in [] if not has_hits else db.execute(
                "SELECT c.set_name, h.text, h.gtin13 FROM barcode_hit h JOIN photo p ON p.id = h.photo_id "
                "JOIN capture c ON c.id = p.capture_id"):
            reads[set_name].add((text, gtin))
    return seconds, reads, run.stdout.strip().splitlines()


ZBAR = ["zbarimg", "-q", "--nodbus", "-Sdisable", "-Sean13.enable", "-Supca.enable", "-Sean8.enable",
        "-Scode128.enable", "-Sqrcode.enable"]


def zbar_read(path):
    """zbarimg's codes in one photo at full resolution; a format ImageMagick cannot read goes
    through a temporary PNG made by vips."""
    out = subprocess.run(ZBAR + [path], capture_output=True, text=True)
    if out.returncode not in (0, 4):  # 4: read, but no code found
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, "photo.png")
            subprocess.run(["vips", "copy", path, copy], check=True, capture_output=True)
            out = subprocess.run(ZBAR + [copy], capture_output=True, text=True)
    return {(line.split(":", 1)[1], None) for line in out.stdout.splitlines() if ":" in line}


def pyzbar_read(path):
    from pyzbar.pyzbar import ZBarSymbol, decode
    symbols = [ZBarSymbol.EAN13, ZBarSymbol.UPCA, ZBarSymbol.EAN8, ZBarSymbol.CODE128, ZBarSymbol.QRCODE]
    with Image.open(path) as img:
        return {(code.data.decode(), None) for code in decode(img.convert("L"), symbols=symbols)}


def run_per_photo(read, truth, inbox, workers, pool_type):
    """Applies read(path) to every photo, `workers` at once; returns (seconds, {set: reads})."""
    names = list(truth["sets"])
    paths = [os.path.join(inbox, truth["sets"][n]["file"]) for n in names]
    start = time.monotonic()
    with pool_type(max_workers=workers) as pool:
        results = list(pool.map(read, paths))
    return time.monotonic() - start, dict(zip(names, results))


# ---------------------------------------------------------------- scoring and report
def is_correct(read, entry):
    text, gtin = read
    accepted = {entry["value"], entry["gtin13"]} - {None}
    return text in accepted or (gtin is not None and gtin in accepted)


def score(truth, reads):
    """Per set: (read correctly?, [wrong reads]); on a set without a barcode every read is wrong."""
    return {name: (any(is_correct(r, e) for r in reads.get(name, ())) if e["value"] else False,
                   sorted(r[0] for r in reads.get(name, ()) if not e["value"] or not is_correct(r, e)))
            for name, e in truth["sets"].items()}


LABEL = {"ingest": "ingest", "zbar": "ZBar alone", "pyzbar": "pyzbar", "before": "ingest before"}


def pct(hits, n):
    return f"{hits}/{n} ({100 * hits / n:.0f} %)" if n else "–"


def row(cells, bold=False):
    return "| " + " | ".join(f"**{c}**" if bold else str(c) for c in cells) + " |"


def by_perturbation(sets):
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
    lines.append(f"- ZBar alone: `{' '.join(ZBAR)} PHOTO` ({notes['zbar_version']}), full resolution, "
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
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--", "Sources", "Package.swift"],
                           capture_output=True, text=True).stdout.strip()
    built = dt.datetime.fromtimestamp(os.path.getmtime(binary), dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    zbar_version = "zbarimg " + subprocess.run(["zbarimg", "--version"], capture_output=True, text=True).stdout.strip()
    return {"commit": commit or "?", "dirty": " (Sources/ has uncommitted changes)" if dirty else "",
            "built": built, "zbar_version": zbar_version}


def main():
    start = time.monotonic()
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per", type=int, default=30, help="photos per perturbation")
    ap.add_argument("--nobarcode", type=int, default=135, help="photos without a barcode (at least 120)")
    ap.add_argument("--out", default="/tmp/ingest-hardset")
    ap.add_argument("--report", default=os.path.join(ROOT, "docs", "recall-hardset.md"))
    ap.add_argument("--ingest", default=os.path.join(ROOT, ".build", "release", "ingest"))
    ap.add_argument("--workers", type=int, default=2, help="photos read at once, by each pipeline")
    ap.add_argument("--only", help="comma-separated perturbations to make (and 'nobarcode'), for a quick look")
    ap.add_argument("--reuse", action="store_true", help="keep OUT if it was generated with the same seed and counts")
    ap.add_argument("--no-pyzbar", dest="pyzbar", action="store_false")
    ap.add_argument("--before", help="an earlier ingest binary, read as a fourth pipeline ('ingest before')")
    ap.add_argument("--before-label", default="", help="what the earlier binary is, for the report")
    args = ap.parse_args()
    args.out = os.path.abspath(args.out)
    if not os.access(args.ingest, os.X_OK):
        sys.exit(f"{args.ingest}: no ingest binary; build one with "
                 "`swift build -c release --product ingest` or pass --ingest")
    if args.only:
        chosen = set(args.only.split(","))
        unknown = chosen - set(PERTURBATIONS) - {"nobarcode"}
        if unknown:
            sys.exit(f"--only: unknown perturbation(s) {', '.join(sorted(unknown))}")
        for name in list(PERTURBATIONS):
            if name not in chosen:
                del PERTURBATIONS[name]
        if "nobarcode" not in chosen:
            args.nobarcode = 0
        args.reuse = False

    # others rebuild the binary while this runs: use a copy taken now, described now
    notes = describe_binary(args.ingest)
    snapshot = tempfile.mkdtemp(prefix="hardset-ingest-")
    binary, args.ingest = args.ingest, shutil.copy2(args.ingest, os.path.join(snapshot, "ingest"))
    notes["load"] = " / ".join(f"{x:.1f}" for x in os.getloadavg())

    seconds = {}
    truth = generate(args)
    seconds["generate"] = time.monotonic() - start
    print(f"{len(truth['sets'])} photos in {args.out}/inbox ({seconds['generate']:.0f} s)", file=sys.stderr)

    inbox = os.path.join(args.out, "inbox")
    seconds["ingest"], ingest_reads, summary = run_ingest(args, inbox, os.path.join(args.out, "run-ingest"), args.ingest)
    print(f"ingest: {seconds['ingest']:.1f} s", file=sys.stderr)
    if args.before:
        seconds["before"], before_reads, _ = run_ingest(args, inbox, os.path.join(args.out, "run-before"), args.before)
        print(f"ingest before: {seconds['before']:.1f} s", file=sys.stderr)
    seconds["zbar"], zbar_reads = run_per_photo(zbar_read, truth, inbox, args.workers, ThreadPoolExecutor)
    print(f"zbar: {seconds['zbar']:.1f} s", file=sys.stderr)
    raw = {"ingest": ingest_reads, "zbar": zbar_reads}
    if args.before:
        raw["before"] = before_reads
    if args.pyzbar:
        seconds["pyzbar"], raw["pyzbar"] = run_per_photo(pyzbar_read, truth, inbox, args.workers, ProcessPoolExecutor)
        print(f"pyzbar: {seconds['pyzbar']:.1f} s", file=sys.stderr)
    results = {reader: score(truth, reads) for reader, reads in raw.items()}
    seconds["total"] = time.monotonic() - start
    shutil.rmtree(snapshot)

    notes["load_end"] = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    notes.update({"command": " ".join(["bench/hardset.py"] + [shlex.quote(a) for a in sys.argv[1:]]),
                  "binary": os.path.relpath(binary, ROOT) if binary.startswith(ROOT + os.sep) else binary,
                  "summary": summary, "date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")})
    with open(os.path.join(args.out, "reads.json"), "w") as f:
        json.dump({reader: {name: sorted(map(list, found)) for name, found in reads.items()}
                   for reader, reads in raw.items()}, f, indent=1)
    text = report(args, truth, results, seconds, notes)
    print(text)
    os.makedirs(os.path.dirname(os.path.abspath(args.report)), exist_ok=True)
    with open(args.report, "w") as f:
        f.write(text)
    print(f"report: {args.report}", file=sys.stderr)


if __name__ == "__main__":
    main()
