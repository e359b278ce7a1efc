/// What `ingest products import` asks for.
package struct ProductImportOptions: Sendable {
    /// A malformed line stops the import instead of being counted and skipped.
    package var strict = false
    /// Only products whose code a capture of the catalogue has are stored.
    package var onlyCatalogued = false
    /// Rows entered by hand (`products set`) are overwritten too.
    package var replaceManual = false
    /// Products written per transaction.
    package var batchSize = 10_000

    package init(strict: Bool = false, onlyCatalogued: Bool = false, replaceManual: Bool = false) {
        self.strict = strict
        self.onlyCatalogued = onlyCatalogued
        self.replaceManual = replaceManual
    }
}

/// How far an import has come, for a progress line.
package struct ProductImportProgress: Sendable {
    /// Bytes of the file (compressed, for a gzip file) read so far, and its size.
    package var fileBytesDone: Int64
    package var fileBytesTotal: Int64
    package var rows: Int
    package var elapsed: Double
}

/// What an import did: the summary it prints.
package struct ProductImportReport: Sendable {
    /// `CSV` or `JSONL`, with `, gzip` for a compressed file.
    package var format = ""
    /// Records read after the header.
    package var rowsRead = 0
    /// Products written (inserted or changed).
    package var stored = 0
    /// Products the catalogue kept as they were: entered by hand, or newer than the dump's row.
    package var kept = 0
    /// `--only-catalogued`: products no capture has.
    package var notCatalogued = 0
    /// Rows skipped, by reason.
    package var skipped: [String: Int] = [:]
    /// Uncompressed bytes read.
    package var bytes = 0
    package var seconds = 0.0
    /// Why the import stopped before the end of the file, when it did; the batches before were stored.
    package var failure: ProductImportError?

    package var skippedTotal: Int { skipped.values.reduce(0, +) }

    /// Uncompressed megabytes (10⁶ bytes) read per second.
    package var megabytesPerSecond: Double { seconds > 0 ? Double(bytes) / 1e6 / seconds : 0 }
}
