import Catalog
import Foundation

/// The settings of `pipeline.json`, validated. Relative paths resolve against the file's folder.
public struct PipelineConfig: Sendable, Equatable {
    /// How a set's photos become captures.
    public enum Grouping: String, Sendable { case time, folder }
    /// Whether originals leave the inbox.
    public enum Originals: String, Sendable { case move, copy }

    public var inbox: String
    public var library: String
    public var catalog: String
    public var quarantine: String
    public var thumbnailWidth = 400
    public var groupGapSeconds = 60.0
    public var grouping = Grouping.time
    public var originals = Originals.move
    /// Photos analysed at once; 0 in the file means the active processor count.
    public var workers = ProcessInfo.processInfo.activeProcessorCount
    public var maxPixels = 100_000_000
    public var maxFileBytes: Int64 = 512 * 1024 * 1024
    public var symbologies = Set(Symbology.allCases)
    /// `ingest watch`: seconds a set must stay unchanged before it is ingested.
    public var settleSeconds = 10.0
    /// `ingest watch`: seconds between sweeps of the inbox for sets the events missed.
    public var rescanSeconds = 300.0
    /// `ingest watch`: a hidden file whose appearance in a set folder marks the set complete.
    public var readyMarker = ".ready"

    /// The defaults, with every path under `folder`.
    public init(folder: String) {
        inbox = Self.resolve("inbox", against: folder)
        library = Self.resolve("library", against: folder)
        catalog = Self.resolve("library/catalog.sqlite", against: folder)
        quarantine = Self.resolve("quarantine", against: folder)
    }

    /// Reads and validates a config file; every problem names the file and the key.
    public static func load(path: String) throws -> PipelineConfig {
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptor.contents(of: path)
        } catch {
            throw ConfigError(file: path, message: "cannot read the file (\(error))")
        }
        return try parse(Data(bytes), file: path, folder: (path as NSString).deletingLastPathComponent)
    }

    /// Parses config JSON; `folder` is where relative paths resolve.
    public static func parse(_ data: Data, file: String, folder: String) throws -> PipelineConfig {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw ConfigError(file: file, message: "not valid JSON (\(error.localizedDescription))")
        }
        guard let keys = object as? [String: Any] else {
            throw ConfigError(file: file, message: "must hold one JSON object of settings")
        }
        var config = PipelineConfig(folder: folder)
        let reader = KeyReader(file: file, keys: keys)
        try reader.refuseUnknown(known)
        if let value = try reader.string("inbox") { config.inbox = resolve(value, against: folder) }
        if let value = try reader.string("library") { config.library = resolve(value, against: folder) }
        if let value = try reader.string("catalog") { config.catalog = resolve(value, against: folder) }
        if let value = try reader.string("quarantine") { config.quarantine = resolve(value, against: folder) }
        if let value = try reader.integer("thumbnailWidth", in: 16...4096) { config.thumbnailWidth = value }
        if let value = try reader.number("groupGapSeconds", in: 0...86_400) { config.groupGapSeconds = value }
        if let value = try reader.choice("grouping", Grouping.self) { config.grouping = value }
        if let value = try reader.choice("originals", Originals.self) { config.originals = value }
        if let value = try reader.integer("workers", in: 0...256) {
            config.workers = value == 0 ? ProcessInfo.processInfo.activeProcessorCount : value
        }
        if let value = try reader.integer("maxPixels", in: 1...1_000_000_000) { config.maxPixels = value }
        if let value = try reader.integer("maxFileBytes", in: 1...(8 << 30)) { config.maxFileBytes = Int64(value) }
        if let names = try reader.strings("symbologies") {
            var chosen = Set<Symbology>()
            for name in names {
                guard let symbology = Symbology(name: name) else {
                    let valid = Symbology.allCases.map(\.rawValue).joined(separator: ", ")
                    throw ConfigError(file: file, message: "symbologies: unknown symbology \"\(name)\" (known: \(valid))")
                }
                chosen.insert(symbology)
            }
            config.symbologies = chosen
        }
        if let value = try reader.number("settleSeconds", in: 1...3_600) { config.settleSeconds = value }
        if let value = try reader.number("rescanSeconds", in: 10...86_400) { config.rescanSeconds = value }
        if let value = try reader.string("readyMarker") {
            guard value.hasPrefix("."), value.count > 1, value != "..", !value.contains("/") else {
                throw ConfigError(file: file, message: "readyMarker must be a hidden file name (a dot, then no slash), got \"\(value)\"")
            }
            config.readyMarker = value
        }
        return config
    }

    static let known: Set<String> = ["inbox", "library", "catalog", "quarantine", "thumbnailWidth", "groupGapSeconds",
                                     "grouping", "originals", "workers", "maxPixels", "maxFileBytes", "symbologies",
                                     "settleSeconds", "rescanSeconds", "readyMarker"]

    /// `path` made absolute against `folder` (unless it already is), `~` expanded.
    public static func resolve(_ path: String, against folder: String) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        if expanded.hasPrefix("/") { return (expanded as NSString).standardizingPath }
        let base = folder.isEmpty ? FileManager.default.currentDirectoryPath : folder
        let absoluteBase = base.hasPrefix("/") ? base : FileManager.default.currentDirectoryPath + "/" + base
        return ((absoluteBase as NSString).appendingPathComponent(expanded) as NSString).standardizingPath
    }
}
