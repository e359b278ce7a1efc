/// Photos of one set that make one product capture.
public struct PhotoGroup<Item: Groupable> {
    public var photos: [Item]
    /// The capture's one barcode: the first primary barcode in time order. Other photos' hits stay on the photos.
    public var barcode: BarcodeReading?
}
