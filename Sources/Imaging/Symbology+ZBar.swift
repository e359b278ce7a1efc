internal import CZBar
import Vocabulary

extension Symbology {
    var zbarType: zbar_symbol_type_t {
        switch self {
        case .ean13: ZBAR_EAN13
        case .upcA: ZBAR_UPCA
        case .upcE: ZBAR_UPCE
        case .ean8: ZBAR_EAN8
        case .code128: ZBAR_CODE128
        case .code93: ZBAR_CODE93
        case .qr: ZBAR_QRCODE
        }
    }

    init?(zbarType: zbar_symbol_type_t) {
        guard let match = Symbology.allCases.first(where: { $0.zbarType == zbarType }) else { return nil }
        self = match
    }
}
