// zxing-cpp (3.1, built by scripts/setup) behind a C interface Swift can call: Swift cannot call
// C++ directly here, and no C++ exception may cross into Swift.
#include "CZXingShim.h"

#include <ZXing/ReadBarcode.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

namespace {

using ZXing::BarcodeFormat;

/// Each INGEST_ZXING_ bit and the zxing-cpp format it stands for. A QR code reads as QRCodeModel2
/// (or Model1, which ingest takes as QR too); Micro QR and rMQR are other symbologies, not asked for.
const std::pair<int, BarcodeFormat> formatBits[] = {
    {INGEST_ZXING_EAN8, BarcodeFormat::EAN8},     {INGEST_ZXING_EAN13, BarcodeFormat::EAN13},
    {INGEST_ZXING_UPCA, BarcodeFormat::UPCA},     {INGEST_ZXING_UPCE, BarcodeFormat::UPCE},
    {INGEST_ZXING_CODE93, BarcodeFormat::Code93}, {INGEST_ZXING_CODE128, BarcodeFormat::Code128},
    {INGEST_ZXING_QR, BarcodeFormat::QRCodeModel2},
};

int bitOf(BarcodeFormat format) {
    if (format == BarcodeFormat::QRCode || format == BarcodeFormat::QRCodeModel1) return INGEST_ZXING_QR;
    for (const auto &[bit, known] : formatBits)
        if (known == format) return bit;
    return 0;
}

ZXing::ReaderOptions optionsFor(int formats, int ways) {
    std::vector<BarcodeFormat> asked;
    for (const auto &[bit, format] : formatBits)
        if (formats & bit) asked.push_back(bit == INGEST_ZXING_QR ? BarcodeFormat::QRCode : format);
    ZXing::ReaderOptions options;
    options.setFormats(ZXing::BarcodeFormats(std::move(asked)));
    options.setTryHarder(true);
    options.setTryRotate(ways & INGEST_ZXING_TURNED);
    options.setTryDownscale(ways & INGEST_ZXING_SHRUNK);
    options.setTryInvert(ways & INGEST_ZXING_INVERTED);
    options.setBinarizer(ZXing::Binarizer::LocalAverage);
    options.setEanAddOnSymbol(ZXing::EanAddOnSymbol::Ignore);
    options.setReturnErrors(false);
    options.setTextMode(ZXing::TextMode::Plain); // as 1.4 read: a GS1 QR code's text without HRI brackets
    return options;
}

void boundingBox(const ZXing::Position &position, ingest_zxing_symbol *symbol) {
    int left = position[0].x, right = left, top = position[0].y, bottom = top;
    for (int i = 1; i < 4; ++i) {
        left = std::min(left, position[i].x);
        right = std::max(right, position[i].x);
        top = std::min(top, position[i].y);
        bottom = std::max(bottom, position[i].y);
    }
    symbol->x = left;
    symbol->y = top;
    symbol->width = right - left;
    symbol->height = bottom - top;
}

} // namespace

extern "C" int ingest_zxing_read(const uint8_t *pixels, int width, int height, int stride, int formats, int ways,
                                 ingest_zxing_symbol *out, int capacity) {
    int count = 0;
    try {
        ZXing::ImageView image(pixels, width, height, ZXing::ImageFormat::Lum, stride);
        for (const ZXing::Barcode &barcode : ZXing::ReadBarcodes(image, optionsFor(formats, ways))) {
            if (count == capacity) break;
            int bit = bitOf(barcode.format());
            if (!barcode.isValid() || bit == 0) continue;
            // zxing-cpp 3 gives a UPC-E as the GTIN-13 it stands for; ingest checks and expands
            // the 8 digits printed, as it does ZBar's read.
            // Likewise a UPC-A read where EAN-13 was not asked for comes with its leading 0.
            std::string text = bit == INGEST_ZXING_UPCE ? barcode.extra(ZXing::BarcodeExtra::UPCE) : barcode.text();
            if (bit == INGEST_ZXING_UPCA && text.size() == 13 && text.front() == '0') text.erase(0, 1);
            if (text.empty()) continue;
            char *copy = static_cast<char *>(std::malloc(text.size() + 1));
            if (copy == nullptr) break;
            std::memcpy(copy, text.data(), text.size());
            copy[text.size()] = '\0';
            ingest_zxing_symbol &symbol = out[count++];
            symbol.format = bit;
            symbol.text = copy;
            symbol.text_length = static_cast<int>(text.size());
            symbol.line_count = barcode.lineCount();
            // A linear code whose length runs nearer the columns than the rows was read down columns (turned).
            int tilt = ((barcode.orientation() % 180) + 180) % 180;
            symbol.down_columns = bit != INGEST_ZXING_QR && tilt > 45 && tilt < 135;
            boundingBox(barcode.position(), &symbol);
        }
    } catch (...) {
        ingest_zxing_free(out, count);
        return -1;
    }
    return count;
}

extern "C" void ingest_zxing_free(ingest_zxing_symbol *symbols, int count) {
    for (int i = 0; i < count; ++i) {
        std::free(symbols[i].text);
        symbols[i].text = nullptr;
    }
}
