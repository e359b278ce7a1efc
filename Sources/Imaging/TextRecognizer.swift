internal import CTesseract
import Foundation

/// One word Tesseract read: its text, where it lies in the image it was read from, how sure
/// Tesseract is (0…100), and its line and block in reading order.
package struct RecognizedWord: Sendable, Equatable, Codable {
    package var text: String
    package var box: PixelBox
    package var confidence: Double
    /// The word's line (0-based, counted over the whole image in reading order).
    package var line: Int
    /// The word's text block (0-based), a column or a panel of the package.
    package var block: Int

    package init(text: String, box: PixelBox, confidence: Double, line: Int, block: Int) {
        self.text = text
        self.box = box
        self.confidence = confidence
        self.line = line
        self.block = block
    }
}

/// Why text could not be read. `description` is the reason a person reads.
package enum TextError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A language's trained data is not installed: the configuration names a language this machine
    /// cannot read.
    case missingLanguage(String)
    /// Tesseract did not start (its data folder unreadable, out of memory).
    case cannotStart(String)
    /// The reading took longer than the time allowed and was stopped.
    case tookTooLong(seconds: Double)
    /// Tesseract gave up on the image.
    case failed(String)
    /// The reading was stopped (`TextRecognizer.cancel`): nothing is known of the image.
    case cancelled

    package var description: String {
        switch self {
        case .missingLanguage(let language):
            "the text language \"\(language)\" is not installed: install Debian's package tesseract-ocr-\(language) (scripts/setup does)"
        case .cannotStart(let why): "the text reader (Tesseract) did not start: \(why)"
        case .tookTooLong(let seconds): "reading the text took over \(String(format: "%g", seconds)) s (textSeconds) and was given up"
        case .failed(let why): "the text reader (Tesseract) failed: \(why)"
        case .cancelled: "the reading was stopped"
        }
    }
}

/// Tesseract 5 with its trained data for `languages`, ready to read grey images. It holds
/// Tesseract's recogniser (about 40 MB for three languages): make one and keep it; it is used by
/// one thread at a time (`ingest text-engine` makes one, in a process of its own).
// @unchecked Sendable: Tesseract's handle may move between threads but not be shared; its owner
// uses it from one thread at a time.
package final class TextRecognizer: @unchecked Sendable {
    private let handle: OpaquePointer
    package let languages: [String]
    /// Set by `cancel()`, read by Tesseract's cancel callback between words: a byte, as C reads it.
    private let cancelled: UnsafeMutablePointer<UInt8> = {
        let flag = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        flag.initialize(to: 0)
        return flag
    }()

    /// Loads `languages` (Tesseract's names: `eng`, `fra`, `deu`, …). Throws `missingLanguage`
    /// for the first one whose trained data is not installed.
    package init(languages: [String]) throws(TextError) {
        Self.quietOneThreadEach
        // Looked for first: Tesseract, asked for a language it lacks, prints its complaint.
        if let missing = Self.missingLanguage(among: languages) { throw .missingLanguage(missing) }
        guard let handle = TessBaseAPICreate() else { throw .cannotStart("out of memory") }
        // From here `deinit` ends and deletes the handle, whether or not `init` throws.
        self.handle = handle
        self.languages = languages
        // Tesseract's messages (resolution estimates, "Too few characters") go nowhere; what
        // matters of a reading is in its words and its error.
        _ = TessBaseAPISetVariable(handle, "debug_file", "/dev/null")
        let joined = languages.joined(separator: "+")
        guard TessBaseAPIInit3(handle, nil, joined) == 0 else { throw .cannotStart("it could not load \(joined)") }
        let loaded = Set(Self.loadedLanguages(handle))
        if let missing = languages.first(where: { !loaded.contains($0) }) { throw .missingLanguage(missing) }
        _ = TessBaseAPISetVariable(handle, "debug_file", "/dev/null")
    }

    deinit {
        TessBaseAPIEnd(handle)
        TessBaseAPIDelete(handle)
        cancelled.deallocate()
    }

    /// Gives the calling thread the lowest priority (nice 19), for reading in the background: every
    /// other thread of the machine goes first.
    package static func lowerThisThreadsPriority() {
        _ = ingest_lower_this_thread()
    }

    /// Stops the reading in progress, from any thread, and every later one: each throws `cancelled`.
    package func cancel() {
        cancelled.pointee = 1
    }

    /// Whether every one of `languages` has its trained data installed; the first missing one
    /// otherwise. Cheap: it looks for the files, loading nothing.
    package static func missingLanguage(among languages: [String]) -> String? {
        let folders = [ProcessInfo.processInfo.environment["TESSDATA_PREFIX"], "/usr/share/tesseract-ocr/5/tessdata"]
            .compactMap { $0 }
        return languages.first { language in
            !folders.contains { FileManager.default.fileExists(atPath: "\($0)/\(language).traineddata") }
        }
    }

    /// The words of `image`, read with Tesseract's automatic page layout (blocks, columns, lines)
    /// in the image as it lies, in reading order. Stops after `seconds` and throws `tookTooLong`.
    package func words(of image: GreyImage, seconds: Double) throws(TextError) -> [RecognizedWord] {
        TessBaseAPISetPageSegMode(handle, PSM_AUTO)
        let failed: Bool = image.pixels.withUnsafeBufferPointer { pixels in
            TessBaseAPISetImage(handle, pixels.baseAddress, Int32(image.width), Int32(image.height), 1, Int32(image.width))
            // No resolution: a photo has none Tesseract can trust, and without one it estimates it
            // from the size of the text it finds (told 300 dpi, it read nothing of 80-px letters).
            let monitor = TessMonitorCreate()
            defer { TessMonitorDelete(monitor) }
            TessMonitorSetDeadlineMSecs(monitor, Int32(clamping: Int((seconds * 1000).rounded())))
            TessMonitorSetCancelThis(monitor, cancelled)
            TessMonitorSetCancelFunc(monitor) { flag, _ in flag?.assumingMemoryBound(to: UInt8.self).pointee != 0 }
            let started = Date()
            let status = cancelled.pointee == 0 ? TessBaseAPIRecognize(handle, monitor) : -1
            return status != 0 || Date().timeIntervalSince(started) > seconds
        }
        defer { TessBaseAPIClear(handle) }
        if cancelled.pointee != 0 { throw .cancelled }
        if failed { throw .tookTooLong(seconds: seconds) }
        return collectWords()
    }

    /// The words of the last recognition, with their line and block.
    private func collectWords() -> [RecognizedWord] {
        guard let results = TessBaseAPIGetIterator(handle) else { return [] }
        defer { TessResultIteratorDelete(results) }
        let page = TessResultIteratorGetPageIterator(results)
        var words: [RecognizedWord] = []
        var line = -1
        var block = -1
        repeat {
            if TessPageIteratorIsAtBeginningOf(page, RIL_BLOCK) != 0 { block += 1 }
            if TessPageIteratorIsAtBeginningOf(page, RIL_TEXTLINE) != 0 { line += 1 }
            guard let utf8 = TessResultIteratorGetUTF8Text(results, RIL_WORD) else { continue }
            let text = String(cString: utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            TessDeleteText(utf8)
            var (left, top, right, bottom): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
            guard !text.isEmpty, TessPageIteratorBoundingBox(page, RIL_WORD, &left, &top, &right, &bottom) != 0 else { continue }
            words.append(RecognizedWord(
                text: text, box: PixelBox(x: Int(left), y: Int(top), width: Int(right - left), height: Int(bottom - top)),
                confidence: Double(TessResultIteratorConfidence(results, RIL_WORD)), line: max(0, line), block: max(0, block)))
        } while TessResultIteratorNext(results, RIL_WORD) != 0
        return words
    }

    private static func loadedLanguages(_ handle: OpaquePointer) -> [String] {
        guard let vector = TessBaseAPIGetLoadedLanguagesAsVector(handle) else { return [] }
        defer { TessDeleteTextArray(vector) }
        var languages: [String] = []
        var index = 0
        while let language = vector[index] {
            languages.append(String(cString: language))
            index += 1
        }
        return languages
    }

    /// Tesseract's LSTM recogniser runs parts of each line on up to 10 OpenMP threads. Beside
    /// ingest's own workers, one per core, those threads only contend (and spin while they wait):
    /// with no active parallel level allowed, every OpenMP region runs on the thread that enters
    /// it. Set once for the process; the OpenMP setting is global in libgomp.
    ///
    /// Leptonica, the image library under Tesseract, prints its complaints ("box outside
    /// rectangle") on stderr, where a run's output would carry them: silenced as well.
    private static let quietOneThreadEach: Void = {
        omp_set_max_active_levels(0)
        _ = setMsgSeverity(INGEST_LEPTONICA_SEVERITY_NONE)
    }()
}
