import Foundation
import GRDB

extension Catalogue {
    /// Records the size of a photo's new thumbnail (pixels); throws `CatalogError.unknownPhoto` when the photo is gone.
    public func recordThumbnail(photoId: String, width: Int, height: Int) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE photo SET thumb_width = ?, thumb_height = ? WHERE id = ?",
                           arguments: [width, height, photoId])
            if db.changesCount == 0 { throw CatalogError.unknownPhoto(path: path, photoId: photoId) }
        }
    }
}
