/// A place in the newest-first order of captures: a page that starts `before` it holds the
/// captures listed after this one. Stable while captures are added or deleted.
package struct CaptureCursor: Hashable, Sendable {
    package var capturedUTC: Double
    package var id: String

    package init(capturedUTC: Double, id: String) {
        self.capturedUTC = capturedUTC
        self.id = id
    }

    /// The place of `capture`.
    package init(_ capture: Capture) {
        self.init(capturedUTC: capture.capturedUTC, id: capture.id)
    }
}
