import Imaging
import Foundation
import Vocabulary

extension BarcodeReader {
    /// A linear region that no upright copy read, read as it lies: turned by the nearest right
    /// angle only, so that no pixel is resampled across its bars. Turning a region upright resamples
    /// it, and the bars of a code that is curved or tilted inside its region (a label round a
    /// bottle or a can) blur in that, while zxing-cpp reads bars some degrees off the pixel grid.
    ///
    /// zxing-cpp reads the copy at its own size. A code it reads counts only when a differently
    /// prepared copy reads the same, as a weak read of an upright copy does, read by ZBar or
    /// zxing-cpp: the copy enlarged by `scale`, as the region's other copies are, or, where the
    /// enlarged copy reads no other code, the copy smoothed along its bars over `confirmingRows`
    /// rows, as an upright copy's weak read is confirmed. Read once, such a copy's JPEG artefacts
    /// give misreads that pass the check digit (`bench/fit_rules.py`'s hard set), and smoothing
    /// along the bars keeps them: there the smoothed copy repeated the misread and the enlarged
    /// copy read the code printed. Enlarging alone missed curved codes: the bars of a label round a
    /// tub, read as they lie, blurred apart in the enlarged copy and not in the smoothed one. (Any
    /// other code in any copy vetoing the read, tried first, lost a code whose enlarged copy zxing-cpp
    /// read on 48 lines and ZBar misread on 7.) A read then counts as any region's read does (`isTrusted`).
    func readTurnedByRightAngle(_ candidate: BarcodeCandidate, in image: GreyImage, scale: Double, scanners: Scanners,
                                trace: ReadTrace?, step: String, source: String) throws -> [BarcodeReading] {
        let angle = (candidate.angle / 90).rounded() * 90
        let copy = "\(source), turned \(Int(angle))° only"
        let asItIs = try image.region(candidate.box, angle: angle, scale: 1, smoothRows: 1, memo: memo)
        let read = trace.withoutConflicts(trace.readings(of: scanners.zxing.scan(asItIs), step, "\(copy), zxing-cpp"),
                                          step, "\(copy), zxing-cpp")
        guard !read.isEmpty else { return [] }
        /// ZBar's and zxing-cpp's reads of a confirming copy, traced as `described`.
        func reads(of other: GreyImage, _ described: String) -> [BarcodeReading] {
            trace.readings(of: scanners.frame.scan(other), step, "\(described), ZBar")
                + trace.readings(of: scanners.zxing.scan(other), step, "\(described), zxing-cpp")
        }
        let enlarged = try image.region(candidate.box, angle: angle, scale: scale, smoothRows: 1, memo: memo)
        let smoothed = try asItIs.smoothed(rows: Self.confirmingRows)
        let (byEnlarged, bySmoothed) = (reads(of: enlarged, String(format: "\(copy) ×%.2g", scale)),
                                        reads(of: smoothed, "\(copy), smoothed over \(Self.confirmingRows) rows"))
        let readAgain = trace.kept(read, step, copy, because: "no differently prepared copy of the region read it") { reading in
            (byEnlarged + bySmoothed).contains { $0.isSameCode(as: reading) }
        }
        let confirmed = trace.kept(readAgain, step, copy, because: "only the copy smoothed along its bars read it again, "
            + "and the enlarged copy read another code") { reading in
            byEnlarged.contains { $0.isSameCode(as: reading) } || !byEnlarged.contains { $0.symbology != .qr && !$0.isSameCode(as: reading) }
        }
        return trace.kept(confirmed, step, copy, because: "read by fewer than \(rules.trustedLines) scan lines", isTrusted)
    }
}
