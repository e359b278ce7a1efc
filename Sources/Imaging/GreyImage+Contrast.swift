extension GreyImage {
    /// The image with its edges steepened (unsharp masking: each pixel pushed away from the mean of
    /// the (2·radius+1)² square around it by 1.5 times the difference), against the blur that merges
    /// a code's narrow bars and spaces.
    package func sharpened(radius: Int = 2) -> GreyImage {
        let blurred = boxBlurred(radius: radius)
        var out = [UInt8](repeating: 0, count: pixels.count)
        for index in pixels.indices {
            let pixel = Int(pixels[index])
            out[index] = UInt8(clamping: pixel + (pixel - Int(blurred[index])) * 3 / 2)
        }
        return GreyImage(width: width, height: height, pixels: out)
    }

    /// The image with its levels stretched so the darkest and lightest 1 % become black and white:
    /// a code printed in low contrast, or photographed under glare, spans the whole range then.
    package func stretched() -> GreyImage {
        var histogram = [Int](repeating: 0, count: 256)
        for value in pixels { histogram[Int(value)] += 1 }
        let cut = pixels.count / 100
        var seen = 0, low = 0, high = 255
        for value in 0..<256 {
            seen += histogram[value]
            if seen > cut { low = value; break }
        }
        seen = 0
        for value in (0..<256).reversed() {
            seen += histogram[value]
            if seen > cut { high = value; break }
        }
        guard high > low else { return self }
        let table = (0..<256).map { UInt8(clamping: (($0 - low) * 255) / (high - low)) }
        return GreyImage(width: width, height: height, pixels: pixels.map { table[Int($0)] })
    }

    /// The mean of the (2·radius+1)² square around each pixel (clamped at the edges): running sums
    /// along each row, then down the columns, a row at a time (the column sums of a whole row are
    /// updated together, in memory order).
    private func boxBlurred(radius: Int) -> [UInt8] {
        let window = 2 * radius + 1
        var rows = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { source in
            rows.withUnsafeMutableBufferPointer { target in
                for line in 0..<height {
                    let base = line * width
                    let at = { (i: Int) in Int(source[base + min(max(i, 0), width - 1)]) }
                    var sum = (-radius...radius).reduce(0) { $0 + at($1) }
                    for i in 0..<width {
                        target[base + i] = UInt8(sum / window)
                        sum += at(i + radius + 1) - at(i - radius)
                    }
                }
            }
        }
        var out = [UInt8](repeating: 0, count: pixels.count)
        var sums = [Int](repeating: 0, count: width)
        rows.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                sums.withUnsafeMutableBufferPointer { sums in
                    let row = { (y: Int) in min(max(y, 0), height - 1) * width }
                    for y in -radius...radius {
                        let start = row(y)
                        for x in 0..<width { sums[x] += Int(source[start + x]) }
                    }
                    for y in 0..<height {
                        let base = y * width, entering = row(y + radius + 1), leaving = row(y - radius)
                        for x in 0..<width {
                            target[base + x] = UInt8(sums[x] / window)
                            sums[x] += Int(source[entering + x]) - Int(source[leaving + x])
                        }
                    }
                }
            }
        }
        return out
    }
}
