import Imaging

/// Whether and how the words on the photos are read: the `text…` keys of `pipeline.json`.
package struct TextSettings: Sendable, Equatable {
    /// `on`: each committed photo's text is read after its set (`ingest run`, `watch`, `serve
    /// --watch`) and by `ingest text`; `off`: never.
    package enum Mode: String, Sendable { case on, off }

    package var mode = Mode.on
    /// Tesseract's language names, in the order it tries them.
    package var languages = ["eng", "fra", "deu"]
    /// Seconds one photo's reading may take before it is given up, with its reason.
    package var seconds = 20.0

    package init() {}

    package var isOn: Bool { mode == .on }

    /// The keys, as `pipeline.json` names them.
    static let keys: Set<String> = ["text", "textLanguages", "textSeconds"]

    mutating func read(_ reader: KeyReader) {
        if let value = reader.choice("text", Mode.self) { mode = value }
        if let value = reader.strings("textLanguages") {
            for language in value where !language.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "_") }) || language.isEmpty {
                reader.report("textLanguages", "\"\(language)\" is not a Tesseract language name (as eng, fra, deu)")
            }
            languages = value
        }
        if let value = reader.number("textSeconds", in: 1...600) { seconds = value }
        if isOn, reader.problems.isEmpty, let missing = TextRecognizer.missingLanguage(among: languages) {
            reader.report("textLanguages", "\"\(missing)\" is not installed: install Debian's package tesseract-ocr-\(missing), or set \"text\": \"off\"")
        }
    }
}
