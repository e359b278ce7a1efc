import Foundation

extension Catalogue {
    /// `text` lowercased and without accents, as `list --search` compares it: "Crème" → "creme".
    /// SQL calls it `ingest_fold(text)`: registered on every SQLite connection, a function of the
    /// PostgreSQL schema (migration `v1`) that does the same.
    public static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
