/// Photos of one set that make one product capture.
package struct PhotoGroup<Item: Groupable> {
    package var photos: [Item]
    /// The capture's one barcode: the first primary barcode in time order. Other photos' hits stay on the photos.
    package var barcode: BarcodeReading?
}
