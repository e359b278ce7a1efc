import Imaging

extension BarcodeReader {
    /// A linear region that no upright copy read, read as it lies: turned by the nearest right
    /// angle only, so that no pixel is resampled across its bars. Turning a region upright resamples
    /// it, and the bars of a code that is curved or tilted inside its region (a label round a
    /// bottle or a can) blur in that, while zxing-cpp reads bars some degrees off the pixel grid.
    ///
    /// zxing-cpp reads the copy at its own size. A code it reads counts only when a differently
    /// prepared copy reads the same, as a weak read of an upright copy does: the copy enlarged by
    /// `scale`, as the region's other copies are, read by ZBar or zxing-cpp. Read once, such a
    /// copy's JPEG artefacts give misreads that pass the check digit (`bench/fit_rules.py`'s hard
    /// set). It then counts as any region's read does (`isTrusted`).
    func readTurnedByRightAngle(_ candidate: BarcodeCandidate, in image: GreyImage, scale: Double, scanners: Scanners,
                                trace: ReadTrace?, step: String, source: String) throws -> [BarcodeReading] {
        let angle = (candidate.angle / 90).rounded() * 90
        let copy = "\(source), turned \(Int(angle))° only"
        let asItIs = try image.region(candidate.box, angle: angle, scale: 1, smoothRows: 1, memo: memo)
        let read = trace.withoutConflicts(trace.readings(of: scanners.zxing.scan(asItIs), step, "\(copy), zxing-cpp"),
                                          step, "\(copy), zxing-cpp")
        guard !read.isEmpty else { return [] }
        let enlarged = try image.region(candidate.box, angle: angle, scale: scale, smoothRows: 1, memo: memo)
        let described = String(format: "\(copy) ×%.2g", scale)
        let again = trace.readings(of: scanners.frame.scan(enlarged), step, "\(described), ZBar")
            + trace.readings(of: scanners.zxing.scan(enlarged), step, "\(described), zxing-cpp")
        let confirmed = trace.kept(read, step, copy, because: "no differently prepared copy of the region read it") { reading in
            again.contains { $0.isSameCode(as: reading) }
        }
        return trace.kept(confirmed, step, copy, because: "read by fewer than \(rules.trustedLines) scan lines", isTrusted)
    }
}
