extension PhotoSet {
    /// The set's `capture.json` as read now: nil without one, its problem when it cannot be used.
    func readContext() -> Result<CaptureContext, CaptureContextError>? {
        contextFile.map { path in Result { () throws(CaptureContextError) in try CaptureContext.load(path: path) } }
    }
}
