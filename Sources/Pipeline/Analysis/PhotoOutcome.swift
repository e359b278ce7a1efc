package import Catalog

/// What became of one file of a set after analysis.
package enum PhotoOutcome: Sendable {
    /// Decoded and measured; ready to commit.
    case analysed(AnalysedPhoto)
    /// Its bytes are already in the catalogue as `existing`: not decoded again.
    case catalogued(InboxFile, existing: Photo)
    /// Not a usable photo.
    case rejected(InboxFile, PhotoError)
}
