/// What one photo's barcodes are.
struct PhotoBarcodes: Equatable {
    /// The codes that count.
    var confirmed: [BarcodeReading]
    /// Linear codes read once by the second look (and nothing confirmed on the photo).
    var unconfirmed: [BarcodeReading] = []
}
