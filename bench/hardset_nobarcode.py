"""The photos without a barcode of bench/hardset.py: package fronts, nutrition labels and
textures that fool barcode readers (stripes, wood grain, printed text, tables, checkerboards, an
EAN-13 whose bars carry a wrong check digit). NOBARCODE names each kind; any read is a false one.
"""
import math
import os
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFont

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ean import SET_C  # noqa: E402
from hardset_labels import HI, Code, draw_label, gen  # noqa: E402
from hardset_shots import Shot, optics, phone_size, scene  # noqa: E402

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


def bad_check_label(rng):
    """An EAN-13 label whose last digit's bars encode a wrong check digit: no valid code."""
    code = Code("EAN-13", gen.random_code(rng, "EAN-13"))
    label = draw_label(rng, code)
    arr = np.asarray(label).copy()
    quiet, top = 11 * HI, 4 * HI
    bars = np.nonzero(arr[top:, quiet + HI // 2, 0] < 128)[0]  # rows of the first guard bar
    bottom = top + bars.max() + 1
    wrong = (int(code.value[-1]) + rng.randint(1, 9)) % 10
    for i, bit in enumerate(SET_C[wrong]):  # SET_C: the right-hand (R) patterns
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
