import Foundation
import Catalog
@testable import Imaging
@testable import Pipeline
import TestSupport
import Vocabulary
import XCTest
import SystemPackage

// Helpers of the Pipeline tests: files in folders, barcode readings for the grouper, and the
// real image files the analyser tests read.

/// Writes `contents` to `folder/relativePath`, creating intermediate folders.
@discardableResult
func writeFile(_ relativePath: String, in folder: String, contents: String = "x") throws -> String {
    let path = (folder as NSString).appendingPathComponent(relativePath)
    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                            withIntermediateDirectories: true)
    try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
    return path
}

/// A validated reading as `GTIN.reading(from:)` would produce it, with a fixed box.
func makeReading(_ symbology: Symbology, _ text: String, gtin13: String? = nil, quality: Int = 3) -> BarcodeReading {
    BarcodeReading(symbology: symbology, text: text, gtin13: gtin13, quality: quality,
                   box: PixelBox(x: 10, y: 20, width: 300, height: 120))
}

/// Writes the real image files the analyzer tests read into the folder given as argument, and
/// prints the SHA-256 of each as JSON, computed by Python's hashlib.
let analyzerFixtureScript = #"""
import hashlib, io, json, os, struct, sys, zlib
import barcode, numpy as np, piexif, qrcode
from PIL import Image

out = sys.argv[1]
def save(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)

# barcode.jpg: upright 480x640 (portrait) with a crisp EAN-13 4006381333931, stored turned for Orientation 6.
bits = barcode.get("ean13", "400638133393").build()[0]
upright = np.full((640, 480), 190, np.uint8)
module, left, top = 3, 40, 240
upright[top:top + 200, left:left + len(bits) * module + 22 * module] = 255
for i, bit in enumerate(bits):
    if bit == "1":
        x = left + 11 * module + i * module
        upright[top + 20:top + 170, x:x + module] = 0
stored = Image.fromarray(upright, "L").convert("RGB").transpose(Image.ROTATE_90)
exif = piexif.dump({
    "0th": {piexif.ImageIFD.Make: b"Robo", piexif.ImageIFD.Model: b"Capture 1", piexif.ImageIFD.Orientation: 6},
    "Exif": {piexif.ExifIFD.DateTimeOriginal: b"2026:11:20 09:00:00", piexif.ExifIFD.SubSecTimeOriginal: b"674",
             piexif.ExifIFD.OffsetTimeOriginal: b"+01:00"}})
buf = io.BytesIO(); stored.save(buf, "JPEG", quality=92, exif=exif); save("barcode.jpg", buf.getvalue())

# book.png: a book's back as Japanese books print it: the ISBN 9784101010014 above, and below it the
# second EAN-13 of the book code, 1920193006001 (a classification and price code, in GS1's unassigned
# 192 range), drawn taller so that ZBar reads it along more lines than the ISBN.
def ean13(canvas, digits, left, top, height, module=3):
    bits = barcode.get("ean13", digits).build()[0]
    canvas[top - 20:top + height + 20, left - 11 * module:left + (len(bits) + 11) * module] = 255
    for i, bit in enumerate(bits):
        if bit == "1":
            canvas[top:top + height, left + i * module:left + (i + 1) * module] = 0
book = np.full((620, 420), 200, np.uint8)
ean13(book, "978410101001", 60, 60, 110)
ean13(book, "192019300600", 60, 280, 260)
buf = io.BytesIO(); Image.fromarray(book, "L").save(buf, "PNG"); save("book.png", buf.getvalue())

# landscape.jpg: 640x480 stored upright (Orientation 1), the offset only in OffsetTime, no sub-seconds.
exif = piexif.dump({"0th": {piexif.ImageIFD.Orientation: 1},
                    "Exif": {piexif.ExifIFD.DateTimeOriginal: b"2026:11:20 09:00:00", piexif.ExifIFD.OffsetTime: b"-05:30"}})
buf = io.BytesIO(); Image.fromarray(upright.T.copy(), "L").save(buf, "JPEG", quality=92, exif=exif)
save("landscape.jpg", buf.getvalue())

# front.png: 320x240, no EXIF; its modification time is the only time it has.
gradient = np.tile(np.linspace(40, 220, 320).astype(np.uint8), (240, 1))
buf = io.BytesIO(); Image.fromarray(gradient, "L").convert("RGB").save(buf, "PNG"); save("front.png", buf.getvalue())
os.utime(os.path.join(out, "front.png"), ns=(1_700_000_000_250_000_000, 1_700_000_000_250_000_000))

# qr.png: a QR code on white.
qr = qrcode.QRCode(border=4, box_size=6); qr.add_data("https://example.com/p/42"); qr.make(fit=True)
qr.make_image(fill_color="black", back_color="white").save(os.path.join(out, "qr.png"))

# truncated.jpg: the first 40 % of a noisy 640x480 JPEG.
noise = np.random.default_rng(1).integers(0, 256, (480, 640, 3), dtype=np.uint8)
buf = io.BytesIO(); Image.fromarray(noise, "RGB").save(buf, "JPEG", quality=90)
data = buf.getvalue(); save("truncated.jpg", data[:len(data) * 4 // 10])

save("empty.jpg", b"")
save("text.jpg", b"this is not a picture\n")

# rgba.png: 800x600, the left half fully transparent over black, the right half opaque red: on white,
# green is 255 on the left and 0 on the right.
rgba = np.zeros((600, 800, 4), np.uint8)
rgba[:, 400:, 0] = 255; rgba[:, 400:, 3] = 255
Image.fromarray(rgba, "RGBA").save(os.path.join(out, "rgba.png"))

# grey16.png: 800x600 16-bit grey, a horizontal ramp from 0 to 65535.
ramp = np.tile(np.linspace(0, 65535, 800).astype(np.uint16), (600, 1))
Image.fromarray(ramp).save(os.path.join(out, "grey16.png"))  # mode I;16

# cmyk.jpg: 800x600 CMYK, no ink on the left half, full black ink on the right half.
cmyk = np.zeros((600, 800, 4), np.uint8); cmyk[:, 400:, 3] = 255
Image.fromarray(cmyk, "CMYK").save(os.path.join(out, "cmyk.jpg"), quality=95)

# bomb.png: a PNG header declaring 20000x20000 grey pixels, followed by a single row of data.
def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
save("bomb.png", b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 20000, 20000, 8, 0, 0, 0, 0))
     + chunk(b"IDAT", zlib.compress(b"\x00" * 20001, 9)) + chunk(b"IEND", b""))

print(json.dumps({name: hashlib.sha256(open(os.path.join(out, name), "rb").read()).hexdigest()
                  for name in sorted(os.listdir(out))}))
"""#

/// A new empty folder the caller must delete (for fixtures shared by a whole test class).
func makeDetachedTemporaryFolder() throws -> String {
    try TemporaryFolder.make("PipelineTests").path
}

/// A photo as the analysis stage would give it: 40×30, taken `seconds` after a fixed instant.
func makeAnalysedPhoto(_ file: InboxFile, hash: String, at seconds: Double = 0, barcodes: [BarcodeReading] = [],
                       unconfirmed: [BarcodeReading] = []) -> AnalysedPhoto {
    AnalysedPhoto(
        file: file, sha256: hash, byteSize: 100, format: .jpeg, width: 40, height: 30, orientation: 1,
        make: nil, model: nil,
        time: CaptureTime(utc: 1_800_000_000 + seconds, offsetSeconds: 0, hasFraction: false, source: .exif),
        barcodes: barcodes, unconfirmedBarcodes: unconfirmed,
        quality: PhotoQuality(measuring: GreyImage(width: 8, height: 8) { x, y in UInt8((x * y * 13) % 256) },
                              barcodes: barcodes),
        thumbnail: StagedThumbnail(path: FilePath("/lib/.staging/\(file.relativePath).jpg"), width: 40, height: 30),
        source: FileIdentity(size: 100, modifiedSeconds: 1, modifiedNanoseconds: 0, device: 1, inode: 1))
}
