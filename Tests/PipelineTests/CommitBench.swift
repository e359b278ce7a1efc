import Catalog
import Foundation
import Logging
import Synchronization
@testable import Imaging
@testable import Pipeline
import TestSupport
import XCTest
import SystemPackage

/// A work folder for driving the commit protocol step by step: an inbox with one set `shelf` — three
/// photos, a byte-identical copy of the first, a text file posing as a photo — an empty library, a
/// quarantine and a catalogue file.
final class CommitBench {
    /// The set's files, made once per process by `makeShelf(in:)`.
    nonisolated(unsafe) private static var shelf: String?

    let config: PipelineConfig
    let layout: LibraryLayout
    let catalogue: Catalogue
    /// This bench as one worker of a shared (PostgreSQL) catalogue, which claims each set before
    /// committing it; nil on SQLite, where the library's lock makes every commit the only one.
    let worker: WorkerSession?
    private let logger = Logger(label: "test")

    /// - Parameter catalog: the catalogue's path or URL; a SQLite file in the library by default.
    init(for test: XCTestCase, originals: PipelineConfig.Originals = .move, catalog: String? = nil) throws {
        let root = FilePath(try test.makeTemporaryFolder())
        var config = PipelineConfig(folder: root)
        config.originals = originals
        config.workers = 1
        if let catalog { config.catalog = catalog }
        self.config = config
        layout = LibraryLayout(root: config.library, quarantine: config.quarantine)
        try FileManager.default.createDirectory(atPath: config.inbox.string, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try Self.shelfFiles(), toPath: config.inbox.appending("shelf").string)
        try FileManager.default.createDirectory(atPath: layout.staging.string, withIntermediateDirectories: true)
        catalogue = try Catalogue(config.catalogLocation, logger: logger)
        if catalogue.location.isShared {
            let worker = try WorkerSession.start(catalogue: catalogue, leaseSeconds: 60, logger: logger)
            test.addTeardownBlock { worker.end() }
            self.worker = worker
        } else {
            worker = nil
        }
    }

    var setFolder: FilePath { config.inbox.appending("shelf") }

    /// A new committer, as a restarted process would make.
    func committer() -> SetCommitter {
        SetCommitter(config: config, layout: layout, catalogue: catalogue, logger: logger, worker: worker)
    }

    /// The set `name` as it is in the inbox now, analysed.
    func analyse(_ name: String = "shelf") throws -> (PhotoSet, [PhotoOutcome]) {
        let set = try PhotoSet(name: name, folder: config.inbox.appending(name))
        let analyzer = try PhotoAnalyzer(config: config, stagingFolder: layout.staging)
        return (set, set.files.map { analyzer.analyse($0, catalogued: catalogue.photo(withSHA256:)) })
    }

    /// Analyses the set as it is now and commits it.
    @discardableResult
    func commit() throws -> SetReport {
        let (set, results) = try analyse()
        return try commit(set, results)
    }

    /// Groups, plans and commits analysed `results` as a run does, with a new committer.
    func commit(_ set: PhotoSet, _ results: [PhotoOutcome]) throws -> SetReport {
        try run.commit(set, results, runId: nil, committer: committer())
    }

    /// The plan a run makes for analysed `results`.
    func plan(_ set: PhotoSet, _ results: [PhotoOutcome]) throws -> CommitPlan {
        try run.plan(set, results, runId: nil, committer: committer())
    }

    /// A run over the bench's library.
    var run: IngestRun { IngestRun(config: config, catalogue: catalogue, logger: logger) }

    /// Every file and folder (ending in `/`) below the work folder, without the catalogue's files;
    /// symbolic links not followed.
    var state: [String] {
        let root = config.inbox.removingLastComponent()
        var found: [String] = []
        let walker = FileManager.default.enumerator(atPath: root.string)
        while let path = walker?.nextObject() as? String {
            guard !path.hasPrefix("library/catalog.sqlite") else { continue }
            var info = stat()
            let isFolder = lstat(root.appending(path).string, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            found.append(isFolder ? path + "/" : path)
        }
        return found.sorted()
    }

    /// What `ingest verify` would report.
    func verify() throws -> [LibraryProblem] {
        let problems = Mutex<[LibraryProblem]>([])
        _ = try LibraryVerifier(config: config, catalogue: catalogue, logger: logger).verify { problem in
            problems.withLock { $0.append(problem) }
        }
        return problems.withLock { $0 }
    }

    /// `results` as a read that saw the file `name` change while it read it gives them: that file
    /// rejected as changed, and no thumbnail staged for it.
    static func changedWhileRead(_ results: [PhotoOutcome], _ name: String) -> [PhotoOutcome] {
        results.map { outcome in
            guard case .analysed(let photo) = outcome, photo.file.name == name else { return outcome }
            unlink(photo.thumbnail.path.string)
            return .rejected(photo.file, .changedWhileReading)
        }
    }

    /// The absolute path of `relative` below the work folder.
    func path(_ relative: String) -> FilePath {
        config.inbox.removingLastComponent().appending(relative)
    }

    private static func shelfFiles() throws -> String {
        if let shelf { return shelf }
        let folder = (try makeDetachedTemporaryFolder() as NSString).appendingPathComponent("shelf")
        _ = try runPython(shelfScript, arguments: [folder])
        shelf = folder
        // Kept for every test of the process: removed, with the folder made for it, when it exits.
        atexit {
            if let shelf = CommitBench.shelf { try? FileManager.default.removeItem(atPath: (shelf as NSString).deletingLastPathComponent) }
        }
        return folder
    }

    /// Three 320×240 photos taken seconds apart (one capture), a copy of the first, and a text file.
    private static let shelfScript = #"""
    import io, os, sys
    import numpy as np, piexif
    from PIL import Image
    out = sys.argv[1]
    os.makedirs(out)
    for i in range(3):
        pixels = np.random.default_rng(i).integers(0, 256, (240, 320, 3), dtype=np.uint8)
        exif = piexif.dump({"Exif": {piexif.ExifIFD.DateTimeOriginal: b"2026:11:20 09:00:%02d" % (10 * i)}})
        buf = io.BytesIO(); Image.fromarray(pixels, "RGB").save(buf, "JPEG", quality=80, exif=exif)
        for name in [f"IMG_000{i + 1}.jpg"] + (["copy_of_IMG_0001.jpg"] if i == 0 else []):
            open(os.path.join(out, name), "wb").write(buf.getvalue())
    open(os.path.join(out, "text.jpg"), "w").write("not a photo\n")
    """#
}
