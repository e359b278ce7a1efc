internal import SystemPackage

/// Where things live in the library. Paths in the catalogue are relative to its root.
struct LibraryLayout {
    var root: FilePath
    var quarantine: FilePath

    var staging: FilePath { root.appending(".staging") }
    var journal: FilePath { root.appending(".journal") }
    /// The photos each worker is reading now (`PhotosInFlight`).
    var inFlight: FilePath { root.appending(".inflight") }
    /// The photos a process died while reading, until they leave the inbox.
    var crashes: FilePath { root.appending(".crashes") }
    var duplicates: FilePath { quarantine.appending("duplicates") }

    func originalPath(set: String, file: String) -> String { "originals/\(set)/\(file)" }

    /// Where a set's `capture.json` is kept: beside its originals.
    func contextPath(set: String) -> String { originalPath(set: set, file: CaptureContext.fileName) }

    func thumbPath(set: String, file: String) -> String {
        var thumb = FilePath("thumbs").appending(set).appending(file)
        thumb.extension = "jpg"
        return thumb.string
    }

    /// The file at `relative`, a path as the catalogue holds it.
    func absolute(_ relative: String) -> FilePath { root.appending(relative) }

    /// `absolute` as the catalogue holds it: relative to the root when it lies below it.
    func relative(_ absolute: FilePath) -> String {
        var relative = absolute
        return absolute != root && relative.removePrefix(root) ? relative.string : absolute.string
    }
}
