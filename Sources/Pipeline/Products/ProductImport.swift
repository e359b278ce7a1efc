package import Catalog
import Foundation
package import Logging
package import SystemPackage

/// Streams an Open Food Facts dump into the catalogue's products: the CSV export or the JSONL dump,
/// either optionally gzipped, told apart by their bytes. Memory stays bounded whatever the file's
/// size: one chunk of input, one line, one batch of products.
///
/// Nothing is written before the file's first line shows it is a dump, so a file that is not one
/// (empty, binary, another CSV) changes nothing. Then every `batchSize` products are written in one
/// transaction: an import that stops early (a damaged gzip stream, `--strict` and a malformed line,
/// a full disk) keeps the batches before it, each product whole, and importing the file again
/// finishes the job.
package struct ProductImport {
    /// Lines (and records spanning lines) longer than this are malformed.
    package static let maximumLine = 16 << 20

    private let catalogue: Catalogue
    private let options: ProductImportOptions
    private let logger: Logger
    private let progress: (ProductImportProgress) -> Void

    package init(catalogue: Catalogue, options: ProductImportOptions, logger: Logger,
                progress: @escaping (ProductImportProgress) -> Void = { _ in }) {
        self.catalogue = catalogue
        self.options = options
        self.logger = logger
        self.progress = progress
    }

    /// Imports the dump at `path`. Throws `ProductImportError` when the file cannot be read or is not
    /// a dump (nothing written); a stop after writing began is the report's `failure`.
    package func run(path: FilePath) throws -> ProductImportReport {
        let started = Date()
        let input = try DumpInput(path: path)
        let reader = LineReader(input: input, maximumLine: Self.maximumLine)
        let catalogued = options.onlyCatalogued ? try catalogue.capturedGTIN14s() : nil
        var session = ImportSession(catalogue: catalogue, options: options, catalogued: catalogued)
        session.report.format = try openFormat(reader, input: input, session: &session) + (input.isGzip ? ", gzip" : "")
        do {
            try session.readRecords(reader) { rows in report(rows, input: input, started: started) }
            try session.flush()
            try input.finish()
        } catch let error as ProductImportError {
            try? input.finish(stoppingEarly: true)
            session.report.failure = error
        }
        session.report.bytes = reader.bytesRead
        session.report.seconds = Date().timeIntervalSince(started)
        logger.info("Imported products", metadata: ["file": "\(path)", "stored": "\(session.report.stored)"])
        return session.report
    }

    /// Reads the first line and the format it shows; a JSONL dump's first line is its first record.
    private func openFormat(_ reader: LineReader, input: DumpInput, session: inout ImportSession) throws -> String {
        let first: UnsafeBufferPointer<UInt8>
        do {
            switch try reader.next() {
            case nil: throw ProductImportError.notADump(path: input.path.string, reason: "it is empty")
            case .tooLong: throw ProductImportError.notADump(path: input.path.string, reason: "no line end in its first 16 MB")
            case let .text(line): first = Self.droppingByteOrderMark(line)
            }
        } catch let error as ProductImportError {
            try? input.finish(stoppingEarly: false)
            throw error
        }
        if OFFJSONLFormat.recognises(first) {
            session.format = OFFJSONLFormat()
            try session.read(first, lineNumber: 1, reader)
            return "JSONL"
        }
        guard let csv = OFFCSVFormat(header: first, maximumRecord: Self.maximumLine) else {
            try? input.finish(stoppingEarly: true)
            throw ProductImportError.notADump(path: input.path.string, reason: "its first line is neither a tab-separated "
                + "header with a code column nor a JSON object")
        }
        session.format = csv
        return "CSV"
    }

    private static func droppingByteOrderMark(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF else { return line }
        return UnsafeBufferPointer(rebasing: line[3...])
    }

    private func report(_ rows: Int, input: DumpInput, started: Date) {
        progress(ProductImportProgress(fileBytesDone: input.fileOffset, fileBytesTotal: input.fileSize, rows: rows,
                                       elapsed: Date().timeIntervalSince(started)))
    }
}
