@testable import Catalog
import Foundation
import TestSupport
import XCTest

/// The words read on photos (`v11-text`): stored and read back whole, found by search whatever
/// their case and accents, following the photo when it moves or is read again, gone with it.
final class CatalogueTextTests: CatalogueTestCase {
    private func text(_ photoId: String, _ lines: [String], languages: String = "eng+fra+deu",
                      state: PhotoText.State = .read) -> PhotoText {
        var words: [PhotoText.Word] = []
        for (line, text) in lines.enumerated() {
            for (index, word) in text.split(separator: " ").enumerated() {
                words.append(PhotoText.Word(text: String(word), line: line, block: 0, x: 0.1 * Double(index), y: 0.1 * Double(line),
                                            width: 0.08, height: 0.05, confidence: 90 - Double(index)))
            }
        }
        return PhotoText(photoId: photoId, state: state, reason: state == .givenUp ? "took too long" : nil,
                         languages: languages, quarterTurns: 1, words: words, seconds: 0.5, readAt: "2026-12-07T12:00:00Z")
    }

    private func found(_ term: String, _ catalogue: Catalogue) throws -> [String] {
        try catalogue.captures(matching: CaptureFilter(search: term)).map(\.id)
    }

    func testRecordText_readsBackEveryWordAndTheTextLineByLine() {
        onEveryBackend { catalogue in
            try catalogue.commit(makeSet(captureId: "a", firstSeed: 1))
            let stored = text("a-p0", ["Croûtons à l'ail", "250 g"])
            XCTAssertTrue(try catalogue.recordText(stored))
            let read = try XCTUnwrap(try catalogue.texts(ofPhotos: ["a-p0", "a-p1"])["a-p0"])
            XCTAssertEqual(read, stored)
            XCTAssertEqual(read.text, "Croûtons à l'ail\n250 g")
            XCTAssertNil(try catalogue.texts(ofPhotos: ["a-p1"])["a-p1"], "not read yet")
            // More words than one statement inserts (100), read again in their order.
            let page = text("a-p1", (0 ..< 30).map { "line \($0) of small print" })
            XCTAssertTrue(try catalogue.recordText(page))
            XCTAssertEqual(try catalogue.texts(ofPhotos: ["a-p1"])["a-p1"]?.words, page.words)
        }
    }

    func testRecordText_ofAPhotoNoLongerCatalogued_storesNothing() {
        onEveryBackend { catalogue in
            XCTAssertFalse(try catalogue.recordText(text("gone", ["words"])))
            XCTAssertEqual(try catalogue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM photo_text") }, 0)
        }
    }

    func testSearch_findsAWordOnAnyPhoto_foldedAndFollowingReadsMovesAndDeletes() {
        onEveryBackend(onDisk: true) { catalogue in
            try catalogue.commit(makeSet(captureId: "a", setName: "aisle-4", firstSeed: 1, capturedUTC: 100))
            try catalogue.commit(makeSet(captureId: "b", setName: "aisle-5", firstSeed: 10, capturedUTC: 200))
            XCTAssertEqual(try found("croutons", catalogue), [])
            try catalogue.recordText(text("a-p1", ["CROÛTONS à l'ail"]))
            XCTAssertEqual(try found("croutons", catalogue), ["a"], "accents and case folded")
            XCTAssertEqual(try found("Croûtons", catalogue), ["a"])
            XCTAssertEqual(try found("aisle", catalogue), ["b", "a"], "the rest of the text stays")

            // Read again: the new words replace the old.
            try catalogue.recordText(text("a-p1", ["Sea salt chips"]))
            XCTAssertEqual(try found("croutons", catalogue), [])
            XCTAssertEqual(try found("salt chips", catalogue), ["a"])

            // The photo moves to b (a correction): its words go with it; the undo brings them back.
            let move = try catalogue.applyEdit(to: ["a", "b"], origin: "test", madeAt: "t") { found in
                var (from, to) = (found[0], found[1])
                var photo = from.photos.removeLast()
                (photo.captureId, photo.position) = (to.capture.id, to.photos.count)
                to.photos.append(photo)
                from.capture.photoCount = from.photos.count
                to.capture.photoCount = to.photos.count
                return EditPlan(kind: .move, summary: "moved a photo", after: [from, to])
            }
            XCTAssertEqual(try found("salt chips", catalogue), ["b"])
            _ = try catalogue.undoEdit(id: move.id, origin: "test", madeAt: "t2")
            XCTAssertEqual(try found("salt chips", catalogue), ["a"])

            // Deleted, the capture's photos take their words with them; the undo gives them back as
            // they were, without reading the photos again.
            let stored = try catalogue.texts(ofPhotos: ["a-p1"])
            let delete = try catalogue.applyEdit(to: ["a"], origin: "test", madeAt: "t3") { _ in
                EditPlan(kind: .delete, summary: "delete", after: [])
            }
            XCTAssertEqual(try found("salt chips", catalogue), [])
            XCTAssertEqual(try catalogue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM photo_word") }, 0)
            XCTAssertEqual(try catalogue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM photo_text") }, 0)
            _ = try catalogue.undoEdit(id: delete.id, origin: "test", madeAt: "t4")
            XCTAssertEqual(try catalogue.texts(ofPhotos: ["a-p1"]), stored)
            XCTAssertEqual(try found("salt chips", catalogue), ["a"])
            let unread = try catalogue.photosWithoutText(languages: "eng+fra+deu", redo: false, after: nil, limit: 9).map(\.id)
            XCTAssertFalse(unread.contains("a-p1"), "not to be read again: \(unread)")
        }
    }

    func testPhotosWithoutText_givesThoseNeverRead_andWithRedoThoseOfOtherLanguages() {
        onEveryBackend { catalogue in
            try catalogue.commit(makeSet(captureId: "a", photoCount: 3, firstSeed: 1))
            func ids(redo: Bool = false, after: String? = nil, limit: Int = 10) throws -> [String] {
                try catalogue.photosWithoutText(languages: "eng+fra", redo: redo, after: after, limit: limit).map(\.id)
            }
            XCTAssertEqual(try ids(), ["a-p0", "a-p1", "a-p2"])
            XCTAssertEqual(try ids(limit: 2), ["a-p0", "a-p1"])
            XCTAssertEqual(try ids(after: "a-p1"), ["a-p2"], "a reading goes on after the last photo it had")
            try catalogue.recordText(text("a-p0", ["words"], languages: "eng+fra"))
            try catalogue.recordText(text("a-p1", ["words"], languages: "eng", state: .givenUp))
            XCTAssertEqual(try ids(), ["a-p2"], "read or given up, a photo is not read again")
            XCTAssertEqual(try catalogue.countPhotosWithoutText(languages: "eng+fra", redo: false), 1)
            XCTAssertEqual(try ids(redo: true), ["a-p1", "a-p2"], "read in other languages")
            XCTAssertEqual(try catalogue.countPhotosWithoutText(languages: "eng+fra", redo: true), 2)
            XCTAssertEqual(try catalogue.photosWithoutText(languages: "eng+fra", redo: false, runId: 999, after: nil, limit: 9), [],
                           "only the photos of that run")
        }
    }

    func testDisagreements_differMoreThanATenthAndOneUnit_neverPerServing() {
        var product = Product(gtin14: "04006381333931", code: "4006381333931", source: .off)
        (product.energyKcal, product.fat, product.sugars, product.salt, product.proteins) = (500, 20, 5, 0.5, 8)
        var label = LabelNutrition(energyKJ: 2100, energyKcal: 540, fat: 21.5, sugars: 9, protein: 8, salt: 1.4)
        // kcal: 40 off, 7 %; fat: 1.5 g, 7 %; sugars: 4 g, 44 %; salt: 0.9 g, 64 % but under a gram.
        XCTAssertEqual(label.disagreements(with: product).map { $0.key }, ["sugars"])
        XCTAssertEqual(label.disagreements(with: product).first?.database, 5)
        label.energyKcal = 600
        XCTAssertEqual(label.disagreements(with: product).map { $0.key }, ["energyKcal", "sugars"])
        label.perServing = true
        XCTAssertEqual(label.disagreements(with: product).count, 0, "a table per serving is not per 100 g")
    }

    func testReviewQueue_labelAndDatabaseDisagree_listsTheCapturesWhoseValuesDiffer() {
        onEveryBackend { catalogue in
            // a (oldest) disagrees; b agrees; c disagrees but per serving; d has no product.
            let codes = ["a": "4006381333931", "b": "4006381333948", "c": "4006381333955", "d": "4006381333962"]
            for (index, id) in ["a", "b", "c", "d"].enumerated() {
                var set = makeSet(captureId: id, setName: "s-\(id)", firstSeed: 10 * index + 1, capturedUTC: 100 + Double(index))
                (set.captures[0].barcode, set.captures[0].gtin13) = (codes[id], codes[id])
                set.hits = []
                try catalogue.commit(set)
            }
            var products: [Product] = []
            for id in ["a", "b", "c"] {
                var product = Product(gtin14: "0" + codes[id]!, code: codes[id]!, name: "Product \(id)", source: .off)
                (product.fat, product.sugars) = (10, 4)
                products.append(product)
            }
            _ = try catalogue.upsertProducts(products, replaceManual: false)
            func label(_ id: String, fat: Double, perServing: Bool = false) throws {
                var nutrition = LabelNutrition(fat: fat, sugars: 4)
                if perServing { nutrition.perServing = true }
                var read = text("\(id)-p1", ["Nutrition per 100 g", "Fat \(fat) g"])
                read.nutrition = nutrition
                try catalogue.recordText(read)
            }
            try label("a", fat: 25)
            try label("b", fat: 10.5)
            try label("c", fat: 25, perServing: true)
            try label("d", fat: 25)
            XCTAssertEqual(try catalogue.captures(flaggedFor: .labelDisagrees, limit: 24).map(\.id), ["a"])
            // A page of one: the newer candidates (c, b) agree or do not count; the search goes on to a.
            XCTAssertEqual(try catalogue.captures(flaggedFor: .labelDisagrees, limit: 1).map(\.id), ["a"])
            try label("b", fat: 2)
            XCTAssertEqual(try catalogue.captures(flaggedFor: .labelDisagrees, limit: 24).map(\.id), ["b", "a"])
            XCTAssertEqual(try catalogue.captures(flaggedFor: .labelDisagrees, limit: 1).map(\.id), ["b"])
        }
    }
}
