/// A rectangle in pixel coordinates.
package struct PixelBox: Equatable, Sendable, Codable, CustomStringConvertible {
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The smallest box around points (x, y) of `xs` and `ys` (a point's width and height 0); the
    /// empty box at 0,0 for none.
    package init(around xs: [Int], _ ys: [Int]) {
        let (left, top) = (xs.min() ?? 0, ys.min() ?? 0)
        self.init(x: left, y: top, width: (xs.max() ?? 0) - left, height: (ys.max() ?? 0) - top)
    }

    /// `x,y width×height`, as the trace of a photo's reading shows boxes.
    package var description: String { "\(x),\(y) \(width)×\(height)" }

    /// The box in the coordinates of an image `factor` times larger.
    package func scaled(by factor: Int) -> PixelBox {
        PixelBox(x: x * factor, y: y * factor, width: width * factor, height: height * factor)
    }

    /// The box in the coordinates of an image `factor` times smaller (a read's box in an overview
    /// shrunk by `factor`), at least a pixel each way.
    package func shrunk(by factor: Int) -> PixelBox {
        PixelBox(x: x / factor, y: y / factor, width: max(1, width / factor), height: max(1, height / factor))
    }
}

extension PixelBox {
    /// True when at least 80 % of `other` lies inside this box: the same region found again.
    package func covers(_ other: PixelBox) -> Bool {
        let overlap = overlapArea(with: other)
        return overlap > 0 && overlap * 5 >= other.width * other.height * 4
    }

    /// True when the two boxes share at least half of the smaller one: a word read twice.
    package func sharesHalf(with other: PixelBox) -> Bool {
        let overlap = overlapArea(with: other)
        return overlap > 0 && overlap * 2 >= min(width * height, other.width * other.height)
    }

    /// The pixels this box and `other` have in common.
    private func overlapArea(with other: PixelBox) -> Int {
        let overlapWidth = min(x + width, other.x + other.width) - max(x, other.x)
        let overlapHeight = min(y + height, other.y + other.height) - max(y, other.y)
        return overlapWidth > 0 && overlapHeight > 0 ? overlapWidth * overlapHeight : 0
    }

    /// The box in the coordinates of `frame`, a rectangle of the same image (a crop of it): moved by
    /// the frame's corner and cut to the frame.
    package func relative(to frame: PixelBox) -> PixelBox {
        PixelBox(x: x - frame.x, y: y - frame.y, width: width, height: height).clamped(width: frame.width, height: frame.height)
    }

    /// The box, given in the coordinates of `frame` (a crop of the image), in the image's own.
    package func placed(in frame: PixelBox) -> PixelBox {
        PixelBox(x: x + frame.x, y: y + frame.y, width: width, height: height)
    }

    /// The box grown by `margin` pixels on every side (not cut to any image).
    package func grown(by margin: Int) -> PixelBox {
        PixelBox(x: x - margin, y: y - margin, width: width + 2 * margin, height: height + 2 * margin)
    }

    /// The smallest box holding this one and `other`.
    package func union(_ other: PixelBox) -> PixelBox {
        let left = min(x, other.x), top = min(y, other.y)
        let right = max(x + width, other.x + other.width), bottom = max(y + height, other.y + other.height)
        return PixelBox(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The part of the box inside a `width` × `height` image.
    package func clamped(width: Int, height: Int) -> PixelBox {
        let x0 = min(max(0, x), width), y0 = min(max(0, y), height)
        let x1 = min(max(x0, x + self.width), width), y1 = min(max(y0, y + self.height), height)
        return PixelBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
