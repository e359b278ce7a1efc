import Catalog
import Foundation
import Logging
@testable import Views
import Vocabulary
import XCTest
import TestSupport
import SystemPackage

/// The pages drawn from a small catalogue: what they show, what they offer, and where they link.
final class PageTests: XCTestCase {
    private var catalogue: Catalogue!

    /// Captures `c0`… of one photo each, a second apart, the odd ones without barcode.
    override func setUpWithError() throws {
        catalogue = try Catalogue.inMemory(logger: Logger(label: "test"))
        for index in 0 ..< 5 {
            let id = "c\(index)"
            let photo = Photo(id: "\(id)-p", captureId: id, position: 0, originalName: "<img \(index)>.jpg", sourcePath: "a.jpg",
                              originalPath: "originals/s/\(index).jpg", thumbPath: "thumbs/s/\(index).jpg", thumbWidth: 400,
                              thumbHeight: 300, sha256: String(format: "%064x", index), byteSize: 1, format: .jpeg, width: 4000,
                              height: 3000, orientation: 1, make: nil, model: nil, takenAt: "2026-11-21T10:00:0\(index)Z",
                              takenUTC: Double(index), timeSource: index == 4 ? .fileTime : .exif, sharpness: 0.5, contrast: 0.5,
                              brightness: 0.5, decodeConfidence: nil, quality: 0.8, rating: .good)
            let code = index.isMultiple(of: 2) ? "4006381333931" : nil
            let capture = Capture(id: id, runId: nil, setName: "set <\(index)>", barcode: code, symbology: code == nil ? nil : .ean13,
                                  gtin13: code, capturedAt: photo.takenAt, capturedUTC: Double(index), timeSource: photo.timeSource,
                                  photoCount: 1, quality: 0.8, rating: .good, createdAt: "t")
            // The first capture's photo also read a QR code whose text is markup.
            let hits = index == 0 ? [BarcodeHit(photoId: photo.id, symbology: .ean13, text: code!, gtin13: code, quality: 40,
                                                x: 0, y: 0, width: 10, height: 10),
                                     BarcodeHit(photoId: photo.id, symbology: .qr, text: "<b>shelf</b>", gtin13: nil, quality: 1,
                                                x: 20, y: 0, width: 10, height: 10)] : []
            try catalogue.commit(CommittedSet(captures: [capture], photos: [photo], hits: hits))
        }
    }

    func testCaptureWithASecondCodeOnItsPhoto_showsItAsAlsoRead_andListsItInTheJSON() throws {
        let page = try XCTUnwrap(try CapturePage.load(id: "c0", from: catalogue))
        let html = page.html(PageContext(links: .server, csrfToken: "token", readOnly: true)).rendered
        XCTAssertTrue(html.contains("Also read"), html)
        XCTAssertTrue(html.contains("&lt;b&gt;shelf&lt;/b&gt;"), "escaped")
        XCTAssertEqual(page.json.otherCodes, ["<b>shelf</b>"], "the capture's own code is not another")
        let list = CaptureListJSON(try CataloguePage.load(CatalogueQuery(), from: catalogue, size: 10))
        XCTAssertEqual(list.captures.map(\.otherCodes), [[], [], [], [], ["<b>shelf</b>"]], "newest first")
        let plain = try XCTUnwrap(try CapturePage.load(id: "c2", from: catalogue))
        XCTAssertFalse(plain.html(PageContext(links: .server, csrfToken: "token", readOnly: true)).rendered.contains("Also read"))
    }

    func testCataloguePage_pagesNewestFirstWithACursorAndEscapesWhatItShows() throws {
        let first = try CataloguePage.load(CatalogueQuery(), from: catalogue, size: 2)
        XCTAssertEqual(first.cards.map(\.capture.id), ["c4", "c3"])
        XCTAssertEqual(first.matching, 5)
        var query = CatalogueQuery()
        query.before = first.next
        XCTAssertEqual(try CataloguePage.load(query, from: catalogue, size: 2).cards.map(\.capture.id), ["c2", "c1"])
        let html = first.html(PageContext(links: .server, csrfToken: "token")).rendered
        XCTAssertTrue(html.contains("set &lt;4&gt;"))
        XCTAssertFalse(html.contains("set <4>"))
        XCTAssertTrue(html.contains("/photos/c4-p/thumbnail"))
        XCTAssertTrue(html.contains("name=\"csrf\" value=\"token\""), "the merge form carries the CSRF token")
        XCTAssertTrue(html.contains("rel=\"next\""))
    }

    func testCapturePage_withoutCorrectionsOffersNoForm_withThemOffersEach() throws {
        let page = try XCTUnwrap(try CapturePage.load(id: "c1", from: catalogue))
        let readOnly = page.html(PageContext(links: .server, csrfToken: "token", readOnly: true)).rendered
        XCTAssertFalse(readOnly.contains("<form"))
        XCTAssertTrue(readOnly.contains("<p class=\"meta none\">no barcode read</p>"), "markup, not escaped text")
        XCTAssertTrue(readOnly.contains("&lt;img 1&gt;.jpg"))
        let editable = page.html(PageContext(links: .server, csrfToken: "token")).rendered
        for action in ["/captures/c1/barcode", "/captures/c1/merge", "/captures/c1/delete"] {
            XCTAssertTrue(editable.contains("action=\"\(action)\""), action)
        }
        XCTAssertFalse(editable.contains("/captures/c1/product"), "no GTIN, no product to enter")
        XCTAssertFalse(editable.contains("Split here"), "a one-photo capture cannot be split")
    }

    func testEditsPage_linksTheCapturesAnEditLeftAndOffersItsUndo() throws {
        let edit = try catalogue.applyEdit(to: ["c1"], origin: "test", madeAt: "2026-11-24T10:00:00Z") { found in
            var changed = found[0]
            changed.capture.note = "checked"
            return EditPlan(kind: .setBarcode, summary: "noted <c1>", after: [changed])
        }
        let html = try EditsPage.load(before: nil, from: catalogue).html(PageContext(links: .server, csrfToken: "token")).rendered
        XCTAssertTrue(html.contains("→ <a href=\"/captures/c1\">c1</a>"), html)
        XCTAssertTrue(html.contains("noted &lt;c1&gt;"))
        XCTAssertTrue(html.contains("action=\"/edits/\(edit.id)/undo\""))
    }

    func testReviewPage_listsEachReasonsCaptures() throws {
        let page = try ReviewPage.load(from: catalogue)
        let sections = Dictionary(uniqueKeysWithValues: page.sections.map { ($0.reason, $0.cards.map(\.capture.id)) })
        XCTAssertEqual(sections[.noBarcodeBesideOne], [], "each capture is its own set")
        XCTAssertEqual(sections[.fileTime], ["c4"])
        XCTAssertEqual(sections[.poor], [])
    }

    func testStaticExport_writesRelativePagesAndRefusesAForeignFolder() throws {
        let folder = try makeTemporaryFolder()
        let library = try makeTemporaryFolder()
        for index in 0 ..< 5 {
            try FileManager.default.createDirectory(atPath: "\(library)/thumbs/s", withIntermediateDirectories: true)
            try Data("jpeg \(index)".utf8).write(to: URL(fileURLWithPath: "\(library)/thumbs/s/\(index).jpg"))
        }
        let export = StaticExport(catalogue: catalogue, library: FilePath(library), logger: Logger(label: "test"))
        let written = try export.write(to: FilePath("\(folder)/site"))
        XCTAssertEqual(written, StaticExport.Written(pages: 1, captures: 5, thumbnails: 5))
        let index = try String(contentsOfFile: "\(folder)/site/index.html", encoding: .utf8)
        XCTAssertTrue(index.contains("href=\"captures/c4.html\""))
        XCTAssertTrue(index.contains("src=\"thumbs/c4-p.jpg\""))
        let capture = try String(contentsOfFile: "\(folder)/site/captures/c4.html", encoding: .utf8)
        XCTAssertTrue(capture.contains("href=\"../assets/app.css\""))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: "\(folder)/site/thumbs/c4-p.jpg")), Data("jpeg 4".utf8))
        XCTAssertThrowsError(try export.write(to: FilePath(library))) { error in
            XCTAssertTrue("\(error)".contains("holds other files"), "\(error)")
        }
    }
}
