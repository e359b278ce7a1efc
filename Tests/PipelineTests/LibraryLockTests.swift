import Foundation
@testable import Imaging
@testable import Pipeline
import XCTest
import SystemPackage

/// The library lock between processes; `flock` also excludes a second open file in one process.
final class LibraryLockTests: XCTestCase {
    private var library = FilePath()

    override func setUpWithError() throws {
        library = FilePath(FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(UUID().uuidString.prefix(8))/library").path)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: library.removingLastComponent().string)
    }

    func testAcquire_newLibrary_createsTheLockFileHoldingOurProcessId() throws {
        let lock = try LibraryLock.acquire(library: library, wait: false)
        defer { lock.release() }
        XCTAssertEqual(lock.path, library.appending(".lock"))
        XCTAssertEqual(try String(contentsOfFile: lock.path.string, encoding: .utf8), "\(getpid())\n")
    }

    func testAcquire_whileHeld_throwsNamingTheLockFileAndTheHolder() throws {
        let lock = try LibraryLock.acquire(library: library, wait: false)
        defer { lock.release() }
        XCTAssertThrowsError(try LibraryLock.acquire(library: library, wait: false)) { error in
            let refusal = error as? LibraryLockError
            XCTAssertEqual(refusal?.holder, getpid())
            XCTAssertEqual(refusal?.path, lock.path)
            XCTAssertTrue("\(error)".contains("process \(getpid()) (lock file \(lock.path))"), "\(error)")
        }
    }

    func testRelease_letsTheNextAcquireSucceed() throws {
        try LibraryLock.acquire(library: library, wait: false).release()
        let again = try LibraryLock.acquire(library: library, wait: false)
        again.release()
    }

    func testAcquire_withWait_blocksUntilTheHolderReleases() throws {
        let held = try LibraryLock.acquire(library: library, wait: false)
        let library = library
        let acquired = expectation(description: "acquired after the release")
        let released = NSLock()
        nonisolated(unsafe) var releasedYet = false
        nonisolated(unsafe) var sawHolder: Int32?
        DispatchQueue.global().async {
            let lock = try? LibraryLock.acquire(library: library, wait: true) { sawHolder = $0 }
            released.lock()
            XCTAssertTrue(releasedYet, "acquired while still held")
            released.unlock()
            XCTAssertNotNil(lock)
            lock?.release()
            acquired.fulfill()
        }
        Thread.sleep(forTimeInterval: 0.3)
        released.lock()
        releasedYet = true
        held.release()
        released.unlock()
        wait(for: [acquired], timeout: 5)
        XCTAssertEqual(sawHolder, getpid())
    }
}
