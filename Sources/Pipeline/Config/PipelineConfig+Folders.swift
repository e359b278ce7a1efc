import Foundation
import Catalog

extension PipelineConfig {
    /// Why the folders cannot work together, each naming both keys: the inbox, the library, the
    /// quarantine and a SQLite catalogue may not lie inside one another (links resolved, folders not
    /// yet made taken as they will be), but for the catalogue in the library, its default place. A
    /// library in the inbox would have each run quarantine its own live catalogue and the next ingest
    /// its originals again; a quarantine in the inbox would be quarantined again on every run.
    package var folderProblems: [String] {
        var folders = [("inbox", inbox), ("library", library), ("quarantine", quarantine)]
        if case .sqlite(let path) = catalogLocation { folders.append(("catalog", path)) }
        let resolved = folders.map { (key: $0.0, path: $0.1, real: Self.resolvingLinks($0.1)) }
        var problems: [String] = []
        for outer in resolved where outer.key != "catalog" {
            for inner in resolved where inner.key != outer.key && !(inner.key == "catalog" && outer.key == "library") {
                if inner.real == outer.real, inner.key < outer.key {
                    problems.append("\(inner.key) and \(outer.key) are the same folder (\(inner.path)): give each its own place, side by side")
                } else if inner.real.hasPrefix(outer.real == "/" ? "/" : outer.real + "/") {
                    problems.append("\(inner.key) (\(inner.path)) lies inside \(outer.key) (\(outer.path)): "
                        + "put them side by side, neither inside the other")
                }
            }
        }
        return problems
    }

    /// `path` with the links of its longest existing part resolved, and the rest as written.
    static func resolvingLinks(_ path: String) -> String {
        var existing = (path as NSString).standardizingPath
        var rest: [String] = []
        while !FileManager.default.fileExists(atPath: existing), existing != "/" {
            rest.insert((existing as NSString).lastPathComponent, at: 0)
            existing = (existing as NSString).deletingLastPathComponent
        }
        let real = URL(fileURLWithPath: existing).resolvingSymlinksInPath().path
        return rest.reduce(real) { ($0 as NSString).appendingPathComponent($1) }
    }
}
