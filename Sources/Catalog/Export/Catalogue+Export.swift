/// What the CSV export shows of one capture, read straight from a row.
struct ExportedCapture {
    var id: String
    var setName: String
    var barcode: String?
    var symbology: String?
    var gtin13: String?
    var addon: String?
    var capturedAt: String
    var timeSource: String
    var photoCount: Int
    var rating: String
    var quality: Double
    var agentId: String?
    var agentName: String?
    var requestId: String?
    var note: String?
    /// The product of the capture's barcode (nil: none), and its source (`off`, `manual`).
    var productName: String?
    var brands: String?
    var quantity: String?
    var energyKcal: Double?
    var nutriscoreGrade: String?
    var productSource: String?
    /// Whether the catalogue has a product for the capture's barcode.
    var hasProduct = false
    /// The photos' original names, original paths and thumbnail paths, in position order.
    var originalNames: [String] = []
    var originalPaths: [String] = []
    var thumbPaths: [String] = []
    /// The headline of its first photo that has one and is not a nutrition table.
    var nameFromPackage: String?
}

extension Catalogue {
    /// Calls `body` with each capture taken at or after `since` (nil: all), its photos in position
    /// order, ordered by set name, capture time, then id: one cursor over captures joined with their
    /// photos, in the order of the index `capture_on_set_name_captured_utc_id` (no sort), and each
    /// with its product (one probe of the product's key) and its photos' text (one probe each), columns read by position (no decoding by
    /// name), one capture in memory at a time.
    func exportRows(since: Double?, _ body: (ExportedCapture) throws -> Void) throws {
        try read { db in
            var current: ExportedCapture?
            try db.query("""
                SELECT capture.id, capture.set_name, capture.barcode, capture.symbology, capture.gtin13,
                       capture.captured_at, capture.time_source, capture.photo_count, capture.rating, capture.quality,
                       capture.agent_id, capture.agent_name, capture.request_id, capture.note,
                       photo.original_name, photo.original_path, photo.thumb_path,
                       product.gtin14, product.name, product.brands, product.quantity, product.energy_kcal,
                       product.nutriscore_grade, product.source, capture.addon,
                       photo_text.headline, photo_text.nutrition IS NULL
                FROM capture LEFT JOIN photo ON photo.capture_id = capture.id
                LEFT JOIN photo_text ON photo_text.photo_id = photo.id
                LEFT JOIN product ON product.gtin14 = '0' || capture.gtin13
                \(since == nil ? "" : "WHERE capture.captured_utc >= ?")
                ORDER BY capture.set_name, capture.captured_utc, capture.id, photo.position
                """, since.map { [$0.sqlValue] } ?? []) { row in
                let id: String = row[0]
                if current?.id != id {
                    if let current { try body(current) }
                    current = ExportedCapture(
                        id: id, setName: row[1], barcode: row[2], symbology: row[3], gtin13: row[4], capturedAt: row[5],
                        timeSource: row[6], photoCount: row[7], rating: row[8], quality: row[9], agentId: row[10],
                        agentName: row[11], requestId: row[12], note: row[13], productName: row[18], brands: row[19],
                        quantity: row[20], energyKcal: row[21], nutriscoreGrade: row[22], productSource: row[23],
                        hasProduct: !row.isNull(at: 17))
                    current?.addon = row[24]
                }
                if let name: String = row[14] {
                    current?.originalNames.append(name)
                    current?.originalPaths.append(row[15])
                    current?.thumbPaths.append(row[16])
                }
                if current?.nameFromPackage == nil, let headline: String = row[25], row[26] as Bool? ?? false {
                    current?.nameFromPackage = headline
                }
            }
            if let current { try body(current) }
        }
    }
}
