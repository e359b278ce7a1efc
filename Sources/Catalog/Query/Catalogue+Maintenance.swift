import Foundation

/// What `Catalogue.deleteCapture(id:)` removed: the rows, and the library files nothing references any more.
public struct RemovedCapture: Sendable {
    public var capture: Capture
    /// The capture's photos; their originals and thumbnails are the caller's to remove.
    public var photos: [Photo]
    /// The capture's `capture.json` copy when no other capture shares it; nil otherwise.
    public var unusedContextPath: String?
}

extension Catalogue {
    /// Deletes one capture with its photos and barcode hits in one transaction; nil when no capture has `id`.
    ///
    /// Only rows are removed: the caller removes the files afterwards, so a crash in between leaves
    /// files no row references, which `ingest verify --repair` sets aside. The agent row stays.
    public func deleteCapture(id: String) throws -> RemovedCapture? {
        try write { db in
            guard let capture = try db.fetchOne(Capture.self, "SELECT * FROM capture WHERE id = ?", [id.sqlValue]) else {
                return nil
            }
            let photos = try db.fetchAll(Photo.self, "SELECT * FROM photo WHERE capture_id = ? ORDER BY position", [id.sqlValue])
            try db.execute("DELETE FROM capture WHERE id = ?", [id.sqlValue])
            var unusedContextPath: String?
            if let path = capture.contextPath,
               try db.scalar(Int.self, "SELECT count(*) FROM capture WHERE context_path = ?", [path.sqlValue]) == 0 {
                unusedContextPath = path
            }
            return RemovedCapture(capture: capture, photos: photos, unusedContextPath: unusedContextPath)
        }
    }

    /// Records the size of a photo's new thumbnail (pixels); throws `CatalogError.unknownPhoto` when the photo is gone.
    public func recordThumbnail(photoId: String, width: Int, height: Int) throws {
        let changed = try write { db in
            try db.execute("UPDATE photo SET thumb_width = ?, thumb_height = ? WHERE id = ?",
                           [width.sqlValue, height.sqlValue, photoId.sqlValue])
        }
        if changed == 0 { throw CatalogError.unknownPhoto(path: path, photoId: photoId) }
    }
}
