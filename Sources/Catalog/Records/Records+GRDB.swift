import Foundation
import GRDB

extension Capture: SnakeCaseRecord, PersistableRecord {
    /// The `capture` table.
    public static let databaseTableName = "capture"

    /// The columns the catalogue's queries filter and sort on.
    enum QueryColumns {
        static let id = Column("id")
        static let setName = Column("set_name")
        static let barcode = Column("barcode")
        static let gtin13 = Column("gtin13")
        static let capturedUTC = Column("captured_utc")
        static let rating = Column("rating")
        static let agentId = Column("agent_id")
        static let contextPath = Column("context_path")
    }
}

extension Agent: SnakeCaseRecord, PersistableRecord {
    /// The `agent` table.
    public static let databaseTableName = "agent"
}

extension Photo: SnakeCaseRecord, PersistableRecord {
    /// The `photo` table.
    public static let databaseTableName = "photo"

    /// The columns the catalogue's queries filter and sort on.
    enum QueryColumns {
        static let captureId = Column("capture_id")
        static let position = Column("position")
        static let sha256 = Column("sha256")
    }
}

extension BarcodeHit: SnakeCaseRecord, MutablePersistableRecord {
    /// The `barcode_hit` table.
    public static let databaseTableName = "barcode_hit"

    /// The columns the catalogue's queries filter and sort on.
    enum QueryColumns {
        static let id = Column("id")
        static let photoId = Column("photo_id")
    }

    /// Takes the id SQLite assigned.
    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension Run: SnakeCaseRecord, MutablePersistableRecord {
    /// The `run` table.
    public static let databaseTableName = "run"

    /// Takes the id SQLite assigned.
    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension Product: SnakeCaseRecord, PersistableRecord {
    /// The `product` table.
    public static let databaseTableName = "product"
}
