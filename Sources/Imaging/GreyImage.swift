internal import CImageOps

/// An 8-bit single-band picture in memory, rows top to bottom.
package struct GreyImage: Sendable {
    package var width: Int
    package var height: Int
    package var pixels: [UInt8]

    package init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height)
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}

extension GreyImage {
    /// The image shrunk so its long edge is at most `edge` pixels, by area averaging. Throws when
    /// the working memory cannot be had.
    package func shrunk(toLongEdge edge: Int) throws(ImageError) -> GreyImage {
        let long = max(width, height)
        guard long > edge else { return self }
        let newWidth = max(1, Int((Double(width) * Double(edge) / Double(long)).rounded()))
        let newHeight = max(1, Int((Double(height) * Double(edge) / Double(long)).rounded()))
        let shrunk = pixels.withUnsafeBytes { bytes in
            Result { () throws(ImageError) in
                try PixelData(width: width, height: height, bands: 1, bytes: bytes).shrunk(toWidth: newWidth, height: newHeight)
            }
        }
        return GreyImage(width: newWidth, height: newHeight, pixels: try shrunk.get())
    }

    /// The pixels inside `box` (which must lie within the image).
    package func cropped(to box: PixelBox) -> GreyImage {
        var copy = [UInt8]()
        copy.reserveCapacity(box.width * box.height)
        for row in box.y..<(box.y + box.height) {
            let start = row * width + box.x
            copy += pixels[start..<(start + box.width)]
        }
        return GreyImage(width: box.width, height: box.height, pixels: copy)
    }

    /// Where the mean of `box` lies between its dark end (5th percentile) and its light end (95th):
    /// about 0.5 for a region half ink, near 1 for a light background with a few dark marks. 1 when
    /// the two ends are equal: less than a tenth of the region differs from the rest, far from half.
    package func lightness(of box: PixelBox) -> Double {
        let box = box.clamped(width: width, height: height)
        var histogram = [Int](repeating: 0, count: 256)
        var sum = 0
        pixels.withUnsafeBufferPointer { p in
            for row in box.y..<(box.y + box.height) {
                for index in (row * width + box.x)..<(row * width + box.x + box.width) {
                    histogram[Int(p[index])] += 1
                    sum += Int(p[index])
                }
            }
        }
        let count = box.width * box.height
        guard count > 0 else { return 1 }
        func percentile(_ fraction: Double) -> Double {
            let target = Int(Double(count) * fraction)
            var seen = 0
            for (value, n) in histogram.enumerated() {
                seen += n
                if seen > target { return Double(value) }
            }
            return 255
        }
        let dark = percentile(0.05), light = percentile(0.95)
        guard light > dark else { return 1 }
        return (Double(sum) / Double(count) - dark) / (light - dark)
    }

    /// The pixels of `box` turned by `angle` degrees (libvips' sense: a gradient at angle θ from +x
    /// turns horizontal by −θ) and scaled by `scale` with bilinear interpolation (codes read as well
    /// as from libvips' bicubic, measured on the hard set); white outside the box. With `smoothRows` > 1 each row is then averaged with its neighbours, along upright bars.
    package func region(_ box: PixelBox, angle: Double, scale: Double, smoothRows: Int) throws(ImageError) -> GreyImage {
        let box = box.clamped(width: width, height: height)
        var outWidth: Int32 = 0, outHeight: Int32 = 0
        ingest_region_size(Int32(box.width), Int32(box.height), angle, scale, &outWidth, &outHeight)
        guard box.width > 0, box.height > 0, outWidth > 0, outHeight > 0 else {
            throw ImageError.undecodable("cannot cut out an empty region")
        }
        // The sampler's own bound (CImageOps), checked before the copy's memory is taken.
        guard Int(outWidth) * Int(outHeight) <= 1 << 28 else {
            throw ImageError.undecodable("cannot cut out a region of \(outWidth)×\(outHeight) pixels: too large")
        }
        var out = [UInt8](repeating: 0, count: Int(outWidth) * Int(outHeight))
        let status = pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                ingest_sample_region(source.baseAddress, Int32(width), Int32(height), Int32(box.x), Int32(box.y),
                                     Int32(box.width), Int32(box.height), angle, scale, Int32(smoothRows),
                                     target.baseAddress, outWidth, outHeight)
            }
        }
        guard status == 0 else { throw ImageError.undecodable("cannot cut out a region of \(box.width)×\(box.height) pixels") }
        return GreyImage(width: Int(outWidth), height: Int(outHeight), pixels: out)
    }

    /// The image with each row averaged with its neighbours, `rows` in all: `region`'s smoothing
    /// (`region(box, …, smoothRows: n)` is `region(box, …, smoothRows: 1).smoothed(rows: n)`, pixel
    /// for pixel), so one sampled region serves several smoothings.
    package func smoothed(rows: Int) throws(ImageError) -> GreyImage {
        guard rows > 1 else { return self }
        var out = pixels
        let status = out.withUnsafeMutableBufferPointer { ingest_smooth_rows($0.baseAddress, Int32(width), Int32(height), Int32(rows)) }
        guard status == 0 else { throw ImageError.undecodable("cannot smooth a region of \(width)×\(height) pixels") }
        return GreyImage(width: width, height: height, pixels: out)
    }
}

extension GreyImage {
    /// The image inside a border `margin` pixels wide of `value`: the quiet zone a reader needs
    /// beside a code's first and last bars, which a photo cropped close to the code lacks.
    package func padded(by margin: Int, value: UInt8 = 255) -> GreyImage {
        let paddedWidth = width + 2 * margin
        var copy = [UInt8](repeating: value, count: paddedWidth * (height + 2 * margin))
        for row in 0..<height {
            let target = (row + margin) * paddedWidth + margin
            copy[target..<(target + width)] = pixels[(row * width)..<((row + 1) * width)]
        }
        return GreyImage(width: paddedWidth, height: height + 2 * margin, pixels: copy)
    }

    /// Dark and light swapped: codes printed light on dark read like any other.
    package func inverted() -> GreyImage {
        GreyImage(width: width, height: height, pixels: pixels.map { 255 - $0 })
    }
}
