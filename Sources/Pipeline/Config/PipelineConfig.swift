package import Catalog
package import Foundation
package import SystemPackage
package import Vocabulary
import FileSystem

/// The settings of `pipeline.json`, validated. Relative paths resolve against the file's folder.
package struct PipelineConfig: Sendable, Equatable {
    /// How a set's photos become captures.
    package enum Grouping: String, Sendable { case time, folder }
    /// Whether originals leave the inbox.
    package enum Originals: String, Sendable { case move, copy }

    package var inbox: FilePath
    package var library: FilePath
    /// The catalogue: a SQLite file's path — `catalog.sqlite` in the library unless it is set, so a
    /// library moved by the configuration or `--library` takes its catalogue along — or a
    /// PostgreSQL URL (`postgresql://…`), which workers on several machines share.
    package var catalog: String {
        get { explicitCatalog ?? library.appending("catalog.sqlite").string }
        set { explicitCatalog = newValue }
    }
    /// The catalogue's path or URL when set; nil while it follows the library.
    package private(set) var explicitCatalog: String?
    /// Where the catalogue is: SQLite or PostgreSQL.
    package var catalogLocation: CatalogueLocation { CatalogueLocation(catalog) }
    /// A shared catalogue: seconds a worker's claim on a set lasts unless renewed (every third of it).
    package var claimLeaseSeconds = 60.0
    /// A shared catalogue: seconds a worker waits for an unreachable server before it gives up.
    package var catalogWaitSeconds = 60.0
    package var quarantine: FilePath
    package var thumbnailWidth = 400
    package var groupGapSeconds = 60.0
    package var grouping = Grouping.time
    package var originals = Originals.move
    /// Photos analysed at once; 0 in the file means the active processor count.
    package var workers = ProcessInfo.processInfo.activeProcessorCount
    package var maxPixels = 100_000_000
    /// Megabytes the photos being decoded at once may hold (`DecodeMemory`); 0 means 128 per
    /// worker. A photo that needs more alone is decoded by itself.
    package var decodeMemoryMB = 0
    /// The shortest side a photo may have, in pixels: smaller images are icons or tracking pixels,
    /// not product photos.
    package var minPixels = 64
    package var maxFileBytes: Int64 = 512 * 1024 * 1024
    package var symbologies = Set(Symbology.allCases)
    /// `ingest watch`: seconds a set must stay unchanged before it is ingested.
    package var settleSeconds = 10.0
    /// `ingest watch`: seconds between sweeps of the inbox for sets the events missed.
    package var rescanSeconds = 300.0
    /// `ingest watch`: a hidden file whose appearance in a set folder marks the set complete.
    package var readyMarker = ".ready"
    /// Megabytes that must stay free on the library's disk for `ingest status` and `/readyz` to say ready.
    package var minFreeMB = 1024
    /// `ingest serve`: what one upload may bring (the `upload…` keys).
    package var upload = UploadLimits()
    /// `ingest serve`: the time a client may take and the connections held at once (the `http…` keys).
    package var http = HTTPLimits()
    /// Reading the words on the photos (the `text…` keys).
    package var text = TextSettings()

    /// `decodeMemoryMB` in bytes, 0 resolved.
    package var decodeMemoryBytes: Int {
        (decodeMemoryMB == 0 ? 128 * max(1, workers) : decodeMemoryMB) << 20
    }

    /// The defaults, with every path under `folder`.
    package init(folder: FilePath) {
        inbox = Self.resolve("inbox", against: folder)
        library = Self.resolve("library", against: folder)
        quarantine = Self.resolve("quarantine", against: folder)
    }

    /// Reads and validates a config file; every problem names the file and the key.
    package static func load(path: FilePath) throws -> PipelineConfig {
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptor.contents(of: path)
        } catch {
            throw ConfigError(file: path.string, message: "cannot read the file (\(error))")
        }
        return try parse(Data(bytes), file: path.string, folder: path.removingLastComponent())
    }

    /// Parses config JSON; `folder` is where relative paths resolve. Throws one `ConfigError` that
    /// lists every problem of the file.
    package static func parse(_ data: Data, file: String, folder: FilePath) throws -> PipelineConfig {
        guard let object = try? JSONSerialization.jsonObject(with: data) else {
            throw ConfigError(file: file, message: "not valid JSON")
        }
        guard let keys = object as? [String: Any] else {
            throw ConfigError(file: file, message: "must hold one JSON object of settings")
        }
        let reader = KeyReader(keys: keys)
        for duplicate in DuplicateKeys.find(in: Array(data)) {
            reader.report(duplicate.key, "is given more than once (again on line \(duplicate.line)); keep one")
        }
        reader.refuseUnknown(known)
        var config = PipelineConfig(folder: folder)
        config.readPaths(reader, folder: folder)
        config.readSettings(reader)
        guard reader.problems.isEmpty else { throw ConfigError(file: file, messages: reader.problems) }
        return config
    }

    private mutating func readPaths(_ reader: KeyReader, folder: FilePath) {
        if let value = reader.string("inbox") { inbox = Self.resolve(value, against: folder) }
        if let value = reader.string("library") { library = Self.resolve(value, against: folder) }
        if let value = reader.string("catalog") {
            if let problem = CatalogueLocation(value).problem {
                reader.report("catalog", "is not a PostgreSQL URL libpq can read (\(problem))")
            }
            catalog = CatalogueLocation.isURL(value) ? value : Self.resolve(value, against: folder).string
        }
        if let value = reader.string("quarantine") { quarantine = Self.resolve(value, against: folder) }
    }

    private mutating func readSettings(_ reader: KeyReader) {
        if let value = reader.integer("thumbnailWidth", in: 16...4096) { thumbnailWidth = value }
        if let value = reader.number("groupGapSeconds", in: 0...86_400) { groupGapSeconds = value }
        if let value = reader.choice("grouping", Grouping.self) { grouping = value }
        if let value = reader.choice("originals", Originals.self) { originals = value }
        if let value = reader.integer("workers", in: 0...256) {
            workers = value == 0 ? ProcessInfo.processInfo.activeProcessorCount : value
        }
        if let value = reader.integer("maxPixels", in: 1...1_000_000_000) { maxPixels = value }
        if let value = reader.integer("decodeMemoryMB", in: 0...1_000_000) { decodeMemoryMB = value }
        if let value = reader.integer("minPixels", in: 1...10_000) { minPixels = value }
        if let value = reader.integer("maxFileBytes", in: 1...(8 << 30)) { maxFileBytes = Int64(value) }
        if let names = reader.strings("symbologies") {
            let valid = Symbology.allCases.map(\.rawValue).joined(separator: ", ")
            for name in names where Symbology(name: name) == nil {
                reader.report("symbologies:", "unknown symbology \"\(name)\" (known: \(valid))")
            }
            symbologies = Set(names.compactMap(Symbology.init(name:)))
        }
        if let value = reader.number("settleSeconds", in: 1...3_600) { settleSeconds = value }
        if let value = reader.number("rescanSeconds", in: 10...86_400) { rescanSeconds = value }
        if let value = reader.number("claimLeaseSeconds", in: 3...3_600) { claimLeaseSeconds = value }
        if let value = reader.number("catalogWaitSeconds", in: 0...3_600) { catalogWaitSeconds = value }
        if let value = reader.integer("minFreeMB", in: 0...100_000_000) { minFreeMB = value }
        upload.read(reader)
        http.read(reader)
        text.read(reader)
        if let value = reader.string("readyMarker") {
            if value.hasPrefix("."), value.count > 1, value != "..", !value.contains("/") {
                readyMarker = value
            } else {
                reader.report("readyMarker", "must be a hidden file name (a dot, then no slash), got \"\(value)\"")
            }
        }
    }

    static let known: Set<String> = Set(["inbox", "library", "catalog", "quarantine", "thumbnailWidth", "groupGapSeconds",
                                     "grouping", "originals", "workers", "maxPixels", "decodeMemoryMB", "minPixels", "maxFileBytes", "symbologies",
                                     "settleSeconds", "rescanSeconds", "readyMarker", "claimLeaseSeconds", "catalogWaitSeconds",
                                     "minFreeMB"]).union(UploadLimits.keys).union(HTTPLimits.keys).union(TextSettings.keys)

    /// `path` made absolute against `folder` (unless it already is; by default the working folder),
    /// `~` expanded.
    package static func resolve(_ path: String, against folder: FilePath = FilePath()) -> FilePath {
        let here = FilePath(FileManager.default.currentDirectoryPath)
        // `pushing` keeps an absolute path as it is and puts a relative one below the base.
        return here.pushing(folder).pushing(FilePath((path as NSString).expandingTildeInPath)).lexicallyNormalized()
    }
}
