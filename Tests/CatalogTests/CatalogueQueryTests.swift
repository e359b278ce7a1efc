@testable import Catalog
import Foundation
import XCTest

final class CatalogueQueryTests: CatalogueTestCase {
    /// Commits each capture with one photo of its own.
    private func commit(_ catalogue: Catalogue, _ captures: [Capture]) throws {
        for (index, capture) in captures.enumerated() {
            let photo = makePhoto(id: "\(capture.id)-p0", captureId: capture.id, seed: 1000 + index)
            try catalogue.commit(CommittedSet(captures: [capture], photos: [photo], hits: []))
        }
    }

    private func ids(_ catalogue: Catalogue, _ filter: CaptureFilter) throws -> [String] {
        try catalogue.captures(matching: filter).map(\.id)
    }

    func testPhotosWithSHA256_mixOfKnownAndUnknown_returnsOnlyCatalogued() {
        onEveryBackend { catalogue in
            try catalogue.commit(makeSet(captureId: "c1", photoCount: 2, firstSeed: 1))

            let found = try catalogue.photos(withSHA256: [makeHash(2), makeHash(99), makeHash(1)])
            XCTAssertEqual(Set(found.keys), [makeHash(1), makeHash(2)])
            XCTAssertEqual(found[makeHash(2)]?.id, "c1-p1")
            XCTAssertEqual(try catalogue.photos(withSHA256: []), [:])
        }
    }

    func testPhotosWithSHA256_moreHashesThanOneChunk_findsEveryChunk() {
        onEveryBackend { catalogue in
            let stored = Catalogue.hashChunkSize + 100
            try catalogue.commit(makeSet(captureId: "big", photoCount: stored, firstSeed: 0))

            let asked = (0 ..< stored * 2).map(makeHash)
            let found = try catalogue.photos(withSHA256: asked)
            XCTAssertEqual(found.count, stored)
            XCTAssertEqual(Set(found.keys), Set(asked.prefix(stored)))
        }
    }

    func testCapturesMatching_defaultFilter_returnsNewestFirstThenByIdDescending() {
        onEveryBackend { catalogue in
            try commit(catalogue, [
                makeCapture(id: "b", capturedUTC: 100),
                makeCapture(id: "a", capturedUTC: 100),
                makeCapture(id: "c", capturedUTC: 300),
                makeCapture(id: "d", capturedUTC: 200),
            ])
            XCTAssertEqual(try ids(catalogue, CaptureFilter()), ["c", "d", "b", "a"])
        }
    }

    func testCapturesMatching_barcode_matchesBarcodeOrGTIN13() {
        onEveryBackend { catalogue in
            try commit(catalogue, [
                makeCapture(id: "upc", barcode: "036000291452", gtin13: "0036000291452"),
                makeCapture(id: "ean", barcode: "4006381333931", gtin13: "4006381333931"),
                makeCapture(id: "none", barcode: nil, gtin13: nil),
            ])
            XCTAssertEqual(try ids(catalogue, CaptureFilter(barcode: "036000291452")), ["upc"])
            XCTAssertEqual(try ids(catalogue, CaptureFilter(barcode: "0036000291452")), ["upc"])
            XCTAssertEqual(try ids(catalogue, CaptureFilter(barcode: "4006381333931")), ["ean"])
            XCTAssertEqual(try ids(catalogue, CaptureFilter(barcode: "0000")), [])
        }
    }

    func testCapturesMatching_noBarcode_returnsOnlyCapturesWithoutBarcode() {
        onEveryBackend { catalogue in
            try commit(catalogue, [
                makeCapture(id: "with", capturedUTC: 200),
                makeCapture(id: "without-1", barcode: nil, gtin13: nil, capturedUTC: 100),
                makeCapture(id: "without-2", barcode: nil, gtin13: nil, capturedUTC: 300),
            ])
            XCTAssertEqual(try ids(catalogue, CaptureFilter(noBarcode: true)), ["without-2", "without-1"])
        }
    }

    func testCapturesMatching_sinceAndUntil_selectHalfOpenRange() {
        onEveryBackend { catalogue in
            try commit(catalogue, [100, 200, 300, 400].map { makeCapture(id: "t\(Int($0))", capturedUTC: $0) })

            XCTAssertEqual(try ids(catalogue, CaptureFilter(since: 200)), ["t400", "t300", "t200"])
            XCTAssertEqual(try ids(catalogue, CaptureFilter(until: 300)), ["t200", "t100"])
            XCTAssertEqual(try ids(catalogue, CaptureFilter(since: 200, until: 400)), ["t300", "t200"])
        }
    }

    func testCapturesMatching_setNameAndRating_combineWithAnd() {
        onEveryBackend { catalogue in
            try commit(catalogue, [
                makeCapture(id: "a-good", setName: "a", capturedUTC: 100, rating: .good),
                makeCapture(id: "a-poor", setName: "a", capturedUTC: 200, quality: 0.1, rating: .poor),
                makeCapture(id: "b-good", setName: "b", capturedUTC: 300, rating: .good),
            ])
            XCTAssertEqual(try ids(catalogue, CaptureFilter(setName: "a")), ["a-poor", "a-good"])
            XCTAssertEqual(try ids(catalogue, CaptureFilter(rating: .good)), ["b-good", "a-good"])
            XCTAssertEqual(try ids(catalogue, CaptureFilter(setName: "a", rating: .good)), ["a-good"])
        }
    }

    func testCaptureIdPrefix_uniquePrefix_returnsThatCapture() {
        onEveryBackend { catalogue in
            try commit(catalogue, [makeCapture(id: "3f2a9c00-aaaa"), makeCapture(id: "3f2b0000-bbbb")])
            XCTAssertEqual(try catalogue.capture(idPrefix: "3f2a")?.id, "3f2a9c00-aaaa")
            XCTAssertEqual(try catalogue.capture(idPrefix: "3F2B")?.id, "3f2b0000-bbbb")
        }
    }

    func testCaptureIdPrefix_sharedPrefix_throwsAmbiguousIdWithCount() {
        onEveryBackend { catalogue in
            try commit(catalogue, [makeCapture(id: "3f2a-1"), makeCapture(id: "3f2a-2"), makeCapture(id: "9999")])
            assertThrows(.ambiguousId("3f2a", 2)) {
                try catalogue.capture(idPrefix: "3f2a")
            }
        }
    }

    func testCaptureIdPrefix_noMatch_returnsNil() {
        onEveryBackend { catalogue in
            try commit(catalogue, [makeCapture(id: "3f2a-1")])
            XCTAssertNil(try catalogue.capture(idPrefix: "4444"))
        }
    }

    func testCaptureIdPrefix_shorterThanFourCharacters_matchesNothing() {
        onEveryBackend { catalogue in
            // An empty prefix used to match every capture, so `ingest delete ''` deleted the only one.
            try commit(catalogue, [makeCapture(id: "3f2a-1")])
            for prefix in ["", "3", "3f2"] { XCTAssertNil(try catalogue.capture(idPrefix: prefix), "'\(prefix)'") }
            XCTAssertEqual(try catalogue.capture(idPrefix: "3f2a")?.id, "3f2a-1")
        }
    }

    func testCaptureIdPrefix_likeWildcards_matchLiterally() {
        onEveryBackend { catalogue in
            try commit(catalogue, [makeCapture(id: "abcde"), makeCapture(id: "a_cde")])
            XCTAssertNil(try catalogue.capture(idPrefix: "%%%%"))
            XCTAssertEqual(try catalogue.capture(idPrefix: "a_cd")?.id, "a_cde")
        }
    }

    func testHitsOfPhoto_severalHits_returnsThemInInsertOrder() {
        onEveryBackend { catalogue in
            var set = makeSet(captureId: "c1", photoCount: 1, firstSeed: 1)
            set.hits = ["4006381333931", "QR-PAYLOAD", "036000291452"].map { makeHit(photoId: "c1-p0", text: $0) }
            try catalogue.commit(set)

            let hits = try catalogue.hits(ofPhoto: "c1-p0")
            XCTAssertEqual(hits.map(\.text), ["4006381333931", "QR-PAYLOAD", "036000291452"])
            XCTAssertEqual(hits.map(\.gtin13), ["4006381333931", nil, nil])
        }
    }

    func testPhotosOfCapture_insertedOutOfOrder_returnsByPosition() {
        onEveryBackend { catalogue in
            var set = makeSet(captureId: "c1", photoCount: 3, firstSeed: 1)
            set.photos.reverse()
            try catalogue.commit(set)
            XCTAssertEqual(try catalogue.photos(ofCapture: "c1").map(\.position), [0, 1, 2])
        }
    }

    func testPages_limitAndBefore_walkEveryCaptureOnceInOrder() {
        onEveryBackend { catalogue in
            try commit(catalogue, (0 ..< 7).map { makeCapture(id: "c\($0)", capturedUTC: Double(100 + $0 / 2)) })
            let all = try ids(catalogue, CaptureFilter())
            var walked: [String] = []
            var cursor: CaptureCursor?
            repeat {
                let page = try catalogue.captures(limit: 3, before: cursor)
                walked += page.map(\.id)
                cursor = page.last.map(CaptureCursor.init)
                XCTAssertEqual(try catalogue.count(before: cursor), all.count - walked.count)
            } while walked.count < all.count
            XCTAssertEqual(walked, all)
            XCTAssertEqual(all, ["c6", "c5", "c4", "c3", "c2", "c1", "c0"])
        }
    }

    func testForEachCapture_matchesCapturesMatching() {
        onEveryBackend { catalogue in
            try commit(catalogue, (0 ..< 5).map { makeCapture(id: "c\($0)", setName: $0 % 2 == 0 ? "even" : "odd", capturedUTC: Double($0)) })
            var seen: [String] = []
            try catalogue.forEachCapture(matching: CaptureFilter(setName: "even")) { capture, _ in seen.append(capture.id) }
            XCTAssertEqual(seen, try ids(catalogue, CaptureFilter(setName: "even")))
            XCTAssertEqual(try catalogue.count(matching: CaptureFilter(setName: "even")), 3)
        }
    }
}
