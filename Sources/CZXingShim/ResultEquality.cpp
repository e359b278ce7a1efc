// ZXing::Result::operator==, defined here so that it takes the place of zxing-cpp 1.4.0's own.
//
// Why: zxing-cpp 1.4.0 compares two reads of a linear code with `assert(lineCount() == 1)`, and
// Debian builds it with assertions on. ReadBarcodes compares each read with the ones it kept, whose
// lines it has already counted, so a code that one image shows twice on the same rows (two packs of
// one product side by side, a multipack) fails the assertion and aborts the whole process.
//
// How: the library calls its operator== through its PLT, and the dynamic linker binds that call to
// the executable's definition first, so this one is used by the library too (the test
// ZXingScannerTests.testScan_sameCodeTwiceSideBySide_… fails by aborting if it is not). It answers
// what zxing-cpp 1.4.0 answers wherever that one does not abort, and where it would, it answers as
// later zxing-cpp versions do: two multi-line reads are one symbol when one's centre lies inside
// the other; a single line belongs to a symbol when it lies within half its own length of it,
// whichever of the two sides it is on.
#define ZX_USE_UTF8 1
#include <ZXing/Quadrilateral.h>
#include <ZXing/Result.h>

#include <algorithm>

bool ZXing::Result::operator==(const Result &o) const {
    // Two reads may be one symbol if at least one of them has an error (as in zxing-cpp 1.4.0).
    if (format() != o.format() || !(bytes() == o.bytes() || error() || o.error())) return false;
    if (BarcodeFormats(BarcodeFormat::MatrixCodes).testFlag(format()) || (lineCount() > 1 && o.lineCount() > 1))
        return IsInside(Center(o.position()), position());
    const Result &line = lineCount() <= o.lineCount() ? *this : o;
    const Result &other = &line == this ? o : *this;
    auto top = maxAbsComponent(other.position().topLeft() - line.position().topLeft());
    auto bottom = maxAbsComponent(other.position().bottomLeft() - line.position().topLeft());
    auto length = maxAbsComponent(line.position().topLeft() - line.position().bottomRight());
    return std::min(top, bottom) < length / 2;
}
