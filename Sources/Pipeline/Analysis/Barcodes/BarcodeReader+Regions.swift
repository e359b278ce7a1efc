import Foundation
import Imaging
import Vocabulary

/// Step 2 of reading a photo: one candidate region, prepared (turned upright, enlarged, smoothed
/// along its bars) and read by ZBar, each weak read confirmed by a differently prepared copy.
extension BarcodeReader {
    /// Reads one candidate region of `image`: a 1-D code turned upright, enlarged and smoothed along
    /// its bars, then (in the overview only, where the direction may be off) as it is, and last (in
    /// the overview only) turned by a right angle alone (`readTurnedByRightAngle`); a 2-D code
    /// enlarged in the overview, taken as it is at full resolution (its modules are large enough there).
    /// Traced as `step` and `source`; without a step (a read that weighs another), not.
    func read(_ candidate: BarcodeCandidate, in image: GreyImage, scanners: Scanners,
              fullResolution: Bool = false, step tracedStep: String?, source: String) throws -> [BarcodeReading] {
        let trace = tracedStep == nil ? nil : trace
        let step = tracedStep ?? ""
        let longEdge = Double(max(candidate.box.width, candidate.box.height))
        let scale = fullResolution ? (candidate.isLinear ? 2 : 1) : min(3, max(1.5, 700 / longEdge))
        var attempts = [RegionRead(scale: scale, rows: 1, scanner: scanners.frame)]
        if candidate.isLinear {
            attempts = [RegionRead(scale: scale, rows: 7, scanner: scanners.rows)]
            if !fullResolution { attempts.append(RegionRead(scale: scale, rows: 1, scanner: scanners.frame)) }
        }
        let samples = RegionSamples(candidate, in: image, memo: memo)
        for attempt in attempts {
            let copy = "\(source), \(attempt)"
            var readings = try scan(samples, attempt, step: tracedStep, source: copy)
            // A weak read of an enlarged, smoothed region can be a misread that passes the check
            // digit; it counts only when a differently prepared copy of the region reads the same.
            readings = try trace.kept(readings, step, copy, because: "under \(rules.confirmedLines) scan lines, and no "
                + "differently prepared copy of the region read it") { reading in
                guard reading.symbology != .qr, reading.quality < rules.confirmedLines else { return true }
                for other in [RegionRead(scale: attempt.scale, rows: Self.confirmingRows, scanner: scanners.rows),
                              RegionRead(scale: attempt.scale, rows: 9, scanner: scanners.rows),
                              RegionRead(scale: attempt.scale * 1.25, rows: 7, scanner: scanners.rows)]
                where try scan(samples, other).contains(where: { $0.productKey == reading.productKey }) {
                    return true
                }
                return false
            }
            if !readings.isEmpty { return readings }
        }
        if candidate.isLinear && !fullResolution {
            let readings = try readTurnedByRightAngle(candidate, in: image, scale: scale, scanners: scanners,
                                                      trace: trace, step: step, source: source)
            if !readings.isEmpty { return readings }
        }
        trace?.note(step, source, nil, "nothing", because: "no copy of the region gave a code that counts")
        return []
    }

    /// How a region is prepared and scanned.
    private struct RegionRead: CustomStringConvertible {
        var scale: Double
        var rows: Int
        var scanner: BarcodeScanner

        var description: String { String(format: "×%.2g, smoothed over %d rows", scale, rows) }
    }

    /// The sound, unconflicted reads of a candidate region (`samples`) prepared as `read` says;
    /// traced (`step`, `source`) when given them, else (a confirming read) not.
    private func scan(_ samples: RegionSamples, _ read: RegionRead,
                      step: String? = nil, source: String = "") throws -> [BarcodeReading] {
        let region = try samples.copy(scale: read.scale, smoothRows: read.rows)
        let trace = step == nil ? nil : trace
        let step = step ?? ""
        let readings = trace.withoutConflicts(trace.readings(of: read.scanner.scan(region), step, source), step, source)
        return trace.kept(readings, step, source, because: "read by fewer than \(rules.trustedLines) scan lines", isTrusted)
    }
}

/// One candidate region of an image as `BarcodeReader.read` prepares it: sampled (turned and
/// enlarged) once per scale, however many smoothings of it are read (a linear code's are read
/// smoothed and not, and confirmed smoothed over other numbers of rows).
private final class RegionSamples {
    let candidate: BarcodeCandidate
    let image: GreyImage
    let memo: ReadMemo?
    private var sampled: [Double: GreyImage] = [:]

    init(_ candidate: BarcodeCandidate, in image: GreyImage, memo: ReadMemo?) {
        self.candidate = candidate
        self.image = image
        self.memo = memo
    }

    func copy(scale: Double, smoothRows rows: Int) throws -> GreyImage {
        if let region = sampled[scale] { return try region.smoothed(rows: rows) }
        let region = try image.region(candidate.box, angle: candidate.angle, scale: scale, smoothRows: 1, memo: memo)
        sampled[scale] = region
        return try region.smoothed(rows: rows)
    }
}
