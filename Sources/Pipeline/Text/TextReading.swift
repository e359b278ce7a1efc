import Catalog
import Foundation
import Imaging

/// How one photo's words are read: the photo upright (its EXIF orientation applied) at
/// `longEdge` pixels, enlarged when it is smaller, and at half that, whose words join where the
/// first reading found none, and light print read as ink; where few words come out, the photo
/// turned upside down.
///
/// - Half size: Tesseract reads letters best some tens of pixels high; a package's name is often
///   ten times that at 2000 px, and is then read at 1000 or not at all (on the labelled real
///   photos of bench/realtext.tsv, split in two: 6 → 8 words found on the first half, 8 → 9 on
///   the other, for a quarter more processor time).
/// - Light print: Tesseract takes dark print on a light ground. White letters on a coloured
///   package (often outlined, for the shelf) come out as hollow shapes or not at all; the pixels
///   white in every band, made black on white, read as ordinary print. It is read where the photo
///   has little text: on a poor photo it leads where it reads more; otherwise its words join where
///   the others read none (a white name crossing a light shape, read in part).
/// - Turns: Tesseract finds lines that run up or down the photo and reads them turned, so a
///   package photographed sideways reads without help, but in one direction of the two: text
///   the other way up reads as nonsense. The half turn is tried on a copy half as large (a quarter
///   of the pixels), and read at full size only when the trial reads more.
struct TextReading {
    /// The long edge of the copy read, in pixels.
    static let longEdge = 2000
    /// The long edge of the copy a turn is tried on.
    static let trialEdge = 1000
    /// Words Tesseract is less sure of than this (0…100) are dropped: on photos they are mostly
    /// texture, bars and glare read as letters.
    static let confidenceFloor = 50.0
    /// A reading worth less than this (`worth`) is poor: the photo is read the other ways.
    static let poorWorth = 8.0
    /// A reading worth less than this holds little text, as a package's front does, not a table
    /// or a label: only then is the light print read too (on a table's white panel, made ink,
    /// Tesseract spends as long as on the photo).
    static let littleText = 40.0
    /// The darkest band's level from which a pixel is white print: white in every band, as no
    /// coloured print or ground is.
    static let whiteLevel: UInt8 = 225

    let engine: TextEngine
    let seconds: Double

    /// The words of the original `bytes`, their boxes as fractions of the upright photo, and the
    /// right angles it was turned to read them.
    func read(_ bytes: [UInt8]) throws -> (words: [PhotoText.Word], quarterTurns: Int) {
        do {
            return try reading(bytes)
        } catch TextError.tookTooLong {
            // A reading stopped with the seconds left of the photo's: the reason names the photo's.
            throw TextError.tookTooLong(seconds: seconds)
        }
    }

    private func reading(_ bytes: [UInt8]) throws -> (words: [PhotoText.Word], quarterTurns: Int) {
        let started = Date()
        let copies = try GreyImage.uprightCopies(of: bytes, longEdge: Self.longEdge)
        var image = copies.grey
        var best = (words: try kept(engine.words(of: image, seconds: remaining(since: started))), turns: 0)
        let half = try image.shrunk(toLongEdge: Self.trialEdge)
        let (scaleX, scaleY) = (Double(image.width) / Double(half.width), Double(image.height) / Double(half.height))
        let halfWords = try kept(engine.words(of: half, seconds: remaining(since: started))).map { word in
            var word = word
            let box = word.box
            word.box = PixelBox(x: Int(Double(box.x) * scaleX), y: Int(Double(box.y) * scaleY),
                                width: Int((Double(box.width) * scaleX).rounded()), height: Int((Double(box.height) * scaleY).rounded()))
            return word
        }
        // Poor or not as the full-size reading alone says; the half size's words join it, or
        // the light print's reading where that reads more.
        let poor = Self.worth(of: best.words) < Self.poorWorth
        var light: GreyImage?
        var lightWords: [RecognizedWord] = []
        if Self.worth(of: Self.union(best.words, halfWords)) < Self.littleText {
            let copy = copies.darkestBand.lightPrintAsInk(from: Self.whiteLevel)
            lightWords = try kept(engine.words(of: copy, seconds: remaining(since: started)))
            light = copy
        }
        if poor, let light, Self.worth(of: lightWords) > Self.worth(of: best.words) {
            image = light
            best.words = Self.union(lightWords, Self.union(best.words, halfWords))
        } else {
            // Not better as a whole: its words join where the others read none (a white name
            // crossing a light shape, read in part on the grey copy).
            best.words = Self.union(Self.union(best.words, halfWords), lightWords)
            lightWords = []
        }
        if Self.worth(of: best.words) < Self.poorWorth {
            // The trial turns the copy the reading goes on with: the light print's, where it won.
            let trial = try (lightWords.isEmpty ? half : image.shrunk(toLongEdge: Self.trialEdge)).turned(quarterTurns: 2)
            let trialWords = try kept(engine.words(of: trial, seconds: remaining(since: started)))
            if Self.worth(of: trialWords) > Self.worth(of: best.words) {
                let words = try kept(engine.words(of: image.turned(quarterTurns: 2), seconds: remaining(since: started)))
                if Self.worth(of: words) > Self.worth(of: best.words) { best = (words, 2) }
            }
        }
        let (width, height) = (Double(image.width), Double(image.height))
        let fractions = best.words.map { word in
            let box = word.box.unturned(quarterTurns: best.turns, width: image.width, height: image.height)
            return PhotoText.Word(text: word.text, line: word.line, block: word.block,
                                  x: Double(box.x) / width, y: Double(box.y) / height,
                                  width: Double(box.width) / width, height: Double(box.height) / height,
                                  confidence: word.confidence)
        }
        return (fractions, best.turns)
    }

    /// The words of `first` and those of `second` that lie where `first` read nothing (a box
    /// sharing half the smaller with none of its words), on lines and in blocks after `first`'s.
    /// (A word of `second` read over one of `first` more surely does not take its place: tried,
    /// it found no more words on the labelled real photos and lost a generated name.)
    static func union(_ first: [RecognizedWord], _ second: [RecognizedWord]) -> [RecognizedWord] {
        let lines = (first.map(\.line).max() ?? -1) + 1
        let blocks = (first.map(\.block).max() ?? -1) + 1
        let added = second.filter { word in !first.contains { $0.box.sharesHalf(with: word.box) } }
        return first + added.map { word in
            var word = word
            (word.line, word.block) = (word.line + lines, word.block + blocks)
            return word
        }
    }

    /// The words kept of a reading: sure enough, and holding a letter or a digit.
    private func kept(_ words: [RecognizedWord]) -> [RecognizedWord] {
        words.filter { $0.confidence >= Self.confidenceFloor && $0.text.contains { $0.isLetter || $0.isNumber } }
    }

    /// What a reading found that a search could use: the letters and digits of its words of three
    /// or more, each counted by how far Tesseract's confidence in its word is above the floor.
    /// Nonsense read from text the wrong way up has as many letters as the real reading, but
    /// less confidence.
    static func worth(of words: [RecognizedWord]) -> Double {
        words.reduce(0) { total, word in
            let count = word.text.filter { $0.isLetter || $0.isNumber }.count
            guard count >= 3 else { return total }
            return total + Double(count) * (word.confidence - confidenceFloor) / (100 - confidenceFloor)
        }
    }

    /// The seconds left of the photo's `seconds`; throws once none are.
    private func remaining(since started: Date) throws(TextError) -> Double {
        let left = seconds - Date().timeIntervalSince(started)
        guard left > 0 else { throw TextError.tookTooLong(seconds: seconds) }
        return left
    }
}
