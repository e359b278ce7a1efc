import Foundation
import Vocabulary

/// Splits a set's photos into product captures.
///
/// Photos are ordered by capture time, ties by name (`isNamed(_:before:)`; a photo without EXIF time
/// goes by name among the others where the set's file times no longer record when its photos were
/// taken: `timeOrdered`). A new capture starts where the gap to the previous photo exceeds
/// `gapSeconds`, or where a photo's codes share none with the codes every earlier photo of the
/// capture with a code read: a second code on a photo (a shelf label beside the product's code, a
/// QR code on the package) neither splits the capture nor becomes its key, but a photo that reads
/// only another code does split it. A capture has at most one barcode, its key (`key(of:among:)`);
/// the photos' other codes stay on them as hits. A capture without a barcode is valid.
/// In `.folder` mode the whole set is one capture.
package struct CaptureGrouper: Sendable {
    package var gapSeconds: Double
    package var mode: PipelineConfig.Grouping

    package init(gapSeconds: Double, mode: PipelineConfig.Grouping) {
        self.gapSeconds = gapSeconds
        self.mode = mode
    }

    /// The set's captures in time order.
    package func group<Item: Groupable>(_ photos: [Item]) -> [PhotoGroup<Item>] {
        let ordered = timeOrdered(photos)
        guard mode == .time else {
            return ordered.isEmpty ? [] : [PhotoGroup(photos: ordered.map(\.item), barcode: Self.key(of: ordered.map(\.item), among: nil))]
        }
        // Each capture so far with the codes every one of its photos with a code read (nil: none read one yet).
        var groups: [(photos: [Item], shared: Set<String>?)] = []
        var previous: Double?
        for (item, instant) in ordered {
            let codes = Set(item.barcodes.map(\.productKey))
            defer { previous = instant }
            if let previous, instant - previous <= gapSeconds, let current = groups.last {
                let shared = codes.isEmpty ? current.shared : current.shared.map { $0.intersection(codes) } ?? codes
                if shared?.isEmpty != true {
                    groups[groups.count - 1] = (current.photos + [item], shared)
                    continue
                }
            }
            groups.append(([item], codes.isEmpty ? nil : codes))
        }
        return groups.map { PhotoGroup(photos: $0.photos, barcode: Self.key(of: $0.photos, among: $0.shared)) }
    }

    /// The capture's key among `candidates` (product keys; nil: every code its photos read): a retail
    /// code before any other (a QR code on the package), then the code read on most photos, then one
    /// that names a trade item (a book's ISBN before its price code, `GTIN.namesTradeItem`), then the
    /// first read in time order (each photo's codes ranked as `PhotoAnalyzer.deduplicated` ranks
    /// them). The reading is that code's first in time order.
    static func key<Item: Groupable>(of photos: [Item], among candidates: Set<String>?) -> BarcodeReading? {
        let readings = photos.flatMap(\.barcodes).filter { candidates?.contains($0.productKey) ?? true }
        var photoCount: [String: Int] = [:]
        for photo in photos {
            for key in Set(photo.barcodes.map(\.productKey)) { photoCount[key, default: 0] += 1 }
        }
        return readings.enumerated().min { a, b in
            let (x, y) = (a.element, b.element)
            if x.symbology.isRetail != y.symbology.isRetail { return x.symbology.isRetail }
            if photoCount[x.productKey] != photoCount[y.productKey] { return photoCount[x.productKey]! > photoCount[y.productKey]! }
            if x.namesTradeItem != y.namesTradeItem { return x.namesTradeItem }
            return a.offset < b.offset
        }?.element
    }

    /// Photos with the instant used to order them. A photo whose EXIF time has no offset borrows the
    /// offset most photos of the set carry (the same phone took them), so mixed sets still order right.
    ///
    /// A photo without EXIF time has only its file's modification time, which records when it was
    /// taken only while nothing has rewritten the files since. The set's photos with EXIF time show
    /// whether that holds: each one's file time within `gapSeconds` of its EXIF time. Where one's is
    /// not (the set was copied without its times, uploaded, or edited), file times say nothing of
    /// when the photos were taken, and a photo without EXIF time takes its place by name among the
    /// others, as cameras number them: it borrows the instant of the photo with EXIF time named just
    /// before it (or, with none, just after), so it joins that photo's capture unless its barcode
    /// differs, and no gap is measured from its file time.
    func timeOrdered<Item: Groupable>(_ photos: [Item]) -> [(item: Item, instant: Double)] {
        var tally: [Int: Int] = [:]
        for photo in photos where photo.time.source == .exif {
            tally[photo.time.offsetSeconds ?? 0, default: 0] += 1
        }
        let usual = tally.max { $0.value == $1.value ? $0.key > $1.key : $0.value < $1.value }?.key ?? 0
        let timed = photos.map { photo in
            (item: photo, instant: photo.time.source == .exifWithoutOffset ? photo.time.utc - Double(usual) : photo.time.utc)
        }
        let camera = timed.filter { $0.item.time.source != .fileTime }
            .sorted { Self.isNamed($0.item.groupingName, before: $1.item.groupingName) }
        let fileTimesHold = camera.allSatisfy { abs($0.item.fileTime - $0.instant) <= gapSeconds }
        return timed
            .map { photo in
                guard photo.item.time.source == .fileTime, !fileTimesHold, let first = camera.first else { return photo }
                let before = camera.last { Self.isNamed($0.item.groupingName, before: photo.item.groupingName) }
                return (photo.item, (before ?? first).instant)
            }
            .sorted { $0.1 == $1.1 ? Self.isNamed($0.0.groupingName, before: $1.0.groupingName) : $0.1 < $1.1 }
    }

    /// Whether a photo named `name` comes before one named `other` as a file browser lists them and
    /// as cameras and uploads number them: by name without the extension, numbers by their value
    /// (`IMG_9` before `IMG_10`, `image` before `image (2)` before `image (10)`), then by the whole
    /// name, so that the order is total.
    static func isNamed(_ name: String, before other: String) -> Bool {
        switch stem(name).compare(stem(other), options: .numeric) {
        case .orderedAscending: true
        case .orderedDescending: false
        case .orderedSame: name < other
        }
    }

    private static func stem(_ path: String) -> Substring {
        let name = path.lastIndex(of: "/").map { path[path.index(after: $0)...] } ?? path[...]
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return path[...] }
        return path[..<dot]
    }
}
