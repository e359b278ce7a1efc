/// Photos of one set that make one product capture.
package struct PhotoGroup<Item: Groupable> {
    package var photos: [Item]
    /// The capture's one barcode, its key (`CaptureGrouper.key(of:among:)`). The photos' other codes stay on them as hits.
    package var barcode: BarcodeReading?
}
