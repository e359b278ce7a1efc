/// Text from the inbox, the catalogue or a product dump as a terminal may show it: a file, folder,
/// agent or product name can hold any character, and a control character in it would move the
/// cursor, rewrite the screen (an ESC sequence) or break a line where none is.
enum TerminalText {
    /// `text` with every control character (C0, DEL, C1) escaped as Swift writes it (`\n`, `\u{1B}`),
    /// and the invisible marks that reorder the text around them (bidirectional overrides and
    /// isolates) too: what is shown is what is there, on one line.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        return text.unicodeScalars.map { needsEscape($0) ? $0.escaped(asASCII: true) : String($0) }.joined()
    }

    /// `text` escaped line by line: its line breaks stay, for text that is meant to have lines (a note).
    static func escapedKeepingLines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || (0x202A ... 0x202E).contains(scalar.value)
            || (0x2066 ... 0x2069).contains(scalar.value)
    }
}

/// Writes `text` to standard output as `Swift.print` does, every line escaped (`TerminalText`): what
/// a command prints for a person goes through here; JSON and CSV, for programs, do not.
func printEscaped(_ text: String, terminator: String = "\n") {
    print(TerminalText.escapedKeepingLines(text).joined(separator: "\n"), terminator: terminator)
}
