import Vocabulary

/// The GTIN-14 keys of a product code, however Open Food Facts or a scanner wrote it.
///
/// Digits only, leading zeros dropped, then left-padded to 14: UPC-A with or without its leading 0,
/// EAN-13, EAN-8 zero-padded and GTIN-14s with stray zeros all meet on one key. A code of 8
/// significant digits or fewer is ambiguous — an EAN-8 or a UPC-E — so it has two keys when both
/// readings have a valid check digit: the EAN-8 first, then the UPC-E's UPC-A expansion (a scanner
/// expands a UPC-E it reads, so a capture holds the expansion).
package enum ProductCode {
    /// The keys under which `code` is stored and looked up, most likely first; nil for a code that is
    /// not a GTIN (not all digits, more than 14 significant digits, or all zeros).
    package static func keys(for code: some StringProtocol) -> [String]? {
        let utf8 = code.utf8
        guard !utf8.isEmpty, utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        let significant = Substring(code.drop { $0 == "0" })
        guard !significant.isEmpty, significant.utf8.count <= 14 else { return nil }
        let padded = padded(significant, to: 14)
        guard significant.utf8.count <= 8 else { return [padded] }
        let eight = padded.suffix(8)
        let asEAN8 = GTIN.hasValidCheckDigit(String(eight))
        guard let upcA = GTIN.expandUPCE(String(eight)) else { return [padded] }
        let asUPCE = Self.padded(Substring(upcA), to: 14)
        return asEAN8 ? [padded, asUPCE] : [asUPCE]
    }

    private static func padded(_ digits: Substring, to length: Int) -> String {
        String(repeating: "0", count: max(0, length - digits.utf8.count)) + digits
    }
}
