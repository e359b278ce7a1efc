package import Imaging

extension GreyImage {
    /// A `width` × `height` image whose pixel at (x, y) is `value(x, y)`.
    package init(width: Int, height: Int, drawing value: (_ x: Int, _ y: Int) -> UInt8) {
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height)
        for y in 0..<height {
            for x in 0..<width { pixels.append(value(x, y)) }
        }
        self.init(width: width, height: height, pixels: pixels)
    }
}

extension GreyImage {
    /// The image turned clockwise by `quarterTurns` right angles, pixel for pixel: as a phone
    /// stores a photo taken held another way round.
    package func turned(quarterTurns: Int) -> GreyImage {
        switch (quarterTurns % 4 + 4) % 4 {
        case 1: GreyImage(width: height, height: width) { x, y in pixels[(height - 1 - x) * width + y] }
        case 2: GreyImage(width: width, height: height) { x, y in pixels[(height - 1 - y) * width + (width - 1 - x)] }
        case 3: GreyImage(width: height, height: width) { x, y in pixels[x * width + (width - 1 - y)] }
        default: self
        }
    }
}
