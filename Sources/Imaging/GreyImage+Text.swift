internal import CVipsShim

extension GreyImage {
    /// The image in `bytes` (an original), upright per its EXIF orientation, enlarged or shrunk so
    /// that its long edge is `edge` pixels, as the text reader reads it: its luma (Rec. 601, as
    /// Tesseract makes grey of colour: the green band alone left the rows of a generated table
    /// unread, taken for a picture), and its darkest band at each pixel (white print is light in
    /// every band; coloured print and backgrounds are dark in at least one). libvips shrinks a
    /// JPEG while it loads, so a 48 MP photo never lies in memory whole.
    package static func uprightCopies(of bytes: [UInt8], longEdge edge: Int) throws(ImageError) -> (grey: GreyImage, darkestBand: GreyImage) {
        try Vips.start()
        return try bytes.withImageBytes { bytes throws(ImageError) in
            let image = try VipsImage.fittedCopy(of: bytes, edge: edge).eightBit()
            let (grey, copy, bands) = try image.greyAndShrunk(toWidth: image.width, height: image.height)
            guard bands == 3 else { return (grey, grey) }
            var luma = [UInt8](repeating: 0, count: grey.pixels.count)
            var darkest = [UInt8](repeating: 0, count: grey.pixels.count)
            copy.withUnsafeBufferPointer { rgb in
                for index in darkest.indices {
                    let red = Int(rgb[3 * index]), green = Int(rgb[3 * index + 1]), blue = Int(rgb[3 * index + 2])
                    let weighted: Int = 77 * red + 150 * green + 29 * blue + 128
                    luma[index] = UInt8(truncatingIfNeeded: weighted >> 8)
                    darkest[index] = UInt8(truncatingIfNeeded: Swift.min(red, green, blue))
                }
            }
            return (GreyImage(width: grey.width, height: grey.height, pixels: luma),
                    GreyImage(width: grey.width, height: grey.height, pixels: darkest))
        }
    }

    /// Near-white pixels as black ink on white, the rest white: light print (white letters on a
    /// coloured package, outlined or not) as Tesseract reads print best. `self` is a darkest-band
    /// copy (`uprightCopies`).
    package func lightPrintAsInk(from level: UInt8) -> GreyImage {
        GreyImage(width: width, height: height, pixels: pixels.map { $0 >= level ? 0 : 255 })
    }

    /// The image turned clockwise by `quarterTurns` right angles (0…3).
    package func turned(quarterTurns: Int) -> GreyImage {
        let turns = ((quarterTurns % 4) + 4) % 4
        guard turns != 0 else { return self }
        let (newWidth, newHeight) = turns == 2 ? (width, height) : (height, width)
        var turned = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { source in
            turned.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let row = y * width
                    for x in 0..<width {
                        let (newX, newY) = switch turns {
                        case 1: (height - 1 - y, x)
                        case 2: (width - 1 - x, height - 1 - y)
                        default: (y, width - 1 - x)
                        }
                        target[newY * newWidth + newX] = source[row + x]
                    }
                }
            }
        }
        return GreyImage(width: newWidth, height: newHeight, pixels: turned)
    }
}

extension PixelBox {
    /// The box of an image turned clockwise by `quarterTurns` right angles (`GreyImage.turned`)
    /// in the image before the turn, which was `width` × `height`.
    package func unturned(quarterTurns: Int, width: Int, height: Int) -> PixelBox {
        switch ((quarterTurns % 4) + 4) % 4 {
        // Turned once, a pixel (x, y) went to (height - 1 - y, x): a box at (bx, by) came from
        // x = by, y = height - bx - boxWidth.
        case 1: PixelBox(x: y, y: height - x - self.width, width: self.height, height: self.width)
        case 2: PixelBox(x: width - x - self.width, y: height - y - self.height, width: self.width, height: self.height)
        case 3: PixelBox(x: width - y - self.height, y: x, width: self.height, height: self.width)
        default: self
        }
    }
}
