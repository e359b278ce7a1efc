import Catalog
import Foundation
import Logging
import TestSupport
import Vocabulary
import XCTest

// Small factories for records that satisfy every constraint of the schema;
// tests override only the fields they are about.

/// A logger for catalogues under test, quiet unless something goes wrong.
let testLogger: Logger = {
    var logger = Logger(label: "CatalogTests")
    logger.logLevel = .warning
    return logger
}()

/// A valid 64-character lower-case hex hash, different for every `seed`.
func makeHash(_ seed: Int) -> String {
    String(format: "%064x", seed)
}

/// A capture with one photo, taken at `capturedUTC`.
func makeCapture(id: String, setName: String = "shelf-1", barcode: String? = "4006381333931",
                 gtin13: String? = "4006381333931", capturedUTC: Double = 1_700_000_000,
                 photoCount: Int = 1, quality: Double = 0.8, rating: Rating = .good) -> Capture {
    Capture(id: id, runId: nil, setName: setName, barcode: barcode, symbology: barcode == nil ? nil : .ean13,
            gtin13: gtin13, capturedAt: "2023-11-14T22:13:20Z", capturedUTC: capturedUTC, timeSource: .exif,
            photoCount: photoCount, quality: quality, rating: rating, createdAt: "2024-01-01T00:00:00Z")
}

/// A photo of `captureId` whose hash is `makeHash(seed)` and whose paths are unique per `id`.
func makePhoto(id: String, captureId: String, position: Int = 0, seed: Int,
               originalName: String? = nil) -> Photo {
    Photo(id: id, captureId: captureId, position: position, originalName: originalName ?? "\(id).jpg",
          sourcePath: "\(id).jpg", originalPath: "originals/\(id).jpg", thumbPath: "thumbs/\(id).jpg",
          thumbWidth: 320, thumbHeight: 240, sha256: makeHash(seed), byteSize: 123_456, format: .jpeg,
          width: 4000, height: 3000, orientation: 1, make: "Canon", model: nil,
          takenAt: "2023-11-14T22:13:20+01:00", takenUTC: 1_700_000_000 + Double(position), timeSource: .exif,
          sharpness: 0.7, contrast: 0.5, brightness: 0.4, decodeConfidence: nil, quality: 0.75, rating: .good)
}

/// A barcode hit on `photoId`.
func makeHit(photoId: String, text: String = "4006381333931") -> BarcodeHit {
    BarcodeHit(photoId: photoId, symbology: .ean13, text: text, gtin13: text.count == 13 ? text : nil,
               quality: 3, x: 10, y: 20, width: 300, height: 120)
}

/// One capture with `photoCount` photos (hashes `firstSeed`, `firstSeed + 1`, …), each with one hit.
func makeSet(captureId: String, setName: String = "shelf-1", photoCount: Int = 2, firstSeed: Int,
             capturedUTC: Double = 1_700_000_000) -> CommittedSet {
    let capture = makeCapture(id: captureId, setName: setName, capturedUTC: capturedUTC, photoCount: photoCount)
    let photos = (0 ..< photoCount).map { position in
        makePhoto(id: "\(captureId)-p\(position)", captureId: captureId, position: position,
                  seed: firstSeed + position)
    }
    return CommittedSet(captures: [capture], photos: photos, hits: photos.map { makeHit(photoId: $0.id) })
}

extension XCTestCase {
    /// Asserts that `body` throws exactly `expected`.
    func assertThrows<T>(_ expected: CatalogError, file: StaticString = #filePath, line: UInt = #line,
                         _ body: () throws -> T) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertEqual(error as? CatalogError, expected, "\(error)", file: file, line: line)
        }
    }
}

/// The two databases every catalogue test runs on.
enum Backend: String, CaseIterable {
    case sqlite = "SQLite"
    case postgres = "PostgreSQL"
}

/// A test of the catalogue that runs its body on every backend: SQLite, and PostgreSQL on the
/// throwaway cluster of `PostgresServer` (a database per catalogue, dropped when the test ends).
/// A failure names the backend it happened on.
class CatalogueTestCase: XCTestCase {
    /// The backend the test's body runs on now.
    private(set) var backend: Backend?

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
                                expected: Bool) {
        let prefix = backend.map { "[\($0.rawValue)] " } ?? ""
        super.recordFailure(withDescription: prefix + description, inFile: filePath, atLine: lineNumber, expected: expected)
    }

    /// Runs `body` once per backend with a new empty catalogue (SQLite in memory, or in a file with
    /// `onDisk`); an error it throws fails the test on that backend and the next backend still runs.
    func onEveryBackend(onDisk: Bool = false, file: StaticString = #filePath, line: UInt = #line,
                        _ body: (Catalogue) throws -> Void) {
        for backend in Backend.allCases {
            onBackend(backend, file: file, line: line) {
                let catalogue = try makeCatalogue(on: backend, onDisk: onDisk)
                defer { try? catalogue.close() }
                try body(catalogue)
            }
        }
    }

    /// Runs `body` as a test on `backend`: an error it throws fails the test, naming the backend.
    func onBackend(_ backend: Backend, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) {
        self.backend = backend
        defer { self.backend = nil }
        do {
            try body()
        } catch {
            XCTFail("threw \(error)", file: file, line: line)
        }
    }

    /// A new empty catalogue on `backend`.
    func makeCatalogue(on backend: Backend, onDisk: Bool = false) throws -> Catalogue {
        if backend == .sqlite, !onDisk { return try Catalogue.inMemory(logger: testLogger) }
        return try Catalogue(makeLocation(on: backend), logger: testLogger)
    }

    /// Where a new catalogue on `backend` goes: a SQLite file in a temporary folder, or a new
    /// database of the test cluster.
    func makeLocation(on backend: Backend) throws -> CatalogueLocation {
        switch backend {
        case .sqlite:
            return .sqlite(path: try makeTemporaryFolder() + "/catalog.sqlite")
        case .postgres:
            let server = try PostgresServer.shared
            let database = try server.makeDatabase()
            addTeardownBlock { try? server.dropDatabase(database) }
            return .postgres(url: server.url(database: database))
        }
    }
}
