/// Why a correction makes no sense for the captures as they are; nothing was changed.
package enum CorrectionError: Error, CustomStringConvertible, Equatable, Sendable {
    /// A merge needs two captures or more, all different.
    case mergeNeedsTwo
    /// The captures to merge carry different barcodes (both given).
    case differentBarcodes(String, String)
    /// The photo is not one of the capture's (photo, capture).
    case photoNotInCapture(photo: String, capture: String)
    /// A split before the first photo would leave nothing behind.
    case splitAtFirstPhoto
    /// A photo moved to the capture it is in.
    case moveToSameCapture
    /// The capture has that barcode already (or none, for `--none`).
    case barcodeUnchanged
    /// A typed barcode is not a GTIN (the code, the reason).
    case invalidBarcode(String, reason: String)

    package var description: String {
        switch self {
        case .mergeNeedsTwo:
            return "a merge needs two different captures or more."
        case let .differentBarcodes(first, second):
            return "the captures carry different barcodes (\(first) and \(second)); set one's barcode first, or split instead."
        case let .photoNotInCapture(photo, capture):
            return "photo \(photo.prefix(8)) is not in capture \(capture.prefix(8)) (moved meanwhile?); reload and try again."
        case .splitAtFirstPhoto:
            return "a split at the first photo would leave nothing before it; pick a later photo."
        case .moveToSameCapture:
            return "the photo is in that capture already."
        case .barcodeUnchanged:
            return "the capture has that barcode already."
        case let .invalidBarcode(code, reason):
            return "'\(code)' is not a barcode to set: \(reason)."
        }
    }
}
