import Imaging
import Vocabulary

/// The quiet zone test of a retail code's read: a UPC or EAN symbol has light space beside its
/// outer guard bars, so a read with bars continuing right beside one of its ends decoded a part of
/// a larger code. ZBar does not test for it: on the real photos of ../shared/realphotos, 5 of its 9
/// wrong reads were an EAN-13 decoded from the right half of a blurred UPC-A and the text next to
/// it (a box half as wide as the code), and the UPC-E hidden in a UPC-A is the same thing.
enum QuietZone {
    /// Modules from the first bar to the last.
    static func modules(of symbology: Symbology) -> Int? {
        switch symbology {
        case .ean13, .upcA: 95
        case .ean8: 67
        case .upcE: 51
        case .code128, .code93, .qr: nil
        }
    }

    /// How far beside an end the test looks, in modules: from past the blur of the outer bar's
    /// edge (`AcceptanceRules.quietZoneNearest`, fitted) to within the narrowest quiet zone the
    /// standard allows (seven modules, UPC-E's and EAN-8's). Counting dark runs there instead, to
    /// let a logo printed too close pass, missed the partial reads of blurred codes, whose bars merge.
    static let farthest = 6.0

    /// What a read `isPartial` drops is, for the trace.
    static func rule(_ rules: AcceptanceRules) -> String {
        let judged = rules.quietZoneExemptLines.map { " of a read by under \($0) scan lines" } ?? ""
        return "bars continue beside an end\(judged): a part of a larger code (no quiet zone)"
    }

    /// True when dark bars lie just beyond an end of `reading` along `rules.quietZoneLines` of
    /// three scan lines in `image` (the coordinates `reading.box` is in): dark, and changing from
    /// dark to light at least `rules.quietZoneCrossings` times (bars and spaces, not a dark field
    /// or a finger). A read whose ends lie outside the image passes: a photo cropped at the code's
    /// edge has no quiet zone to test.
    ///
    /// So does a read by `rules.quietZoneExemptLines` lines or more, when the fit sets that. The
    /// test measures from ZBar's box, and ZBar's box of an EAN or UPC spans only where its lines
    /// finished decoding: where a line decoded one half and an earlier line the other, that is the
    /// centre guard, and the code's own other half lies beside the box. On the development photos
    /// the test dropped right reads by 23 to 232 lines so (a curved real label, generated crops);
    /// the parts of larger codes it exists for were each read by at most 11. (Tied to
    /// `confirmedLines`, the exemption made that threshold's looser value pay: the fit without
    /// upca-4 took it, and misread two of its photos.)
    static func isPartial(_ reading: BarcodeReading, in image: GreyImage, rules: AcceptanceRules) -> Bool {
        guard reading.quality < rules.quietZoneExemptLines ?? .max,
              let modules = modules(of: reading.symbology) else { return false }
        let box = reading.box
        let horizontal = box.width >= box.height
        let length = horizontal ? box.width : box.height
        let module = Double(length) / Double(modules)
        guard module >= 0.5 else { return false }
        // Three scan lines across the read: its middle and a quarter in from either side.
        let across = horizontal ? (box.y, box.height) : (box.x, box.width)
        let lines = [across.0 + across.1 / 4, across.0 + across.1 / 2, across.0 + 3 * across.1 / 4]
        let start = horizontal ? box.x : box.y
        let partialLines = lines.filter { line in
            let pixel = { (along: Int) -> Int? in
                let (x, y) = horizontal ? (along, line) : (line, along)
                guard x >= 0, x < image.width, y >= 0, y < image.height else { return nil }
                return Int(image.pixels[y * image.width + x])
            }
            let inside = (start..<(start + length)).compactMap(pixel)
            guard let dark = inside.min(), let light = inside.max(), light - dark >= 32 else { return false }
            let threshold = (dark + light) / 2
            let near = Int((rules.quietZoneNearest * module).rounded(.up)), far = Int((farthest * module).rounded(.up))
            let before = (start - far)...(start - near), after = (start + length - 1 + near)...(start + length - 1 + far)
            return [before, after].contains { side in
                let dark = side.compactMap(pixel).map { $0 < threshold }
                let crossings = zip(dark, dark.dropFirst()).filter { $0 != $1 }.count
                return dark.contains(true) && crossings >= rules.quietZoneCrossings
            }
        }
        return partialLines.count >= rules.quietZoneLines
    }
}
