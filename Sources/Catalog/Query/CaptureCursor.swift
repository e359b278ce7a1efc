/// A place in the newest-first order of captures: a page that starts `before` it holds the
/// captures listed after this one. Stable while captures are added or deleted.
public struct CaptureCursor: Hashable, Sendable {
    public var capturedUTC: Double
    public var id: String

    public init(capturedUTC: Double, id: String) {
        self.capturedUTC = capturedUTC
        self.id = id
    }

    /// The place of `capture`.
    public init(_ capture: Capture) {
        self.init(capturedUTC: capture.capturedUTC, id: capture.id)
    }
}
