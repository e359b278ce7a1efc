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

    /// The mean of the (2·radius+1)² square around each pixel (clamped at the edges): two passes
    /// of running sums, rows then columns.
    private func boxBlurred(radius: Int) -> [UInt8] {
        var rows = [UInt8](repeating: 0, count: pixels.count)
        var out = [UInt8](repeating: 0, count: pixels.count)
        Self.runningMean(pixels, into: &rows, count: width, lines: height, step: 1, lineStep: width, radius: radius)
        Self.runningMean(rows, into: &out, count: height, lines: width, step: width, lineStep: 1, radius: radius)
        return out
    }

    private static func runningMean(_ source: [UInt8], into target: inout [UInt8], count: Int, lines: Int,
                                    step: Int, lineStep: Int, radius: Int) {
        let window = 2 * radius + 1
        for line in 0..<lines {
            let base = line * lineStep
            let at = { (i: Int) in Int(source[base + min(max(i, 0), count - 1) * step]) }
            var sum = (-radius...radius).reduce(0) { $0 + at($1) }
            for i in 0..<count {
                target[base + i * step] = UInt8(sum / window)
                sum += at(i + radius + 1) - at(i - radius)
            }
        }
    }
}
