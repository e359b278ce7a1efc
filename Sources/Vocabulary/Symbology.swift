/// The barcode symbologies the pipeline reads, stored by their raw value (`EAN-13`, `QR-Code`, …).
package enum Symbology: String, CaseIterable, Sendable, Codable {
    case ean13 = "EAN-13"
    case upcA = "UPC-A"
    case upcE = "UPC-E"
    case ean8 = "EAN-8"
    case code128 = "CODE-128"
    case code93 = "CODE-93"
    case qr = "QR-Code"

    /// Parses a configured name, ignoring case and punctuation: `EAN-13`, `ean13`, `Code 128`, `QR`.
    package init?(name: String) {
        let key = name.uppercased().filter { $0.isLetter || $0.isNumber }
        switch key {
        case "EAN13": self = .ean13
        case "UPCA": self = .upcA
        case "UPCE": self = .upcE
        case "EAN8": self = .ean8
        case "CODE128": self = .code128
        case "CODE93": self = .code93
        case "QR", "QRCODE": self = .qr
        default: return nil
        }
    }

    /// Retail codes carry a GS1 check digit and a GTIN.
    package var isRetail: Bool {
        switch self {
        case .ean13, .upcA, .upcE, .ean8: true
        case .code128, .code93, .qr: false
        }
    }
}
