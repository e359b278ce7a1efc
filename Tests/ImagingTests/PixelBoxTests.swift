@testable import Imaging
import XCTest

/// Boxes moved between an image and a crop of it (a full-resolution rectangle, a region), grown
/// and cut to an image: where a read found in a crop is placed in the photo.
final class PixelBoxTests: XCTestCase {
    private let crop = PixelBox(x: 96, y: 40, width: 200, height: 120)

    func testRelative_boxInsideTheCrop_isMovedByItsCorner() {
        XCTAssertEqual(PixelBox(x: 100, y: 50, width: 30, height: 20).relative(to: crop),
                       PixelBox(x: 4, y: 10, width: 30, height: 20))
    }

    func testRelative_boxReachingPastTheCrop_isCutToIt() {
        // Left of and below the crop: the part inside only (the crop widens to whole JPEG blocks,
        // and a region near the photo's edge can reach past the rows decoded).
        XCTAssertEqual(PixelBox(x: 90, y: 150, width: 30, height: 20).relative(to: crop),
                       PixelBox(x: 0, y: 110, width: 24, height: 10))
    }

    func testPlaced_undoesRelative_forABoxInsideTheCrop() {
        let box = PixelBox(x: 120, y: 77, width: 31, height: 9)
        XCTAssertEqual(box.relative(to: crop).placed(in: crop), box)
    }

    func testGrown_thenClamped_staysInTheImage() {
        let grown = PixelBox(x: 5, y: 10, width: 20, height: 4).grown(by: 8)
        XCTAssertEqual(grown, PixelBox(x: -3, y: 2, width: 36, height: 20))
        XCTAssertEqual(grown.clamped(width: 30, height: 100), PixelBox(x: 0, y: 2, width: 30, height: 20))
    }

    func testUnion_ofApartBoxes_spansBoth_andOfABoxInside_isTheOuter() {
        let left = PixelBox(x: 10, y: 40, width: 20, height: 5), right = PixelBox(x: 60, y: 30, width: 8, height: 8)
        XCTAssertEqual(left.union(right), PixelBox(x: 10, y: 30, width: 58, height: 15))
        XCTAssertEqual(right.union(left), left.union(right))
        XCTAssertEqual(crop.union(PixelBox(x: 100, y: 50, width: 30, height: 20)), crop)
    }

    func testAround_pointsOfASymbol_spanTheirExtremes_andNoPointsGiveTheEmptyBox() {
        // ZBar's location points of a turned code: the box is from the smallest to the largest of each.
        XCTAssertEqual(PixelBox(around: [40, 12, 97, 70], [8, 30, 25, 3]), PixelBox(x: 12, y: 3, width: 85, height: 27))
        XCTAssertEqual(PixelBox(around: [5], [9]), PixelBox(x: 5, y: 9, width: 0, height: 0))
        XCTAssertEqual(PixelBox(around: [], []), PixelBox(x: 0, y: 0, width: 0, height: 0))
    }

    func testSharesHalf_isTrueWhenTheOverlapIsHalfTheSmallerBoxOrMore() {
        let box = PixelBox(x: 0, y: 0, width: 100, height: 10)
        XCTAssertTrue(box.sharesHalf(with: PixelBox(x: 80, y: 0, width: 40, height: 10)), "20 of the small box's 40 columns")
        XCTAssertFalse(box.sharesHalf(with: PixelBox(x: 81, y: 0, width: 40, height: 10)))
        XCTAssertFalse(box.sharesHalf(with: PixelBox(x: 100, y: 0, width: 40, height: 10)), "touching is not sharing")
    }
}
