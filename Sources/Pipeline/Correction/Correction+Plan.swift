package import Catalog
import Vocabulary

extension Correction {
    /// What the correction makes of `found`: the snapshots of `captureIds`, in that order, each once,
    /// as they are now. `newCaptureId` names a capture a split makes. Pure: throws
    /// `CorrectionError` when the correction does not fit the captures.
    package func plan(_ found: [CaptureSnapshot], newCaptureId: () -> String) throws -> EditPlan {
        switch self {
        case .merge:
            return try Self.merge(found)
        case let .split(_, photo):
            return try Self.split(found[0], before: photo, newId: newCaptureId())
        case let .move(photo, from, to):
            guard from != to, found.count == 2 else { throw CorrectionError.moveToSameCapture }
            return try Self.move(photo, from: found[0], to: found[1])
        case let .setBarcode(_, code):
            return try Self.setBarcode(code, on: found[0])
        case .delete:
            let capture = found[0].capture
            return EditPlan(kind: .delete, summary: "deleted capture \(capture.id.prefix(8)) of set \(capture.setName) "
                + "(\(capture.photoCount) photos)", after: [])
        }
    }

    private static func merge(_ found: [CaptureSnapshot]) throws -> EditPlan {
        guard found.count >= 2 else { throw CorrectionError.mergeNeedsTwo }
        let coded = found.map(\.capture).filter { $0.barcode != nil }
        let codes = coded.map { $0.gtin13 ?? $0.barcode! }
        if let other = codes.first(where: { $0 != codes[0] }) { throw CorrectionError.differentBarcodes(codes[0], other) }
        var merged = found[0].capture
        if merged.barcode == nil, let source = coded.first {
            (merged.barcode, merged.symbology, merged.gtin13, merged.addon) =
                (source.barcode, source.symbology, source.gtin13, source.addon)
        }
        let result = CaptureSnapshot(capture: merged, photos: inTimeOrder(found.flatMap(\.photos)),
                                     hits: found.flatMap(\.hits)).recounted()
        return EditPlan(kind: .merge, summary: "merged \(found.count) captures into \(merged.id.prefix(8)) "
            + "(\(result.photos.count) photos)", after: [result])
    }

    private static func split(_ source: CaptureSnapshot, before photoId: String, newId: String) throws -> EditPlan {
        guard let index = source.photos.firstIndex(where: { $0.id == photoId }) else {
            throw CorrectionError.photoNotInCapture(photo: photoId, capture: source.capture.id)
        }
        guard index > 0 else { throw CorrectionError.splitAtFirstPhoto }
        var first = source.part(Array(source.photos[..<index]), id: source.capture.id)
        var second = source.part(Array(source.photos[index...]), id: newId)
        if source.capture.barcode != nil {
            // The part that read the capture's code keeps it; the other gets the code its own photos
            // agree on, if any. A code no photo read (set by hand) stays with the first part.
            if !first.readsCaptureCode && second.readsCaptureCode {
                first.capture.setCode(first.agreedCode)
            } else if !second.readsCaptureCode {
                second.capture.setCode(second.agreedCode)
            }
        }
        let name = source.photos[index].originalName
        return EditPlan(kind: .split, summary: "split \(source.capture.id.prefix(8)) before photo \(index + 1) (\(name)): "
            + "\(index) + \(source.photos.count - index) photos, new capture \(newId.prefix(8))",
            after: [first.recounted(), second.recounted()])
    }

    private static func move(_ photoId: String, from source: CaptureSnapshot, to target: CaptureSnapshot) throws -> EditPlan {
        guard let photo = source.photos.first(where: { $0.id == photoId }) else {
            throw CorrectionError.photoNotInCapture(photo: photoId, capture: source.capture.id)
        }
        let left = source.part(source.photos.filter { $0.id != photoId }, id: source.capture.id)
        let joined = CaptureSnapshot(capture: target.capture, photos: inTimeOrder(target.photos + [photo]),
                                     hits: target.hits + source.hits.filter { $0.photoId == photoId })
        let after = left.photos.isEmpty ? [joined.recounted()] : [left.recounted(), joined.recounted()]
        return EditPlan(kind: .move, summary: "moved photo \(photo.originalName) from \(source.capture.id.prefix(8)) "
            + "to \(target.capture.id.prefix(8))" + (left.photos.isEmpty ? ", which had no other photo" : ""), after: after)
    }

    private static func setBarcode(_ code: ManualBarcode?, on snapshot: CaptureSnapshot) throws -> EditPlan {
        var changed = snapshot
        changed.capture.setCode(code.map { ($0.text, $0.symbology, $0.gtin13) })
        guard changed.capture != snapshot.capture else { throw CorrectionError.barcodeUnchanged }
        let id = snapshot.capture.id.prefix(8)
        let summary = code.map { "set the barcode of \(id) to \($0.text) (\($0.symbology.rawValue))" }
            ?? "removed the barcode of \(id)"
        return EditPlan(kind: .setBarcode, summary: summary, after: [changed])
    }

    /// Photos ordered by capture time; photos taken at the same instant keep the order they came in.
    static func inTimeOrder(_ photos: [Photo]) -> [Photo] {
        photos.enumerated().sorted { ($0.element.takenUTC, $0.offset) < ($1.element.takenUTC, $1.offset) }.map(\.element)
    }
}
