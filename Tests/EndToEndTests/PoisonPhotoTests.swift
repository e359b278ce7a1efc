import Foundation
import TestSupport
import XCTest
import Catalog

/// A photo whose bytes make a C library abort the process (as Debian's zxing-cpp 1.4, built with its
/// assertions on, did on some images): after at most two crashes it is quarantined, and every other
/// photo is catalogued. A library preloaded into `ingest` (`LD_PRELOAD`) makes libjpeg's
/// `jpeg_start_decompress` abort while the thread decodes the photo named by `INGEST_POISON`:
/// libjpeg is a shared library every JPEG decode calls into (through libvips), which `LD_PRELOAD`
/// reaches; ZBar and zxing-cpp are linked into ingest statically, where it does not.
final class PoisonPhotoTests: XCTestCase {
    /// Notes, per thread, whether the photo the thread last opened through `ContainedPath`'s
    /// `/proc/self/fd/N/name` is the poison; libjpeg aborts on such a thread.
    private static let source = #"""
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <fcntl.h>
        #include <stdarg.h>
        #include <stdlib.h>
        #include <string.h>

        static __thread int poisoned;

        static void note(const char *path) {
            const char *poison = getenv("INGEST_POISON");
            if (!poison || !path || strncmp(path, "/proc/self/fd/", 14) != 0) return;
            const char *name = strrchr(path, '/');
            poisoned = strcmp(name + 1, poison) == 0;
        }

        #define OPEN(symbol) \
            int symbol(const char *path, int flags, ...) { \
                va_list arguments; \
                va_start(arguments, flags); \
                mode_t mode = (flags & (O_CREAT | O_TMPFILE)) ? va_arg(arguments, mode_t) : 0; \
                va_end(arguments); \
                note(path); \
                int (*real)(const char *, int, ...) = dlsym(RTLD_NEXT, #symbol); \
                return real(path, flags, mode); \
            }
        OPEN(open)
        OPEN(open64)

        int jpeg_start_decompress(void *decompressor) {
            if (poisoned) abort();
            int (*real)(void *) = dlsym(RTLD_NEXT, "jpeg_start_decompress");
            return real(decompressor);
        }
        """#

    private static let library = Result<String, any Error> {
        let folder = try TemporaryFolder.make("poison")
        try source.write(to: folder.appendingPathComponent("poison.c"), atomically: true, encoding: .utf8)
        _ = try IngestHarness.shell("cc -shared -fPIC -o poison.so poison.c -ldl", in: folder)
        return folder.appendingPathComponent("poison.so").path
    }

    override class func tearDown() {
        if case .success(let path) = library { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        super.tearDown()
    }

    /// A photo of a set of several: the other worker reads its neighbours when it crashes.
    private let poison = (set: "shelf-dump", file: "IMG_0005.jpg")
    private let reason = "the process died twice while reading this photo: SIGABRT"

    private func environment() throws -> [String: String] {
        // Swift's backtracer would spend seconds on each crash; the crash is what is tested here.
        ["LD_PRELOAD": try Self.library.get(), "INGEST_POISON": poison.file, "SWIFT_BACKTRACE": "enable=no"]
    }

    func testRun_photoThatAbortsTheProcess_isQuarantinedAfterTwoCrashes_everyOtherPhotoCatalogued() throws {
        let work = try SampleLibrary(for: self, settings: ["workers": 2])
        let variables = try environment().map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        var statuses: [String] = []
        var output = ""
        for _ in 1 ... 4 {
            output = try IngestHarness.shell(
                "env \(variables) '\(IngestHarness.binary.path)' run --quiet 2>&1; echo \"exit $?\"", in: work.folder)
            let status = String(output.split(separator: "\n").last ?? "")
            statuses.append(status)
            if status != "exit 134" { break }
        }
        XCTAssertEqual(statuses, ["exit 134", "exit 134", "exit 1"], "two crashes, then a run that quarantines: \(output)")
        XCTAssertTrue(output.contains(reason), output)

        let quarantined = work.quarantine.appendingPathComponent("\(poison.set)/\(poison.file)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: quarantined.path), "the photo is kept in the quarantine")
        let note = try String(contentsOf: quarantined.appendingPathExtension("reason"), encoding: .utf8)
        XCTAssertTrue(note.contains(reason), note)
        // The samples' 17 photos but the poison; the three bad files are quarantined as always,
        // and the photo read beside the poison at the first crash is not blamed.
        XCTAssertEqual(try work.catalogue().counts().photos, 16)
        XCTAssertEqual(try quarantinedFiles(work), ["bad-files/not_a_photo.jpg", "bad-files/zz_empty.jpg",
                                                    "bad-files/zz_truncated.jpg", "\(poison.set)/\(poison.file)"])
        XCTAssertEqual(try IngestHarness.libraryProblems(in: work.folder), [])
        XCTAssertFalse(work.libraryFiles().contains { $0.hasPrefix(".inflight/") || $0.hasPrefix(".crashes/") },
                       "\(work.libraryFiles())")
    }

    func testRun_killedWithoutACrash_blamesNoPhoto() throws {
        // SIGKILL is an operator's or the OOM killer's decision, not a photo's: the photos in
        // flight are read again as usual, however often it happens.
        let work = try SampleLibrary(for: self, settings: ["workers": 2])
        for _ in 1 ... 2 {
            let run = try BackgroundIngest(["run", "--quiet"], in: work.folder)
            XCTAssertTrue(IngestHarness.eventually(within: 30) {
                FileManager.default.fileExists(atPath: work.library.appendingPathComponent(".inflight").path)
            })
            run.signal(SIGKILL)
            XCTAssertNotNil(run.exitStatus(within: 10))
        }
        try work.run()
        XCTAssertEqual(try work.catalogue().counts().photos, 17)
        XCTAssertEqual(try quarantinedFiles(work).count, 3)
    }

    func testWatch_underARestartLoop_settlesAfterAtMostTwoCrashes() throws {
        // As systemd's Restart= does: start the watch again whenever it dies.
        let work = try SampleLibrary(for: self, settings: ["workers": 2, "settleSeconds": 1])
        var crashes = 0
        var settled = false
        let deadline = Date().addingTimeInterval(120)
        while !settled, crashes <= 3, Date() < deadline {
            let watch = try BackgroundIngest(["watch"], in: work.folder, environment: try environment())
            // The catalogue is read once the watch made it: two processes must not create it at once.
            settled = IngestHarness.eventually(within: 40) {
                watch.exitStatus(within: 0) != nil
                    || (watch.stderr.contains("watching the inbox") && (try? work.catalogue().counts().photos) == 16)
            } && watch.exitStatus(within: 0) == nil
            if settled {
                watch.signal(SIGTERM)
                XCTAssertEqual(watch.exitStatus(within: 30), 0, watch.stderr)
            } else if watch.endedBySignal {
                crashes += 1
            } else {
                XCTFail("the watch neither crashed nor settled: \(watch.stderr)")
                break
            }
        }
        XCTAssertTrue(settled, "the watch settled")
        XCTAssertLessThanOrEqual(crashes, 2)
        XCTAssertEqual(try quarantinedFiles(work).last, "\(poison.set)/\(poison.file)")
    }

    /// The files in the quarantine, without their `.reason` notes.
    private func quarantinedFiles(_ work: SampleLibrary) throws -> [String] {
        IngestHarness.files(under: work.quarantine).filter { !$0.hasSuffix(".reason") }
    }
}
