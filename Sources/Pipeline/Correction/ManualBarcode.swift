import Catalog
package import Vocabulary

/// A retail barcode typed by a person: its digits checked and normalised as the reader stores a
/// code it read — an EAN-13, a UPC-A, an EAN-8 or a UPC-E (kept as its UPC-A expansion) — with its
/// GTIN-13.
package struct ManualBarcode: Hashable, Sendable {
    /// The code as stored in `Capture.barcode`.
    package var text: String
    package var symbology: Symbology
    package var gtin13: String

    /// Reads `typed`: digits, spaces and hyphens ignored; 8, 12, 13 or 14 digits (a GTIN-14 only
    /// with a leading 0). Eight digits are an EAN-8 when their check digit says so, else a UPC-E.
    /// Throws `CorrectionError.invalidBarcode` naming what is wrong.
    package init(parsing typed: String) throws(CorrectionError) {
        let digits = typed.filter { $0 != " " && $0 != "-" }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else {
            throw .invalidBarcode(typed, reason: "only digits are allowed")
        }
        let code = digits.count == 14 && digits.first == "0" ? String(digits.dropFirst()) : digits
        switch code.count {
        case 13:
            try Self.checkDigit(of: code, typed: typed)
            (text, symbology, gtin13) = (code, .ean13, code)
        case 12:
            try Self.checkDigit(of: code, typed: typed)
            (text, symbology, gtin13) = (code, .upcA, "0" + code)
        case 8 where GTIN.hasValidCheckDigit(code):
            (text, symbology, gtin13) = (code, .ean8, "00000" + code)
        case 8:
            guard let upcA = GTIN.expandUPCE(code) else {
                try Self.checkDigit(of: code, typed: typed)
                throw .invalidBarcode(typed, reason: "neither an EAN-8 nor a UPC-E")
            }
            (text, symbology, gtin13) = (upcA, .upcE, "0" + upcA)
        default:
            throw .invalidBarcode(typed, reason: "a GTIN has 8, 12, 13 or 14 digits, this has \(digits.count)")
        }
    }

    /// Refuses a code whose last digit is not its GS1 check digit, naming the right one.
    private static func checkDigit(of code: String, typed: String) throws(CorrectionError) {
        guard !GTIN.hasValidCheckDigit(code) else { return }
        let right = GTIN.checkDigit(for: String(code.dropLast())).map(String.init) ?? "?"
        throw .invalidBarcode(typed, reason: "its check digit should be \(right), not \(code.last!)")
    }
}
