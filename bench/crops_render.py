"""How bench/crops.py draws a crop: a code's modules under the photo conditions `degrade` drew,
supersampled along the line, blurred, lit, turned, noised, then saved as JPEG, WebP or PNG.

Apart from crops.py so that the script reads as what it counts; this is how the photos look.
"""
import io
import math
import os

import numpy as np
from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def render(modules, text, p, rng):
    """A grey crop of `modules` under conditions `p`."""
    m, n = p["module"], len(modules)
    quiet_left, quiet_right = p["quiet"]
    code_px = n * m * (1 + abs(p["stretch"]) / 2)
    width = int(math.ceil((quiet_left + quiet_right) * m + code_px)) + 2
    digits_px = int(max(7, 7 * m)) if p["digits"] and text else 0
    height = p["height"] + digits_px + int(rng.uniform(0, 0.3) * p["height"])
    over = 8  # supersampling along the line
    xs = (np.arange(width * over) + 0.5) / over
    ys = np.arange(height) + 0.5
    bars = np.array([c == "1" for c in modules] + [False])
    # Module coordinate u of each point: a stretch that grows across the code (perspective), and a
    # bend that shifts each row sideways (a curved package).
    x0 = quiet_left * m
    t = (xs - x0) / (n * m)
    u = n * (t + p["stretch"] * t * (t - 1) / 2)
    rows = []
    for y in ys:
        shift = p["bend"] * math.sin(math.pi * y / height) ** 2
        uu = u - shift
        spread = p["spread"] / 2
        ink = np.zeros_like(uu)
        inside = (uu > -1) & (uu < n + 1)
        # A point is ink when a bar module lies within `spread` of it.
        for offset in (-spread, 0.0, spread):
            idx = np.floor(uu + offset).astype(int)
            ok = inside & (idx >= 0) & (idx < n)
            ink = np.maximum(ink, np.where(ok, bars[np.clip(idx, 0, n)], 0))
        rows.append(ink.reshape(width, over).mean(axis=1))
    image = np.array(rows, dtype=np.float64)
    if digits_px:
        image[p["height"]:, :] = 0
    image = gaussian_rows(image, p["blur"] * m)
    image = gaussian_cols(image, max(0.3, p["blur"] * m * 0.6))
    light = 1 - p["light"] * np.linspace(0, 1, width)[None, :]
    grey = (p["paper"] - (p["paper"] - p["ink"]) * image) * light
    pil = Image.fromarray(np.clip(grey, 0, 255).astype(np.uint8))
    if digits_px:
        draw = ImageDraw.Draw(pil)
        font = ImageFont.truetype(FONT, max(6, digits_px - 1)) if os.path.exists(FONT) else ImageFont.load_default()
        draw.text((x0 + m * 3, p["height"]), text, fill=p["ink"], font=font)
    if p["angle"]:
        pil = pil.rotate(p["angle"], resample=Image.BICUBIC, expand=True, fillcolor=p["paper"])
    grey = np.asarray(pil, dtype=np.float64)
    if p["noise"]:
        grey = grey + np.random.default_rng(rng.randint(0, 2**31)).normal(0, p["noise"], grey.shape)
    return Image.fromarray(np.clip(grey, 0, 255).astype(np.uint8))


def gaussian_rows(image, sigma):
    return convolve(image, sigma, axis=1)


def gaussian_cols(image, sigma):
    return convolve(image, sigma, axis=0)


def convolve(image, sigma, axis):
    if sigma < 0.1:
        return image
    radius = int(3 * sigma) + 1
    kernel = np.exp(-np.arange(-radius, radius + 1) ** 2 / (2 * sigma * sigma))
    kernel /= kernel.sum()
    padded = np.pad(image, [(radius, radius) if a == axis else (0, 0) for a in range(2)], mode="edge")
    return np.apply_along_axis(lambda line: np.convolve(line, kernel, mode="valid"), axis, padded)


def save(image, p, path):
    if p["format"] == "png":
        image.save(path + ".png")
        return path + ".png"
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, "JPEG" if p["format"] == "jpeg" else "WEBP", quality=p["quality"])
    with open(path + (".jpg" if p["format"] == "jpeg" else ".webp"), "wb") as f:
        f.write(buffer.getvalue())
    return f.name
