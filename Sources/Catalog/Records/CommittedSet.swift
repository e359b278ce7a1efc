/// Everything one set adds to the catalogue; committed in one transaction.
public struct CommittedSet: Sendable {
    public var captures: [Capture]
    public var photos: [Photo]
    public var hits: [BarcodeHit]
    /// The agent the set's `capture.json` names, inserted or brought up to date in the same transaction.
    public var agent: Agent?

    public init(captures: [Capture], photos: [Photo], hits: [BarcodeHit], agent: Agent? = nil) {
        self.captures = captures
        self.photos = photos
        self.hits = hits
        self.agent = agent
    }
}
