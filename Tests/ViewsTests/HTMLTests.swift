import Catalog
import Foundation
@testable import Views
import XCTest
import Vocabulary

final class HTMLTests: XCTestCase {
    func testInterpolatedText_isEscapedAndMarkupIsNot() {
        let name = #"<script>alert("x")</script> & 'quotes'"#
        let html: HTML = "<p title=\"\(name)\">\(name)</p>\(HTML("<br>"))"
        XCTAssertEqual(html.rendered, "<p title=\"&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;\">"
            + "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;</p><br>")
    }
}

final class CatalogueQueryTests: XCTestCase {
    func testParameters_becomeTheFilterAndWriteBackTheSameQuery() {
        let query = CatalogueQuery(parameters: [("agent", "chef"), ("since", "2026-11-01"), ("until", "2026-11-02"),
                                                ("rating", "poor"), ("set", "shelf 1"), ("q", "crème & co"), ("nobarcode", "1"),
                                                ("unknown", "x")])
        XCTAssertEqual(query.problems, [])
        let filter = query.filter
        XCTAssertEqual(filter.agent, "chef")
        XCTAssertEqual(filter.rating, .poor)
        XCTAssertEqual(filter.setName, "shelf 1")
        XCTAssertEqual(filter.search, "crème & co")
        XCTAssertTrue(filter.noBarcode)
        XCTAssertEqual(filter.since, 1_793_491_200)
        XCTAssertEqual(filter.until, 1_793_491_200 + 2 * 86_400, "the whole of the last day")
        let written = query.queryString()
        XCTAssertTrue(written.contains("q=cr%C3%A8me%20%26%20co"), written)
        let pairs = written.split(separator: "&").map { pair -> (String, String) in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return (String(parts[0]), String(parts[1]).removingPercentEncoding!)
        }
        XCTAssertEqual(CatalogueQuery(parameters: pairs), query)
    }

    func testBadValues_areNamedAndLeftOutOfTheFilter() {
        let query = CatalogueQuery(parameters: [("since", "last week"), ("rating", "great"), ("before", "nowhere")])
        XCTAssertEqual(query.problems.count, 3)
        XCTAssertEqual(query.filter, CaptureFilter())
        XCTAssertNil(query.before)
    }

    func testCursor_roundTripsThroughText() {
        let cursor = CaptureCursor(capturedUTC: 1_732_011_234.5, id: "3f2a1b2c-0000-4000-8000-000000000001")
        XCTAssertEqual(CatalogueQuery.cursor(CatalogueQuery.text(cursor)), cursor)
        XCTAssertNil(CatalogueQuery.cursor("12~"))
        XCTAssertNil(CatalogueQuery.cursor("nan~x"))
    }
}

final class HitBoxTests: XCTestCase {
    /// A box at (10, 20), 30×40 in a stored image of 200×100, through each EXIF orientation.
    func testUpright_eachOrientation_turnsTheBoxAsThePhotoTurns() {
        let expected: [Int: HitBox] = [
            1: HitBox(x: 10, y: 20, width: 30, height: 40),
            2: HitBox(x: 160, y: 20, width: 30, height: 40),
            3: HitBox(x: 160, y: 40, width: 30, height: 40),
            4: HitBox(x: 10, y: 40, width: 30, height: 40),
            5: HitBox(x: 20, y: 10, width: 40, height: 30),
            6: HitBox(x: 40, y: 10, width: 40, height: 30),
            7: HitBox(x: 40, y: 160, width: 40, height: 30),
            8: HitBox(x: 20, y: 160, width: 40, height: 30),
        ]
        for (orientation, box) in expected {
            let turned = (5 ... 8).contains(orientation)
            XCTAssertEqual(HitBox.upright(x: 10, y: 20, width: 30, height: 40, orientation: orientation,
                                          uprightWidth: turned ? 100 : 200, uprightHeight: turned ? 200 : 100), box,
                           "orientation \(orientation)")
        }
    }

    func testBoxOnAPhoto_isScaledToItsThumbnail() {
        let photo = Photo(id: "p", captureId: "c", position: 0, originalName: "a.jpg", sourcePath: "a.jpg", originalPath: "o",
                          thumbPath: "t", thumbWidth: 300, thumbHeight: 400, sha256: "", byteSize: 1, format: .jpeg,
                          width: 600, height: 800, orientation: 6, make: nil, model: nil, takenAt: "", takenUTC: 0,
                          timeSource: .exif, sharpness: 0, contrast: 0, brightness: 0, decodeConfidence: nil, quality: 0, rating: .poor)
        let hit = BarcodeHit(photoId: "p", symbology: .ean13, text: "", gtin13: nil, quality: 1, x: 245, y: 251, width: 31, height: 167)
        // Stored 800×600, turned a quarter clockwise: x = 600 − 251 − 167, y = 245; then halved.
        XCTAssertEqual(HitBox(hit, on: photo), HitBox(x: 91, y: 122.5, width: 83.5, height: 15.5))
    }
}
