extension Array where Element == UInt8 {
    /// `withUnsafeBytes` that keeps `ImageError` as the error type (the standard library's only rethrows).
    func withImageBytes<R>(_ body: (UnsafeRawBufferPointer) throws(ImageError) -> R) throws(ImageError) -> R {
        try withUnsafeBytes { bytes in Result { () throws(ImageError) in try body(bytes) } }.get()
    }
}
