import Foundation
import GRDB

extension Catalogue {
    /// `text` lowercased and without accents, as `list --search` compares it: "Crème" → "creme".
    public static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// `ingest_fold(text)` in SQL, registered on every connection: `fold(_:)`, NULL for NULL.
    static let foldFunction = DatabaseFunction("ingest_fold", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).map(fold)
    }
}
