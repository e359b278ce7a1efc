import Catalog
import FileSystem
import Foundation
internal import SystemPackage

extension PipelineConfig {
    /// Why the folders cannot work together, each naming both keys: the inbox, the library, the
    /// quarantine and a SQLite catalogue may not lie inside one another (links resolved, folders not
    /// yet made taken as they will be), but for the catalogue in the library, its default place. A
    /// library in the inbox would have each run quarantine its own live catalogue and the next ingest
    /// its originals again; a quarantine in the inbox would be quarantined again on every run.
    package var folderProblems: [String] {
        var folders = [("inbox", inbox), ("library", library), ("quarantine", quarantine)]
        if case .sqlite(let path) = catalogLocation { folders.append(("catalog", FilePath(path))) }
        let resolved = folders.map { (key: $0.0, path: $0.1, real: Self.resolvingLinks($0.1)) }
        var problems: [String] = []
        for outer in resolved where outer.key != "catalog" {
            for inner in resolved where inner.key != outer.key && !(inner.key == "catalog" && outer.key == "library") {
                if inner.real == outer.real, inner.key < outer.key {
                    problems.append("\(inner.key) and \(outer.key) are the same folder (\(inner.path)): give each its own place, side by side")
                } else if inner.real != outer.real, inner.real.starts(with: outer.real) {
                    problems.append("\(inner.key) (\(inner.path)) lies inside \(outer.key) (\(outer.path)): "
                        + "put them side by side, neither inside the other")
                }
            }
        }
        return problems
    }

    /// `path` with the links of its longest existing part resolved, and the rest as written.
    static func resolvingLinks(_ path: FilePath) -> FilePath {
        var existing = path.lexicallyNormalized()
        var rest: [FilePath.Component] = []
        while (try? existing.stat()) == nil, let last = existing.lastComponent {
            rest.insert(last, at: 0)
            existing.removeLastComponent()
        }
        return FilePath(URL(fileURLWithPath: existing.string).resolvingSymlinksInPath().path).appending(rest)
    }
}
