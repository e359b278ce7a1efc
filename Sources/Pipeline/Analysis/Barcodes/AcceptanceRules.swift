/// The thresholds of the rules that decide whether a read counts, in the order the reader applies
/// them. They are fitted, not chosen: `bench/fit_rules.py` reads every development photo (the
/// groups of ../shared/realphotos, generated crops, generated photos without a code, generated
/// photos of codes made hard) with each combination of a grid, and keeps the one that scores best:
/// right codes less 20 for each wrong one. Its figures for each group left out of the fit are in
/// docs/recall.md. The fitted values are `AcceptanceRules.fitted` (AcceptanceRules+Fitted.swift,
/// written by that script); `ingest explain --rules FILE` reads with others, which is how the
/// script tries them.
package struct AcceptanceRules: Codable, Sendable, Equatable {
    /// A linear code read across a whole frame or region by fewer agreeing scan lines than this is
    /// left to the next step: a part of a larger code (a UPC-E inside an EAN-13) or texture that
    /// passes a check digit is read by few lines; a real code by dozens.
    package var trustedLines: Int
    /// A linear code read by fewer lines than this needs a second, differently made read that
    /// agrees (zxing-cpp, the template reader, or another copy of its region).
    package var confirmedLines: Int
    /// The quiet zone test (`QuietZone`) looks for dark bars from this many modules beside a
    /// retail code's end; nearer lies the blur of the outer bar's edge.
    package var quietZoneNearest: Double
    /// Of the three scan lines the quiet zone test draws across a read, this many must find bars
    /// beside an end for the read to be a part of a larger code.
    package var quietZoneLines: Int
    /// The dark and light must change this often beside the end, along a line, for what lies
    /// there to be bars: 0 takes any dark (a blurred code's merged bars), 2 and more only bars and
    /// spaces (not the dark field a label is printed on, nor a finger).
    package var quietZoneCrossings: Int
    /// A retail code read by this many scan lines or more is not judged by the quiet zone test:
    /// ZBar's box of it may span only half the code (`QuietZone.isPartial`). nil judges every read.
    package var quietZoneExemptLines: Int?
    /// A place's digit pattern this much worse than the best, per line, is not what is printed
    /// there: the template reader contradicts a code that falls this short (`TemplateReader.verdict`).
    package var contradictingShortfall: Float
    /// A linear code read across the whole photo by `confirmedLines` lines or more, where zxing-cpp
    /// reads nothing, counts without the template reader's verdict when read by this many lines or
    /// more; by fewer, it counts unless the template reader contradicts it on the code's whole
    /// extent (`BarcodeReader.stands`). nil judges every such read. (ZBar read a misprinted code's
    /// 7 as a 1, thin bars, on 142 lines: a read of many lines is not for that right.)
    package var templateExemptLines: Int?

    package init(trustedLines: Int, confirmedLines: Int, quietZoneNearest: Double, quietZoneLines: Int,
                quietZoneCrossings: Int, quietZoneExemptLines: Int?, contradictingShortfall: Float,
                templateExemptLines: Int?) {
        self.trustedLines = trustedLines
        self.confirmedLines = confirmedLines
        self.quietZoneNearest = quietZoneNearest
        self.quietZoneLines = quietZoneLines
        self.quietZoneCrossings = quietZoneCrossings
        self.quietZoneExemptLines = quietZoneExemptLines
        self.contradictingShortfall = contradictingShortfall
        self.templateExemptLines = templateExemptLines
    }
}
