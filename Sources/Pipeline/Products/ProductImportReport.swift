/// What `ingest products import` asks for.
public struct ProductImportOptions: Sendable {
    /// A malformed line stops the import instead of being counted and skipped.
    public var strict = false
    /// Only products whose code a capture of the catalogue has are stored.
    public var onlyCatalogued = false
    /// Rows entered by hand (`products set`) are overwritten too.
    public var replaceManual = false
    /// Products written per transaction.
    public var batchSize = 10_000

    public init(strict: Bool = false, onlyCatalogued: Bool = false, replaceManual: Bool = false) {
        self.strict = strict
        self.onlyCatalogued = onlyCatalogued
        self.replaceManual = replaceManual
    }
}

/// How far an import has come, for a progress line.
public struct ProductImportProgress: Sendable {
    /// Bytes of the file (compressed, for a gzip file) read so far, and its size.
    public var fileBytesDone: Int64
    public var fileBytesTotal: Int64
    public var rows: Int
    public var elapsed: Double
}

/// What an import did: the summary it prints.
public struct ProductImportReport: Sendable {
    /// `CSV` or `JSONL`, with `, gzip` for a compressed file.
    public var format = ""
    /// Records read after the header.
    public var rowsRead = 0
    /// Products written (inserted or changed).
    public var stored = 0
    /// Products the catalogue kept as they were: entered by hand, or newer than the dump's row.
    public var kept = 0
    /// `--only-catalogued`: products no capture has.
    public var notCatalogued = 0
    /// Rows skipped, by reason.
    public var skipped: [String: Int] = [:]
    /// Uncompressed bytes read.
    public var bytes = 0
    public var seconds = 0.0
    /// Why the import stopped before the end of the file, when it did; the batches before were stored.
    public var failure: ProductImportError?

    public var skippedTotal: Int { skipped.values.reduce(0, +) }

    /// Uncompressed megabytes (10⁶ bytes) read per second.
    public var megabytesPerSecond: Double { seconds > 0 ? Double(bytes) / 1e6 / seconds : 0 }
}
