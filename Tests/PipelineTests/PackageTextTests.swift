import Catalog
import Imaging
@testable import Pipeline
import XCTest

/// The nutrition table and the headline read from a photo's words.
final class PackageTextTests: XCTestCase {
    func testNutrition_euTable_asTesseractReadsIt_withItsMisreadings() {
        // As Tesseract read samples/shelf-dump/IMG_0010.jpg and a generated EU table: "g" read as
        // "9", glued to the number or not, "kcal" as "keal".
        let table = NutritionTable.read([
            "Nutrition per 100 9", "Energy 998 kJ / 239 keal", "Fat 13.29", "of which saturates 5.0g", "Carbohydrate 68.6 g",
            "of which sugars 24.4", "Fibre 9.4 9", "Protein 0.6 g", "Salt 2.88 g",
        ])
        XCTAssertEqual(table, LabelNutrition(energyKJ: 998, energyKcal: 239, fat: 13.2, saturates: 5.0, carbohydrate: 68.6,
                                             sugars: 24.4, fibre: 9.4, protein: 0.6, salt: 2.88))
    }

    func testNutrition_frenchAndGermanTables_withDecimalCommas() {
        let french = NutritionTable.read([
            "Valeurs nutritionnelles pour 100 g", "Énergie 1 650 kJ / 394 kcal", "Matières grasses 13,2 g",
            "dont acides gras saturés 5,0 g", "Glucides 60,1 g", "dont sucres 24,4 g", "Fibres alimentaires 5,7 g",
            "Protéines 7,5 g", "Sel 0,28 g",
        ])
        XCTAssertEqual(french?.fat, 13.2)
        XCTAssertEqual(french?.saturates, 5.0)
        XCTAssertEqual(french?.carbohydrate, 60.1)
        XCTAssertEqual(french?.sugars, 24.4)
        XCTAssertEqual(french?.fibre, 5.7)
        XCTAssertEqual(french?.protein, 7.5)
        XCTAssertEqual(french?.salt, 0.28)
        XCTAssertEqual(french?.energyKcal, 394)
        XCTAssertEqual(french?.energyKJ, 1650, "thousands set apart by a space")
        XCTAssertNil(french?.perServing)
        let german = NutritionTable.read([
            "Nährwerte je 100 g", "Brennwert 1650 kJ / 394 kcal", "Fett 13 g", "davon gesättigte Fettsäuren 5 g",
            "Kohlenhydrate 60 g", "davon Zucker 24 g", "Eiweiß 7,5 g", "Salz 0,3 g",
        ])
        XCTAssertEqual(german, LabelNutrition(energyKJ: 1650, energyKcal: 394, fat: 13, saturates: 5, carbohydrate: 60,
                                              sugars: 24, protein: 7.5, salt: 0.3))
    }

    func testNutrition_usLayout_caloriesSodiumAndServing() {
        let table = NutritionTable.read([
            "Nutrition Facts", "Serving size 30 g", "Calories 120", "Total Fat 4 g", "Saturated Fat 1 g", "Sodium 200 mg",
            "Total Carbohydrate 20 g", "Dietary Fiber 2 g", "Total Sugars 8 g", "Protein 3 g",
        ])
        XCTAssertEqual(table?.energyKcal, 120)
        XCTAssertNil(table?.energyKJ, "not printed, so not made up")
        XCTAssertEqual(table?.fat, 4)
        XCTAssertEqual(table?.saturates, 1)
        XCTAssertEqual(table?.salt, 0.5, "sodium × 2.5")
        XCTAssertEqual(table?.fibre, 2)
        XCTAssertEqual(table?.perServing, true)
        XCTAssertEqual(table?.servingGrams, 30)
    }

    func testNutrition_aValueCutShort_isNotRead_whereTheOtherRowsPrintTheirUnit() {
        // As Tesseract read a generated US table: "18.9g" came out "1", the rest dropped as unsure.
        let cut = NutritionTable.read([
            "Nutrition Facts", "Amount per 100 g", "Calories 57", "Saturated Fat 11.39", "Total Carbohydrate 1",
            "Dietary Fiber 1.4g", "Total Sugars 0.1 g", "Protein 14.1 g", "Salt 0.94 g",
        ])
        XCTAssertNil(cut?.carbohydrate, "not read rather than misread")
        XCTAssertEqual(cut?.sugars, 0.1)
        XCTAssertEqual(cut?.saturates, 11.3, "a gram sign read as 9 is a unit")
        XCTAssertEqual(cut?.protein, 14.1)
        // A table that prints no units (its header says per 100 g) keeps its bare numbers.
        let bare = NutritionTable.read(["pour 100 g", "Matières grasses 17,4", "Glucides 52,1", "Protéines 8,2", "Sel 1,2"])
        XCTAssertEqual(bare?.fat, 17.4)
        XCTAssertEqual(bare?.carbohydrate, 52.1)
    }

    func testNutrition_fewValuesOrNone_isNoTable() {
        XCTAssertNil(NutritionTable.read(["HIGH PROTEIN", "Protein 20 g", "CRUNCHY OATS"]))
        XCTAssertNil(NutritionTable.read([]))
        XCTAssertNil(NutritionTable.read(["Selon arrivage", "Salted caramel", "Fatigue"]), "names inside other words are not rows")
    }

    private func word(_ text: String, line: Int, block: Int = 0, height: Double, confidence: Double = 92) -> PhotoText.Word {
        PhotoText.Word(text: text, line: line, block: block, x: 0.1, y: 0.1 * Double(line), width: 0.05 * Double(text.count),
                       height: height, confidence: confidence)
    }

    func testHeadline_isTheLargestSureLine_withAnEquallyLargeNeighbour() {
        let words = [
            word("Nordic", line: 0, height: 0.08), word("Farm", line: 0, height: 0.08),
            word("SEA", line: 1, height: 0.09), word("SALT", line: 1, height: 0.09), word("CHIPS", line: 1, height: 0.09),
            word("Ingredients:", line: 2, height: 0.02), word("potatoes,", line: 2, height: 0.02),
        ]
        XCTAssertEqual(PackageHeadline.of(words, width: 1000, height: 1000), "Nordic Farm SEA SALT CHIPS")
        XCTAssertEqual(PackageHeadline.of(Array(words[2...]), width: 1000, height: 1000), "SEA SALT CHIPS")
    }

    func testHeadline_skipsDigitsAndUnsureLines() {
        let words = [
            word("5901234123457", line: 0, height: 0.2),
            word("GRFXQ", line: 1, height: 0.15, confidence: 40),
            word("TOMATO", line: 2, height: 0.06), word("SOUP", line: 2, height: 0.06),
        ]
        XCTAssertEqual(PackageHeadline.of(words, width: 1000, height: 1000), "TOMATO SOUP")
        XCTAssertNil(PackageHeadline.of(Array(words[..<2]), width: 1000, height: 1000))
    }

    func testUnion_addsTheWordsReadWhereTheFirstReadingFoundNone_onLinesAfterIts() {
        func word(_ text: String, x: Int, line: Int) -> RecognizedWord {
            RecognizedWord(text: text, box: PixelBox(x: x, y: 100, width: 200, height: 60), confidence: 90, line: line, block: 0)
        }
        let first = [word("SEA", x: 0, line: 0), word("SALT", x: 220, line: 0)]
        // The half-size reading read SALT again (a little apart) and CHIPS where the first read nothing.
        let second = [word("SALT", x: 240, line: 0), word("CHIPS", x: 440, line: 0)]
        let union = TextReading.union(first, second)
        XCTAssertEqual(union.map(\.text), ["SEA", "SALT", "CHIPS"])
        XCTAssertEqual(union.map(\.line), [0, 0, 1], "a line after the first reading's")
        XCTAssertEqual(TextReading.union([], second).map(\.text), ["SALT", "CHIPS"])
        var sure = word("5ALT", x: 240, line: 0)
        sure.confidence = 99
        XCTAssertEqual(TextReading.union(first, [sure]).map(\.text), ["SEA", "SALT"], "the first reading's word stays")
    }

    func testWorth_countsSureLongWords_nonsenseTheWrongWayUpLess() {
        func word(_ text: String, _ confidence: Double) -> RecognizedWord {
            RecognizedWord(text: text, box: PixelBox(x: 0, y: 0, width: 10, height: 10), confidence: confidence, line: 0, block: 0)
        }
        XCTAssertEqual(TextReading.worth(of: [word("SOUP", 100), word("of", 100)]), 4, "words of two letters count nothing")
        XCTAssertGreaterThan(TextReading.worth(of: [word("SOUP", 95)]), TextReading.worth(of: [word("dNOS", 73), word("OUVINOL", 56)]))
    }
}
