import FileSystem
import Foundation
internal import SystemPackage

extension FileOperations {
    /// Moves `source` out of the way to `desired` (or `name (2).ext`… when taken) with a `.reason`
    /// note beside it, as the quarantine keeps files; returns where it went. Never overwrites.
    static func setAside(_ source: FilePath, to desired: FilePath, label: String, reason: String) throws -> FilePath {
        var taken = Set<FilePath>()
        let destination = unusedPath(desired, taken: &taken)
        try setAside(source, at: destination, note: reasonNote(label: label, reason: reason))
        return destination
    }

    /// What a `.reason` note says about the file `label`.
    static func reasonNote(label: String, reason: String) -> String {
        "file: \(label)\nreason: \(reason)\nat: \(Date())\n"
    }

    /// The reason a note of `reasonNote(label:reason:)` gives; nil when `note` holds none.
    static func reason(inNote note: String) -> String? {
        note.split(separator: "\n").first { $0.hasPrefix("reason: ") }.map { String($0.dropFirst("reason: ".count)) }
    }

    /// Puts `source` aside at `destination` with `note` in `<destination>.reason`. The note is written
    /// first (replacing one an interrupted attempt left), then the file is moved: a crash leaves the
    /// file where it was, or the file and its note in place. Calling it again with the same arguments
    /// finishes what a crash interrupted, so a commit journal can replay it.
    static func setAside(_ source: FilePath, at destination: FilePath, note: String) throws {
        let notePath = FilePath(destination.string + ".reason")
        switch (exists(source), exists(destination)) {
        case (true, false):
            try makeDirectories(destination.removingLastComponent())
            try write(Array(note.utf8), to: notePath, replacing: true)
            do {
                try move(source, to: destination)
            } catch {
                try? remove(notePath)
                throw error
            }
        case (true, true):
            // A move across file systems had copied the file and not yet removed the source.
            guard let moving = FileIdentity.of(source), let moved = FileIdentity.of(destination),
                  moving.hasSameContent(as: moved) else {
                throw FileOperationError(operation: "set aside \(source) at", path: destination, code: EEXIST)
            }
            try remove(source)
        case (false, true):
            if !exists(notePath) { try write(Array(note.utf8), to: notePath, replacing: true) }
        case (false, false):
            // The file went away before it was moved, and not by our hand: the note describes nothing.
            try remove(notePath)
        }
    }
}
