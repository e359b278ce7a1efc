import Catalog
import Vocabulary

/// Everything the pipeline learnt from one photo; its thumbnail waits in the staging folder.
public struct AnalysedPhoto: Sendable {
    public var file: InboxFile
    public var sha256: String
    public var byteSize: Int64
    public var format: ImageFormat
    /// Upright pixel size of the original.
    public var width: Int
    public var height: Int
    public var orientation: Int
    public var make: String?
    public var model: String?
    public var time: CaptureTime
    /// Every valid barcode read, best first.
    public var barcodes: [BarcodeReading]
    /// Linear codes read once by the second look only: they count when another photo of the set
    /// reads them too (`SetEvidence`), and are dropped otherwise.
    public var unconfirmedBarcodes: [BarcodeReading] = []
    public var quality: PhotoQuality
    public var thumbnail: StagedThumbnail
    /// The file as it was read, to notice a change before the photo is committed.
    public var source: FileIdentity

    /// The barcode that speaks for the photo: a retail code before others, then the best read.
    public var primaryBarcode: BarcodeReading? { barcodes.first }
}
