/// What the grouper needs to know of a photo.
public protocol Groupable {
    var groupingName: String { get }
    var time: CaptureTime { get }
    var primaryBarcode: BarcodeReading? { get }
}
