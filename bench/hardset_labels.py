"""The labels of bench/hardset.py: a code drawn at HI px per module, and the warps that make it
hard (glare, perspective, a can's curve), each returning the smallest local scale it leaves so
the scene can keep every module readable in principle.

gen_corpus.py (../shared/corpus) is loaded here once as `gen`: its code, label and scene drawing
are reused, not copied.
"""
import dataclasses
import math
import os
import sys

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

gen = common.load_gen_corpus()

HI = 8  # labels are drawn at 8 px per module, warped there, then resampled once to the module size
MIN_MODULE = 1.6  # px per module after all scaling: readable in principle (1.5) with a margin
CLEAR = (255, 255, 255, 0)  # what rotations and warps fill with: transparent, white if blended


@dataclasses.dataclass
class Code:
    """A code to draw: its symbology as gen_corpus.py names it, and its value."""
    symbology: str
    value: str


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
    """The label turned by `angle` degrees, grown to hold it, the corners left clear."""
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
    out = label.transform(size, Image.PERSPECTIVE, common.homography(corners, dst), Image.BICUBIC, fillcolor=CLEAR)
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
