/// What one upload to `ingest serve` (`POST /api/sets`) may bring: the `upload…` keys of
/// `pipeline.json`. A request past a limit is refused (413) and leaves nothing in the inbox.
package struct UploadLimits: Sendable, Equatable {
    /// The largest photo, in megabytes: a 12 MP phone JPEG is 3–8 MB, a 48 MP HEIC about 15 MB.
    package var maxFileMB = 64
    /// The largest request, in megabytes: every photo and field of one set.
    package var maxRequestMB = 1024
    /// The most photos in one set.
    package var maxFiles = 50
    /// Seconds an upload may send nothing before it is cut off (a stalled or deliberately slow client
    /// would otherwise hold a connection and a staging folder for ever).
    package var idleSeconds = 30.0
    /// Minutes a draft of the capture flow may go untouched before the server removes it.
    package var draftIdleMinutes = 60

    package init() {}

    package var maxFileBytes: Int64 { Int64(maxFileMB) << 20 }
    package var maxRequestBytes: Int64 { Int64(maxRequestMB) << 20 }

    /// The keys, as `pipeline.json` names them.
    static let keys: Set<String> = ["uploadMaxFileMB", "uploadMaxRequestMB", "uploadMaxFiles", "uploadIdleSeconds", "draftIdleMinutes"]

    mutating func read(_ reader: KeyReader) {
        if let value = reader.integer("uploadMaxFileMB", in: 1...8192) { maxFileMB = value }
        if let value = reader.integer("uploadMaxRequestMB", in: 1...65536) { maxRequestMB = value }
        if let value = reader.integer("uploadMaxFiles", in: 1...10_000) { maxFiles = value }
        if let value = reader.number("uploadIdleSeconds", in: 1...3_600) { idleSeconds = value }
        if let value = reader.integer("draftIdleMinutes", in: 1...10_080) { draftIdleMinutes = value }
    }
}
