import ArgumentParser
import Foundation
import Pipeline
import SystemPackage

extension Ingest {
    /// `ingest explain`: why a photo's code was read, or not.
    struct Explain: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Shows how the barcodes of photos are read: every read, the rule that kept or dropped it, and the codes given.",
            discussion: """
                Reads each photo as ingest run does (the configuration's symbologies and limits), without a \
                catalogue, and prints for each read a step made (overview, region, full resolution, second look) \
                the decoder and the prepared copy it read, the code, its symbology and agreeing scan lines, what \
                became of it and why; each region tried that gave nothing (outcome "nothing"), and the rectangle \
                decoded again at full resolution; then the codes the photo gives. A run reads a set's photos together: a code \
                read once on one photo (unconfirmed) counts when another photo of the set reads it too. Last, for \
                reference, what zxing-cpp alone reads on the whole photo at full resolution (turned, shrunk and \
                inverted as well, as its own defaults try): a code there and not \
                among the photo's was missed by the steps; none there, the decoder ingest links cannot read it. Exit \
                codes: 0 every photo explained; 1 a photo could not be read (a run would quarantine it); 64 usage error.
                """
        )

        @OptionGroup var options: CommonOptions

        @Flag(help: "Print JSON: per photo its size, the overview's shrink, its events and codes.")
        var json = false

        @Option(help: .private)
        var rules: String?

        /// Leaves out the reference read (zxing-cpp on the whole photo): bench/fit_rules.py reads
        /// every photo 128 times and uses only the codes.
        @Flag(help: .private)
        var noReference = false

        @Argument(help: "The photos to explain.")
        var photos: [String]

        func run() throws {
            let (config, _) = try CommandContext.configuration(options)
            let analyzer = try PhotoAnalyzer(config: config, stagingFolder: FilePath(NSTemporaryDirectory()))
            // Other thresholds than the fitted ones: how bench/fit_rules.py tries a grid of them.
            // A file of a list of them reads each photo with each (decoded once), and the JSON is
            // a list per entry, in their order.
            let file = try rules.map(Self.ruleSets(in:))
            let grid = file?.sets
            var explanations = [[BarcodeExplanation]](repeating: [], count: grid?.count ?? 1)
            var failed = false
            for photo in photos {
                do {
                    let each = try analyzer.explainBarcodes(ofPhotoAt: FilePath(photo), each: grid ?? [.fitted], reference: !noReference)
                    for (index, explanation) in each.enumerated() { explanations[index].append(explanation) }
                    if !json { each.forEach { printEscaped(Self.text(of: $0)) } }
                } catch {
                    failed = true
                    FileHandle.standardError.write(Data((TerminalText.escaped("ingest: \(photo): \(error)") + "\n").utf8))
                }
            }
            if json { try file?.isList == true ? printJSON(explanations) : printJSON(explanations[0]) }
            if failed { throw ExitCode.failure }
        }

        /// The rule sets of a `--rules` file: one set, or a list of them. A file that cannot be
        /// read, holds neither, or lists none is a usage error (64), as a configuration file's is:
        /// it says nothing of the photos.
        static func ruleSets(in path: String) throws -> (sets: [AcceptanceRules], isList: Bool) {
            let data: Data
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw ExitCode.validationFailure(saying: "\(path): cannot read the rules: a directory, not a file")
            }
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw ExitCode.validationFailure(saying: "\(path): cannot read the rules: \(error.localizedDescription)")
            }
            // A list is one by its first character, so a bad entry's error is the list's own.
            let isList = data.first { !Set(" \t\r\n".utf8).contains($0) } == UInt8(ascii: "[")
            do {
                let sets = isList ? try JSONDecoder().decode([AcceptanceRules].self, from: data)
                    : [try JSONDecoder().decode(AcceptanceRules.self, from: data)]
                guard !sets.isEmpty else { throw ExitCode.validationFailure(saying: "\(path): lists no rules") }
                return (sets, isList)
            } catch let error as ExitCode {
                throw error
            } catch {
                throw ExitCode.validationFailure(saying: "\(path): " + (isList ? "not a list of acceptance rules" : "not acceptance rules")
                    + ": \(error)")
            }
        }

        /// One photo's explanation as lines a person reads: a line per event, then the outcome.
        static func text(of explanation: BarcodeExplanation) -> String {
            // The path on one line: the text's own line breaks are kept, a name's are escaped.
            var lines = ["\(TerminalText.escaped(explanation.photo))  \(explanation.width)×\(explanation.height), overview at 1/\(explanation.overviewShrink)"]
            for event in explanation.events {
                let code = event.code.map { code in
                    "\(code) (\(event.symbology ?? "?")\(event.lines.map { ", \($0) lines" } ?? ""))"
                } ?? ""
                let step = event.step.padding(toLength: 15, withPad: " ", startingAt: 0)
                lines.append("  \(step) \(event.outcome.padding(toLength: 11, withPad: " ", startingAt: 0)) \(code)")
                lines.append("      \(event.source)" + (event.because.map { "; \($0)" } ?? ""))
            }
            let codes = explanation.codes.map { code in explanation.addons[code].map { "\(code) (add-on \($0))" } ?? code }
            lines.append("  codes: " + (codes.isEmpty ? "none" : codes.joined(separator: ", "))
                + (explanation.unconfirmed.isEmpty ? "" : "; unconfirmed: " + explanation.unconfirmed.joined(separator: ", ")))
            let reference = explanation.zxingOnWholePhoto.map { $0.isEmpty ? "nothing" : $0.joined(separator: ", ") }
            lines.append("  for reference, zxing-cpp alone on the whole photo at full resolution, every way: " + (reference ?? "could not decode it"))
            return lines.joined(separator: "\n")
        }
    }
}
