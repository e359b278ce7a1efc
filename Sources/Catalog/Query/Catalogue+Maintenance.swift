import Foundation

extension Catalogue {
    /// Records the size of a photo's new thumbnail (pixels); throws `CatalogError.unknownPhoto` when the photo is gone.
    package func recordThumbnail(photoId: String, width: Int, height: Int) throws {
        let changed = try write { db in
            try db.execute("UPDATE photo SET thumb_width = ?, thumb_height = ? WHERE id = ?",
                           [width.sqlValue, height.sqlValue, photoId.sqlValue])
        }
        if changed == 0 { throw CatalogError.unknownPhoto(path: path, photoId: photoId) }
    }

    /// Asks the catalogue the simplest question: throws when it cannot answer (a PostgreSQL server
    /// down, a SQLite file gone unreadable).
    package func ping() throws {
        _ = try read { db in try db.scalar(Int.self, "SELECT 1") }
    }
}
