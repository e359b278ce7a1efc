import GRDB

/// What the CSV export shows of one capture, read straight from a row.
struct ExportedCapture {
    var id: String
    var setName: String
    var barcode: String?
    var symbology: String?
    var gtin13: String?
    var capturedAt: String
    var timeSource: String
    var photoCount: Int
    var rating: String
    var quality: Double
    var agentId: String?
    var agentName: String?
    var requestId: String?
    var note: String?
    /// The photos' original names, original paths and thumbnail paths, in position order.
    var originalNames: [String] = []
    var originalPaths: [String] = []
    var thumbPaths: [String] = []
}

extension Catalogue {
    /// Calls `body` with each capture taken at or after `since` (nil: all), its photos in position
    /// order, ordered by set name, capture time, then id: one cursor over captures joined with their
    /// photos, in the order of the index `capture_on_set_name_captured_utc_id` (no sort), columns
    /// read by position (no decoding by name), one capture in memory at a time.
    func exportRows(since: Double?, _ body: (ExportedCapture) throws -> Void) throws {
        try read { db in
            let statement = try db.makeStatement(sql: """
                SELECT capture.id, capture.set_name, capture.barcode, capture.symbology, capture.gtin13,
                       capture.captured_at, capture.time_source, capture.photo_count, capture.rating, capture.quality,
                       capture.agent_id, capture.agent_name, capture.request_id, capture.note,
                       photo.original_name, photo.original_path, photo.thumb_path
                FROM capture LEFT JOIN photo ON photo.capture_id = capture.id
                \(since == nil ? "" : "WHERE capture.captured_utc >= ?")
                ORDER BY capture.set_name, capture.captured_utc, capture.id, photo.position
                """)
            let rows = try Row.fetchCursor(statement, arguments: since.map { [$0] } ?? [])
            var current: ExportedCapture?
            while let row = try rows.next() {
                let id: String = row[0]
                if current?.id != id {
                    if let current { try body(current) }
                    current = ExportedCapture(
                        id: id, setName: row[1], barcode: row[2], symbology: row[3], gtin13: row[4], capturedAt: row[5],
                        timeSource: row[6], photoCount: row[7], rating: row[8], quality: row[9], agentId: row[10],
                        agentName: row[11], requestId: row[12], note: row[13])
                }
                if let name: String = row[14] {
                    current?.originalNames.append(name)
                    current?.originalPaths.append(row[15])
                    current?.thumbPaths.append(row[16])
                }
            }
            if let current { try body(current) }
        }
    }
}
