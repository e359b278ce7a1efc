import Foundation
import Logging

/// Where things live in the library. Paths in the catalogue are relative to its root.
struct LibraryLayout {
    var root: String
    var quarantine: String

    var staging: String { (root as NSString).appendingPathComponent(".staging") }
    var journal: String { (root as NSString).appendingPathComponent(".journal") }
    /// The photos each worker is reading now (`PhotosInFlight`).
    var inFlight: String { (root as NSString).appendingPathComponent(".inflight") }
    /// The photos a process died while reading, until they leave the inbox.
    var crashes: String { (root as NSString).appendingPathComponent(".crashes") }
    var duplicates: String { (quarantine as NSString).appendingPathComponent("duplicates") }

    func originalPath(set: String, file: String) -> String { "originals/\(set)/\(file)" }

    /// Where a set's `capture.json` is kept: beside its originals.
    func contextPath(set: String) -> String { originalPath(set: set, file: CaptureContext.fileName) }

    func thumbPath(set: String, file: String) -> String {
        "thumbs/\(set)/\((file as NSString).deletingPathExtension).jpg"
    }

    func absolute(_ relative: String) -> String { (root as NSString).appendingPathComponent(relative) }

    func relative(_ absolute: String) -> String {
        absolute.hasPrefix(root + "/") ? String(absolute.dropFirst(root.count + 1)) : absolute
    }
}
