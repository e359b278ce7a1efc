import FileSystem
import Foundation
package import SystemPackage

/// Writes the catalogue as CSV, one row per capture, for spreadsheets and shop imports.
///
/// Fields are quoted per RFC 4180 when they hold a comma, a quote or a line break; lines end in LF.
/// A field a spreadsheet would run as a formula (it starts with `=`, `+`, `-` or `@`: a set named
/// `=HYPERLINK(…)`) is written with a `'` before it unless `rawCells` is set.
/// Columns are `header`; list columns (`photos`, `originals`, `thumbnails`) join the capture's
/// photos in position order with `;`. Rows are ordered by set name, capture time, then id.
/// Columns are only ever appended, never reordered: readers such as `score.py` go by name.
///
/// Rows stream from one SQL cursor over captures joined with their photos, in the order of an
/// index: memory stays the same whatever the catalogue's size.
package struct CatalogueExporter: Sendable {
    /// The header row, in column order.
    package static let header = [
        "capture_id", "set_name", "barcode", "symbology", "gtin13", "captured_at", "time_source",
        "photo_count", "photos", "rating", "quality", "thumbnail", "originals", "thumbnails",
        "agent_id", "agent_name", "request_id", "note",
        "product_name", "brands", "quantity", "energy_kcal_100g", "nutriscore_grade", "nutrition_source",
        "addon", "name_from_package",
    ]

    /// Separates the entries of a list column.
    static let listSeparator = ";"

    private let catalogue: Catalogue
    private let rawCells: Bool

    /// An exporter reading from `catalogue`; with `rawCells`, every field as it is stored, formulas too.
    package init(catalogue: Catalogue, rawCells: Bool = false) {
        self.catalogue = catalogue
        self.rawCells = rawCells
    }

    /// Writes the header and one row per capture taken at or after `since` (seconds since 1970; nil
    /// for all) to `stream`, opening it if needed. Returns the number of capture rows.
    package func write(to stream: OutputStream, since: Double? = nil) throws -> Int {
        if stream.streamStatus == .notOpen { stream.open() }
        defer { stream.close() }
        return try write(since: since) { bytes in
            let written = bytes.withUnsafeBufferPointer { stream.write($0.baseAddress!, maxLength: $0.count) }
            guard written == bytes.count else {
                throw CatalogError.exportFailed(path: "output stream", reason: stream.streamError.map { "\($0)" } ?? "short write")
            }
        }
    }

    /// Writes the export to the file at `path`, or to standard output when `path` is `-`.
    ///
    /// A file is written beside `path` under a temporary name, flushed, and then renamed over it, so
    /// an interrupted export never replaces a good one. Returns the number of capture rows.
    /// Throws `CatalogError.exportFailed` naming `path` when the file cannot be written.
    @discardableResult
    package func writeCSV(toPath path: FilePath, since: Double? = nil) throws -> Int {
        do {
            if path == "-" { return try write(since: since) { try FileDescriptor.standardOutput.writeAll($0) } }
            if let problem = NewFileDestination.problem(path, mayReplace: true) {
                throw CatalogError.exportFailed(path: path.string, reason: problem)
            }
            let rows = try DurableFile.write(path, replacing: true) { file in try write(since: since) { try file.writeAll($0) } }
            try DurableFile.syncFolder(path.removingLastComponent())
            return rows
        } catch let error as FileOperationError {
            throw CatalogError.exportFailed(path: path.string, reason: error.description(about: path))
        } catch let error as Errno {
            throw CatalogError.exportFailed(path: path.string, reason: "cannot write: \(error)")
        }
    }

    /// The CSV, in chunks of about 64 KB passed to `output`; returns the number of capture rows.
    private func write(since: Double?, to output: ([UInt8]) throws -> Void) throws -> Int {
        var buffer = CSVBuffer(chunkSize: 1 << 16, neutralisesFormulas: !rawCells)
        buffer.append(row: Self.header)
        let agents = try catalogue.agents()
        var rows = 0
        try catalogue.exportRows(since: since) { capture in
            let agentName = capture.agentId.flatMap { agents[$0]?.name } ?? capture.agentName
            buffer.append(row: Self.fields(of: capture, agentName: agentName))
            rows += 1
            if buffer.isFull {
                try output(buffer.bytes)
                buffer.clear()
            }
        }
        try output(buffer.bytes)
        return rows
    }

    /// One CSV row, in `header` order; `agentName` is the agent's latest name.
    private static func fields(of capture: ExportedCapture, agentName: String?) -> [String] {
        [
            capture.id,
            capture.setName,
            capture.barcode ?? "",
            capture.symbology ?? "",
            capture.gtin13 ?? "",
            capture.capturedAt,
            capture.timeSource,
            String(capture.photoCount),
            capture.originalNames.joined(separator: listSeparator),
            capture.rating,
            threeDecimals(capture.quality),
            capture.thumbPaths.first ?? "",
            capture.originalPaths.joined(separator: listSeparator),
            capture.thumbPaths.joined(separator: listSeparator),
            capture.agentId ?? "",
            agentName ?? "",
            capture.requestId ?? "",
            capture.note ?? "",
            capture.hasProduct ? capture.productName ?? "" : Capture.fallbackProductName(capturedAt: capture.capturedAt),
            capture.brands ?? "",
            capture.quantity ?? "",
            capture.energyKcal.map(shortest) ?? "",
            capture.nutriscoreGrade ?? "",
            capture.productSource ?? "",
            capture.addon ?? "",
            capture.productName == nil ? capture.nameFromPackage ?? "" : "",
        ]
    }

    /// `539`, `30.9`: the number without a fraction when it has none.
    private static func shortest(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// `value` (0…1) with three decimals, as `%.3f` writes it, without a format string per row.
    static func threeDecimals(_ value: Double) -> String {
        let thousandths = Int((value * 1000).rounded(.toNearestOrEven))
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
