/// Evidence across the photos of one set: a linear code that the second look read only once on a
/// photo counts when another photo of the set reads it too. People photograph the barcode more
/// than once, and two photos agree more independently than two prepared copies of one photo do.
enum SetEvidence {
    /// `photos` with each unconfirmed code that another photo also read moved to its barcodes;
    /// the unconfirmed codes left are dropped.
    static func confirmed(_ photos: [AnalysedPhoto]) -> [AnalysedPhoto] {
        var readBy: [String: Set<Int>] = [:]
        for (index, photo) in photos.enumerated() {
            for reading in photo.barcodes + photo.unconfirmedBarcodes {
                readBy[reading.productKey, default: []].insert(index)
            }
        }
        return photos.map { photo in
            var photo = photo
            let agreed = photo.unconfirmedBarcodes.filter { readBy[$0.productKey, default: []].count >= 2 }
            if !agreed.isEmpty { photo.barcodes = PhotoAnalyzer.deduplicated(photo.barcodes + agreed) }
            photo.unconfirmedBarcodes = []
            return photo
        }
    }
}
