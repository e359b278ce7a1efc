import Foundation
import GRDB

extension Catalogue {
    /// `text` lowercased and without accents, as `list --search` compares it: "Crème" → "creme".
    public static func fold(_ text: String) -> String {
        // ASCII, as most set names and codes are, only needs lower case: Foundation's folding cost
        // a search of 100,000 captures most of its time.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// `ingest_fold(text)` in SQL, registered on every connection: `fold(_:)`, NULL for NULL.
    static let foldFunction = DatabaseFunction("ingest_fold", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).map(fold)
    }
}
