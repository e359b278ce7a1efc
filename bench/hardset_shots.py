"""The photos of codes of bench/hardset.py: a label on a package in a phone-sized frame (`scene`),
and PERTURBATIONS, the fifteen ways one is made hard, each with a docstring the report quotes.
"""
import dataclasses
import math
import os
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hardset_labels import (MIN_MODULE, draw_label, gen, resampled, rotated, with_curve,  # noqa: E402
                            with_glare, with_perspective)

PHONE_SIZES = [(4032, 3024), (3264, 2448), (2016, 1512)]


@dataclasses.dataclass
class Shot:
    """A rendered photo and how to save it; params go to truth.json."""
    image: Image.Image
    params: dict
    fmt: str = "JPEG"
    quality: int = 0  # 0: a phone's ordinary quality


def ordinary_module(rng, code):
    """Px per module of a code photographed at an ordinary distance, log-uniform."""
    lo, hi = (2.5, 10.0) if code.symbology == "QR-Code" else (2.0, 8.0)
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def phone_size(rng):
    """A phone camera's frame (width, height), portrait three times in ten."""
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
