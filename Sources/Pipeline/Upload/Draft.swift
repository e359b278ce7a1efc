package import Foundation
package import Vocabulary

/// One capture being put together on a phone (`ingest serve`'s capture flow, `/api/drafts`): the
/// photos taken so far, each read as it came (its barcodes, its thumbnail), and who may see it.
/// Nothing of it is in the inbox or the catalogue until it is saved (`DraftStore.save`).
package struct Draft: Codable, Sendable, Equatable {
    /// 32 random hexadecimal digits: the draft's folder's name and its address.
    package var id: String
    /// Who may see and change it (`DraftStore`'s callers say who asks): a hash of a browser's
    /// session, or the kind of access that has no session.
    package var owner: String
    package var created: Date
    /// When a photo was last added or removed: a draft untouched for `draftIdleMinutes` is removed.
    package var touched: Date
    package var photos: [DraftPhoto]
    /// The last photo number given out: numbers are never reused, so a retried remove never
    /// takes another photo.
    package var lastNumber: Int

    /// The codes read on the draft's photos, in the order a run keys a capture on them: those of the
    /// barcode photo first, then the others', each once; a code read but not confirmed on one photo
    /// counts once another photo reads it too, as in a run.
    package var codes: [DraftCode] {
        let ordered = photos.filter { $0.role == .barcode } + photos.filter { $0.role != .barcode }
        var seen = Set<String>(), codes: [DraftCode] = []
        let unconfirmed = ordered.flatMap { Set($0.unconfirmed) }
        for photo in ordered {
            let counted = photo.codes + photo.unconfirmed.filter { code in unconfirmed.filter { $0 == code }.count > 1 }
            for code in counted where seen.insert(code.key).inserted { codes.append(code) }
        }
        return codes
    }

    /// The photo taken as `role`'s (a barcode, front or label photo: one each; more: any number).
    package func photo(as role: DraftPhoto.Role) -> DraftPhoto? {
        role == .more ? nil : photos.first { $0.role == role }
    }
}

/// One photo of a draft.
package struct DraftPhoto: Codable, Sendable, Equatable {
    /// What the photo is of, as the person taking it said.
    package enum Role: String, Codable, Sendable, CaseIterable {
        case barcode, front, label, more
    }

    /// Its number in the draft, from 1: the address of its remove and its thumbnail.
    package var number: Int
    package var role: Role
    /// Its file's name in the draft's set (and then in the inbox).
    package var file: String
    /// The codes a run would count on this photo alone.
    package var codes: [DraftCode]
    /// Codes read once and not confirmed: they count once another photo of the draft reads them.
    package var unconfirmed: [DraftCode]
    /// Why the photo could not be read (a run would quarantine it); nil when it was.
    package var problem: String?
    /// Whether its thumbnail was written.
    package var hasThumbnail: Bool
}

/// A code read on a draft's photo.
package struct DraftCode: Codable, Sendable, Hashable {
    package var text: String
    package var symbology: Symbology
    /// GTIN-13 of a retail code; nil for others.
    package var gtin13: String?

    /// The product it names: its GTIN-13, else its text.
    package var key: String { gtin13 ?? text }
}
