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
