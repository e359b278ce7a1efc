import Foundation
import TestSupport
import XCTest
import Catalog

/// System calls that fail where they almost never do, by a small library preloaded into `ingest`
/// (`LD_PRELOAD`): their failures must be reported, never ignored.
final class FaultInjectionTests: XCTestCase {
    /// `futimens` fails with EIO when INGEST_FAULT is `futimens`; `fsync` of a folder fails with EIO
    /// when it is `folder-fsync`. Everything else goes to the C library.
    private static let source = #"""
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <errno.h>
        #include <stdlib.h>
        #include <string.h>
        #include <sys/stat.h>
        #include <unistd.h>

        static int failing(const char *fault) {
            const char *chosen = getenv("INGEST_FAULT");
            return chosen && strcmp(chosen, fault) == 0;
        }

        int futimens(int fd, const struct timespec times[2]) {
            if (failing("futimens")) { errno = EIO; return -1; }
            int (*real)(int, const struct timespec[2]) = dlsym(RTLD_NEXT, "futimens");
            return real(fd, times);
        }

        int fsync(int fd) {
            struct stat info;
            if (failing("folder-fsync") && fstat(fd, &info) == 0 && S_ISDIR(info.st_mode)) { errno = EIO; return -1; }
            int (*real)(int) = dlsym(RTLD_NEXT, "fsync");
            return real(fd);
        }
        """#

    /// The preloadable library, built once with the system's C compiler.
    private static let library = Result<String, any Error> {
        let folder = try TemporaryFolder.make("faults")
        try source.write(to: folder.appendingPathComponent("faults.c"), atomically: true, encoding: .utf8)
        _ = try IngestHarness.shell("cc -shared -fPIC -o faults.so faults.c -ldl", in: folder)
        return folder.appendingPathComponent("faults.so").path
    }

    override class func tearDown() {
        if case .success(let path) = library { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        super.tearDown()
    }

    /// `ingest run` over the samples with `fault` injected.
    private func run(_ fault: String, settings: [String: Any] = [:]) throws -> (work: SampleLibrary, stdout: String, status: String) {
        let work = try SampleLibrary(for: self, settings: settings)
        let output = try IngestHarness.shell("""
            LD_PRELOAD='\(try Self.library.get())' INGEST_FAULT=\(fault) '\(IngestHarness.binary.path)' run --config pipeline.json 2>&1; \
            echo "exit $?"
            """, in: work.folder)
        return (work, output, String(output.split(separator: "\n").last ?? ""))
    }

    func testCopy_whoseTimeCannotBeSet_failsNamingTheCause() throws {
        // The copy used to keep going without the original's time, then fail the change check as
        // "changed while being ingested", and so on every retry.
        let (work, output, status) = try run("futimens", settings: ["originals": "copy"])
        XCTAssertEqual(status, "exit 1")
        XCTAssertTrue(output.contains("cannot set the times of"), output)
        XCTAssertFalse(output.contains("changed while being ingested"), output)
        XCTAssertEqual(try work.catalogue().counts().photos, 0)
    }

    func testFolderFlushThatFails_isNotTakenForDone() throws {
        // A folder's new names not on the disk may be gone after a power cut: the commit protocol
        // counts on them, so the failure must stop the commit, not be ignored.
        let (work, output, status) = try run("folder-fsync")
        XCTAssertEqual(status, "exit 1")
        XCTAssertTrue(output.contains("cannot flush the folder"), output)
        XCTAssertEqual(try work.catalogue().counts().photos, 0, "nothing committed without its folders flushed")
    }
}
