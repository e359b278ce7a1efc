package import Vocabulary

/// Everything the pipeline learnt from one photo; its thumbnail waits in the staging folder.
package struct AnalysedPhoto: Sendable {
    package var file: InboxFile
    package var sha256: String
    package var byteSize: Int64
    package var format: ImageFormat
    /// Upright pixel size of the original.
    package var width: Int
    package var height: Int
    package var orientation: Int
    package var make: String?
    package var model: String?
    package var time: CaptureTime
    /// Every valid barcode read, best first.
    package var barcodes: [BarcodeReading]
    /// Linear codes read once by the second look only: they count when another photo of the set
    /// reads them too (`SetEvidence`), and are dropped otherwise.
    package var unconfirmedBarcodes: [BarcodeReading] = []
    package var quality: PhotoQuality
    package var thumbnail: StagedThumbnail
    /// The file as it was read, to notice a change before the photo is committed.
    package var source: FileIdentity
}
