/// Everything one set adds to the catalogue; committed in one transaction.
package struct CommittedSet: Sendable {
    package var captures: [Capture]
    package var photos: [Photo]
    package var hits: [BarcodeHit]
    /// The agent the set's `capture.json` names, inserted or brought up to date in the same transaction.
    package var agent: Agent?

    package init(captures: [Capture], photos: [Photo], hits: [BarcodeHit], agent: Agent? = nil) {
        self.captures = captures
        self.photos = photos
        self.hits = hits
        self.agent = agent
    }
}
