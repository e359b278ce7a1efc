import CSV
import Foundation
import GRDB

/// Writes the catalogue as CSV, one row per capture, for spreadsheets and shop imports.
///
/// Fields are quoted per RFC 4180 when they hold a comma, a quote or a line break; lines end in LF.
/// Columns are `header`; list columns (`photos`, `originals`, `thumbnails`) join the capture's
/// photos in position order with `;`. Rows are ordered by set name, capture time, then id.
/// Columns are only ever appended, never reordered: readers such as `score.py` go by name.
public struct CatalogueExporter {
    /// The header row, in column order.
    public static let header = [
        "capture_id", "set_name", "barcode", "symbology", "gtin13", "captured_at", "time_source",
        "photo_count", "photos", "rating", "quality", "thumbnail", "originals", "thumbnails",
        "agent_id", "agent_name", "request_id", "note",
    ]

    /// Separates the entries of a list column.
    static let listSeparator = ";"

    private let catalogue: Catalogue

    /// An exporter reading from `catalogue`.
    public init(catalogue: Catalogue) {
        self.catalogue = catalogue
    }

    /// Writes the header and one row per capture taken at or after `since` (seconds since 1970; nil for all).
    ///
    /// Opens `stream` if it is not open yet; CSV.swift's writer closes it when done.
    /// Returns the number of capture rows written, not counting the header.
    public func write(to stream: OutputStream, since: Double? = nil) throws -> Int {
        let (captures, photos, agents) = try fetch(since: since)
        do {
            let writer = try CSVWriter(stream: stream, newline: .lf)
            try writer.write(row: Self.header)
            for capture in captures {
                try writer.write(row: Self.fields(of: capture, photos: photos[capture.id] ?? [],
                                                  agentName: capture.agentName(latestIn: agents)))
            }
            // CSVWriter only writes line ends between rows; end the last line too.
            var lineFeed = UInt8(ascii: "\n")
            guard stream.write(&lineFeed, maxLength: 1) == 1 else { throw CSVError.cannotWriteStream }
        } catch let error as CSVError {
            let reason = stream.streamError?.localizedDescription ?? "\(error)"
            throw CatalogError.exportFailed(path: "output stream", reason: reason)
        }
        return captures.count
    }

    /// Writes the export to the file at `path`, or to standard output when `path` is `-`.
    ///
    /// A file is written beside `path` under a temporary name and then renamed over it, so an
    /// interrupted export never replaces a good one. Returns the number of capture rows.
    /// Throws `CatalogError.exportFailed` naming `path` when the file cannot be written.
    @discardableResult
    public func writeCSV(toPath path: String, since: Double? = nil) throws -> Int {
        let memory = OutputStream.toMemory()
        let count = try write(to: memory, since: since)
        let data = memory.property(forKey: .dataWrittenToMemoryStreamKey) as? Data ?? Data()
        do {
            if path == "-" {
                try FileHandle.standardOutput.write(contentsOf: data)
            } else {
                try Self.replaceFile(at: path, with: data)
            }
        } catch let error as CatalogError {
            throw error
        } catch {
            throw CatalogError.exportFailed(path: path, reason: error.localizedDescription)
        }
        return count
    }

    /// The captures to export in row order, the photos of each in position order, and the agents by id.
    private func fetch(since: Double?) throws -> ([Capture], [String: [Photo]], [String: Agent]) {
        try catalogue.read { db in
            typealias Columns = Capture.QueryColumns
            var request = Capture.all().order(Columns.setName, Columns.capturedUTC, Columns.id)
            if let since {
                request = request.filter(Columns.capturedUTC >= since)
            }
            let captures = try request.fetchAll(db)
            let photos = try Photo.fetchAll(db, sql: """
                SELECT photo.* FROM photo JOIN capture ON capture.id = photo.capture_id
                WHERE ? IS NULL OR capture.captured_utc >= ?
                ORDER BY photo.capture_id, photo.position
                """, arguments: [since, since])
            let agents = try Agent.fetchAll(db)
            return (captures, Dictionary(grouping: photos, by: \.captureId),
                    Dictionary(uniqueKeysWithValues: agents.map { ($0.id, $0) }))
        }
    }

    /// One CSV row, in `header` order; `agentName` is the agent's latest name.
    private static func fields(of capture: Capture, photos: [Photo], agentName: String?) -> [String] {
        [
            capture.id,
            capture.setName,
            capture.barcode ?? "",
            capture.symbology?.rawValue ?? "",
            capture.gtin13 ?? "",
            capture.capturedAt,
            capture.timeSource.rawValue,
            String(capture.photoCount),
            photos.map(\.originalName).joined(separator: listSeparator),
            capture.rating.rawValue,
            String(format: "%.3f", capture.quality),
            photos.first?.thumbPath ?? "",
            photos.map(\.originalPath).joined(separator: listSeparator),
            photos.map(\.thumbPath).joined(separator: listSeparator),
            capture.agentId ?? "",
            agentName ?? "",
            capture.requestId ?? "",
            capture.note ?? "",
        ]
    }

    /// Writes `data` to a temporary file in `path`'s folder, then renames it to `path`.
    private static func replaceFile(at path: String, with data: Data) throws {
        let target = URL(fileURLWithPath: path)
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString).tmp")
        try data.write(to: temporary)
        guard rename(temporary.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw CatalogError.exportFailed(path: path, reason: reason)
        }
    }
}
