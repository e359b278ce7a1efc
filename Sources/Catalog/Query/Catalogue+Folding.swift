import Foundation

extension Catalogue {
    /// `text` lowercased and without accents, as `list --search` compares it: "Crème" → "creme".
    /// SQL calls it `ingest_fold(text)`: registered on every SQLite connection, a function of the
    /// PostgreSQL schema (migration `v1`) that does the same.
    package static func fold(_ text: String) -> String {
        // ASCII, as most set names and codes are, only needs lower case: Foundation's folding cost
        // a search of 100,000 captures most of its time.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
