import GRDB

/// The columns of a photo the CSV export shows.
struct ExportedPhoto {
    var originalName: String
    var originalPath: String
    var thumbPath: String
}

extension Catalogue {
    /// Calls `body` with each capture taken at or after `since` (nil: all) and its photos in position
    /// order, ordered by set name, capture time, then id. One cursor over captures joined with their
    /// photos, in the order of the index `capture_on_set_name_captured_utc_id`: no sort, and only one
    /// capture's photos in memory at a time.
    func exportRows(since: Double?, _ body: (Capture, [ExportedPhoto]) throws -> Void) throws {
        try read { db in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT capture.*, photo.original_name AS export_original_name,
                       photo.original_path AS export_original_path, photo.thumb_path AS export_thumb_path
                FROM capture LEFT JOIN photo ON photo.capture_id = capture.id
                \(since == nil ? "" : "WHERE capture.captured_utc >= ?")
                ORDER BY capture.set_name, capture.captured_utc, capture.id, photo.position
                """, arguments: since.map { [$0] } ?? [])
            var current: (capture: Capture, photos: [ExportedPhoto])?
            while let row = try rows.next() {
                let id: String = row["id"]
                if current?.capture.id != id {
                    if let current { try body(current.capture, current.photos) }
                    current = (try Capture(row: row), [])
                }
                if let name: String = row["export_original_name"] {
                    current?.photos.append(ExportedPhoto(originalName: name, originalPath: row["export_original_path"],
                                                         thumbPath: row["export_thumb_path"]))
                }
            }
            if let current { try body(current.capture, current.photos) }
        }
    }
}
