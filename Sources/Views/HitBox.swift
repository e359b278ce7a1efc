package import Catalog

/// Where a barcode hit lies on a photo's upright thumbnail. Hits are stored in the photo's stored
/// (not yet turned) full-resolution pixels; the thumbnail is upright, so the box is turned as the
/// EXIF orientation turns the photo, then scaled to the thumbnail.
package struct HitBox: Hashable, Sendable {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double

    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The box of `hit` on `photo`'s thumbnail, in thumbnail pixels.
    package init(_ hit: BarcodeHit, on photo: Photo) {
        let upright = Self.upright(x: Double(hit.x), y: Double(hit.y), width: Double(hit.width), height: Double(hit.height),
                                   orientation: photo.orientation, uprightWidth: Double(photo.width),
                                   uprightHeight: Double(photo.height))
        let scaleX = Double(photo.thumbWidth) / Double(photo.width)
        let scaleY = Double(photo.thumbHeight) / Double(photo.height)
        self.init(x: upright.x * scaleX, y: upright.y * scaleY, width: upright.width * scaleX, height: upright.height * scaleY)
    }

    /// A box in stored pixels turned upright by EXIF `orientation` (1…8; anything else counts as 1),
    /// for a photo whose upright size is given: orientations 5–8 swap the stored sides.
    static func upright(x: Double, y: Double, width: Double, height: Double, orientation: Int,
                        uprightWidth: Double, uprightHeight: Double) -> HitBox {
        // The stored image's size: 5–8 are turned a quarter, so its sides are the upright ones swapped.
        let (storedWidth, storedHeight) = (5 ... 8).contains(orientation)
            ? (uprightHeight, uprightWidth) : (uprightWidth, uprightHeight)
        switch orientation {
        case 2: return HitBox(x: storedWidth - x - width, y: y, width: width, height: height)
        case 3: return HitBox(x: storedWidth - x - width, y: storedHeight - y - height, width: width, height: height)
        case 4: return HitBox(x: x, y: storedHeight - y - height, width: width, height: height)
        case 5: return HitBox(x: y, y: x, width: height, height: width)
        case 6: return HitBox(x: storedHeight - y - height, y: x, width: height, height: width)
        case 7: return HitBox(x: storedHeight - y - height, y: storedWidth - x - width, width: height, height: width)
        case 8: return HitBox(x: y, y: storedWidth - x - width, width: height, height: width)
        default: return HitBox(x: x, y: y, width: width, height: height)
        }
    }
}
