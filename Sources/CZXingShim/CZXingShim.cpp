// zxing-cpp (Debian's libzxing-dev) behind a C interface Swift can call: Swift cannot call C++
// directly here, and no C++ exception may cross into Swift.
#define ZX_USE_UTF8 1
#include "CZXingShim.h"

#include <ZXing/ReadBarcode.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace {

ZXing::DecodeHints hintsFor(int formats) {
    ZXing::DecodeHints hints;
    hints.setFormats(static_cast<ZXing::BarcodeFormat>(formats));
    hints.setTryHarder(true);
    hints.setTryRotate(false);
    hints.setTryDownscale(false);
    hints.setBinarizer(ZXing::Binarizer::LocalAverage);
    hints.setEanAddOnSymbol(ZXing::EanAddOnSymbol::Ignore);
    hints.setReturnErrors(false);
    return hints;
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

extern "C" int ingest_zxing_read(const uint8_t *pixels, int width, int height, int stride, int formats,
                                 ingest_zxing_symbol *out, int capacity) {
    int count = 0;
    try {
        ZXing::ImageView image(pixels, width, height, ZXing::ImageFormat::Lum, stride);
        for (const ZXing::Result &result : ZXing::ReadBarcodes(image, hintsFor(formats))) {
            if (count == capacity) break;
            if (!result.isValid()) continue;
            std::string text = result.text();
            char *copy = static_cast<char *>(std::malloc(text.size() + 1));
            if (copy == nullptr) break;
            std::memcpy(copy, text.data(), text.size());
            copy[text.size()] = '\0';
            ingest_zxing_symbol &symbol = out[count++];
            symbol.format = static_cast<int>(result.format());
            symbol.text = copy;
            symbol.text_length = static_cast<int>(text.size());
            symbol.line_count = result.lineCount();
            boundingBox(result.position(), &symbol);
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
