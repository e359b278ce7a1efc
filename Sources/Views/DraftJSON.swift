package import Catalog
import Foundation
package import Pipeline
import Vocabulary

/// A draft of the capture flow as `GET /api/drafts/{id}` gives it, and as the capture page draws
/// it: its photos, the barcode read on them, the product that barcode names in the catalogue's
/// product data, and the capture that already holds it.
package struct DraftJSON: Encodable, Sendable {
    package var id: String
    /// ISO 8601 UTC.
    package var created: String
    package var photos: [Photo]
    /// The code the capture will be keyed on: the barcode photo's, else another photo's; nil while none is read.
    @NullWhenAbsent package var barcode: Code?
    /// Whether a barcode photo was taken (and read): with `barcode` nil, it gave no code.
    package var barcodeTaken: Bool
    /// What the catalogue's product data say of `barcode`; nil when they know nothing of it.
    @NullWhenAbsent package var product: Product?
    /// The newest capture already keyed on `barcode`; nil when none is.
    @NullWhenAbsent package var catalogued: Catalogued?
    /// The most photos the draft takes (`uploadMaxFiles`).
    package var maxPhotos: Int

    package struct Photo: Encodable, Sendable {
        package var number: Int
        /// `barcode`, `front`, `label` or `more`.
        package var role: String
        package var file: String
        /// Where its thumbnail is; nil when the photo could not be read.
        @NullWhenAbsent package var thumbnail: String?
        package var codes: [Code]
        /// Why a run would set it aside; nil when it reads.
        @NullWhenAbsent package var problem: String?
    }

    package struct Code: Encodable, Sendable {
        package var text: String
        package var symbology: String
        @NullWhenAbsent package var gtin13: String?
    }

    package struct Product: Encodable, Sendable {
        @NullWhenAbsent package var name: String?
        @NullWhenAbsent package var brand: String?
        @NullWhenAbsent package var quantity: String?
    }

    package struct Catalogued: Encodable, Sendable {
        package var capture: String
        /// The day it was committed (`YYYY-MM-DD`, UTC).
        package var since: String
        package var photos: Int
    }

    /// `draft` as JSON; `product` and `capture` are what the catalogue holds of its barcode.
    package init(_ draft: Draft, maxPhotos: Int, product: Catalog.Product?, capture: Capture?) {
        id = draft.id
        created = draft.created.formatted(.iso8601)
        photos = draft.photos.map { photo in
            Photo(number: photo.number, role: photo.role.rawValue, file: photo.file,
                  thumbnail: photo.hasThumbnail ? "/api/drafts/\(draft.id)/photos/\(photo.number)/thumbnail" : nil,
                  codes: photo.codes.map(Code.init), problem: photo.problem)
        }
        barcode = draft.codes.first.map(Code.init)
        barcodeTaken = draft.photo(as: .barcode) != nil
        self.product = product.map { Product(name: $0.name, brand: $0.brands, quantity: $0.quantity) }
        catalogued = capture.map { Catalogued(capture: $0.id, since: String($0.createdAt.prefix(10)), photos: $0.photoCount) }
        self.maxPhotos = maxPhotos
    }
}

extension DraftJSON.Code {
    init(_ code: DraftCode) {
        self.init(text: code.text, symbology: code.symbology.rawValue, gtin13: code.gtin13)
    }
}
