/// GS1 check digits, UPC-E expansion and GTIN-13 normalisation.
package enum GTIN {
    /// Whether `gtin13` names a trade item the world over: its GS1 prefix (the first three digits)
    /// is one GS1 gives its member organisations for products, or 977–979 (serials and books).
    /// False for GS1's other ranges: restricted circulation (020–029, 040–049, 200–299: a shop's own
    /// codes, goods weighed in store), coupons and refunds (050–059, 980–999), and the prefixes GS1
    /// keeps unassigned (140–199: Japanese books print their classification and price code there,
    /// 192…, beside the ISBN). Of two codes on one package, the one that names a trade item is the
    /// product's.
    package static func namesTradeItem(_ gtin13: String) -> Bool {
        guard gtin13.count == 13, gtin13.allSatisfy(\.isASCIIDigit), let prefix = Int(gtin13.prefix(3)) else { return false }
        switch prefix {
        case 20 ... 29, 40 ... 59, 140 ... 299, 980 ... 999: return false
        default: return true
        }
    }

    /// The GS1 mod-10 check digit for `body` (all digits, without the check digit).
    package static func checkDigit(for body: String) -> Character? {
        guard !body.isEmpty, body.allSatisfy(\.isASCIIDigit) else { return nil }
        var total = 0
        for (index, digit) in body.reversed().enumerated() {
            total += digit.wholeNumberValue! * (index % 2 == 0 ? 3 : 1)
        }
        return Character(String((10 - total % 10) % 10))
    }

    /// True when `code` (digits including its check digit) has a valid GS1 check digit.
    package static func hasValidCheckDigit(_ code: String) -> Bool {
        guard code.count >= 2, let last = code.last else { return false }
        return checkDigit(for: String(code.dropLast())) == last
    }

    /// The 12-digit UPC-A a UPC-E stands for. Accepts 8 digits (number system, six digits, check),
    /// 7 (without check) or 6 (number system 0, no check); only number systems 0 and 1 exist.
    package static func expandUPCE(_ code: String) -> String? {
        guard code.allSatisfy(\.isASCIIDigit) else { return nil }
        let digits = code.map { $0 }
        let system: Character, six: [Character], check: Character?
        switch digits.count {
        case 8: (system, six, check) = (digits[0], Array(digits[1...6]), digits[7])
        case 7: (system, six, check) = (digits[0], Array(digits[1...6]), nil)
        case 6: (system, six, check) = ("0", digits, nil)
        default: return nil
        }
        guard system == "0" || system == "1" else { return nil }
        let d = six.map { String($0) }
        let body: String
        switch six[5] {
        case "0", "1", "2": body = d[0] + d[1] + d[5] + "0000" + d[2] + d[3] + d[4]
        case "3": body = d[0] + d[1] + d[2] + "00000" + d[3] + d[4]
        case "4": body = d[0] + d[1] + d[2] + d[3] + "00000" + d[4]
        default: body = d[0] + d[1] + d[2] + d[3] + d[4] + "0000" + d[5]
        }
        let withSystem = String(system) + body
        guard let computed = checkDigit(for: withSystem) else { return nil }
        if let check, check != computed { return nil }
        return withSystem + String(computed)
    }

    /// The UPC-Es whose UPC-A, with a leading 0, is `gtin13`: number system, six digits and check
    /// digit of each. Usually one; none when the UPC-A cannot be written as a UPC-E. One with more
    /// zeros than a UPC-E drops has several (0 12000 00000: 0·120000, 0·120003 and 0·120004).
    package static func upcEDigits(ofGTIN13 gtin13: String) -> [(system: Int, six: [Int], check: Int)] {
        let d = gtin13.compactMap(\.wholeNumberValue)
        guard gtin13.count == 13, d.count == 13, d[0] == 0, d[1] <= 1 else { return [] }
        // d[1] the number system, d[2…6] the manufacturer, d[7…11] the product, d[12] the check.
        let candidates = [[d[2], d[3], d[9], d[10], d[11], d[4]], [d[2], d[3], d[4], d[10], d[11], 3],
                          [d[2], d[3], d[4], d[5], d[11], 4], [d[2], d[3], d[4], d[5], d[6], d[11]]]
        let upcA = String(gtin13.dropFirst())
        var found: [(system: Int, six: [Int], check: Int)] = []
        for six in candidates where !found.contains(where: { $0.six == six }) {
            if expandUPCE(([d[1]] + six + [d[12]]).map(String.init).joined()) == upcA { found.append((d[1], six, d[12])) }
        }
        return found
    }

    /// A decoded code as the catalogue stores it — the text (a UPC-E expanded to its UPC-A) and,
    /// for a retail code, its GTIN-13 — or nil when it must not be trusted (wrong length, non-digits
    /// or a bad check digit in a retail code, empty text).
    package static func normalised(_ text: String, as symbology: Symbology) -> (text: String, gtin13: String?)? {
        switch symbology {
        case .ean13:
            guard text.count == 13, hasValidCheckDigit(text) else { return nil }
            return (text, text)
        case .upcA:
            guard text.count == 12, hasValidCheckDigit(text) else { return nil }
            return (text, "0" + text)
        case .upcE:
            guard let upcA = expandUPCE(text) else { return nil }
            return (upcA, "0" + upcA)
        case .ean8:
            guard text.count == 8, hasValidCheckDigit(text) else { return nil }
            return (text, "00000" + text)
        case .code128, .code93, .qr:
            guard !text.isEmpty else { return nil }
            return (text, nil)
        }
    }
}
