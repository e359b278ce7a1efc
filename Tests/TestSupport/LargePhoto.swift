import Foundation

/// Writes a 4000×3000 JPEG with one EAN-13 drawn at `module` pixels per module, turned by `angle`
/// degrees, at (`x`, `y`); returns its path.
package func largePhoto(module: Double, angle: Double, x: Int, y: Int, in folder: String) throws -> String {
    let path = (folder as NSString).appendingPathComponent("large.jpg")
    _ = try runPython("""
        import sys, barcode, numpy as np
        from PIL import Image
        bits = barcode.get('ean13', '590123412345').build()[0]
        m, quiet = float(sys.argv[2]), 11
        height = int(len(bits) * m * 0.5)
        label = np.full((height + 8, int((len(bits) + 2 * quiet) * m)), 255, np.uint8)
        for i, b in enumerate(bits):
            if b == '1':
                label[4:4 + height, int((quiet + i) * m):int((quiet + i + 1) * m)] = 0
        label = Image.fromarray(label).rotate(float(sys.argv[3]), expand=True, fillcolor=255, resample=Image.BICUBIC)
        photo = Image.new('L', (4000, 3000), 150)
        photo.paste(label, (int(sys.argv[4]), int(sys.argv[5])))
        photo.convert('RGB').save(sys.argv[1], quality=92)
        """, arguments: [path, String(module), String(angle), String(x), String(y)])
    return path
}
