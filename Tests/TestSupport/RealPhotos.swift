package import Foundation

/// The real photos of `../shared/realphotos` (see its README): photos of real packages with the
/// code each holds, and photos without any code.
package enum RealPhotos {
    package static let folder = IngestHarness.shared.appendingPathComponent("realphotos")

    /// One photo of `barcodes/`: its file, its group (`ean13-1`, `upce-2`, `qrcode-2`, …) and its text.
    package struct Photo: Sendable {
        package var path: String
        package var group: String
        package var text: String

        /// The retail groups the issue counts (not the `*-extension-*` ones).
        package var isRetail: Bool {
            ["ean13-1", "ean13-3", "upca-2", "upca-4", "upce-1", "upce-2"].contains(group)
        }

        /// Whether a read (its text and GTIN-13) is this photo's code: retail codes by GTIN-13
        /// (the TSV holds them as GTIN-13, an add-on's digits after), others by text without
        /// line breaks (the TSV drops some and writes others as `<LF>`).
        package func isRead(text read: String, gtin13: String?) -> Bool {
            if group.hasPrefix("ean13") || group.hasPrefix("upc") { return gtin13 == String(text.prefix(13)) }
            let plain = { (s: String) in
                String(String.UnicodeScalarView(s.replacingOccurrences(of: "<LF>", with: "").unicodeScalars.filter { $0 != "\n" && $0 != "\r" }))
            }
            return plain(read) == plain(text)
        }
    }

    /// Every photo with a code, in the TSV's order.
    package static func withCodes() throws -> [Photo] {
        let tsv = try String(contentsOf: folder.appendingPathComponent("barcodes/expected.tsv"), encoding: .utf8)
        return tsv.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            return Photo(path: folder.appendingPathComponent("barcodes/\(fields[0])").path, group: fields[1], text: fields[2])
        }
    }

    /// The paths of the photos without a code.
    package static func withoutCodes() throws -> [String] {
        let nobarcode = folder.appendingPathComponent("nobarcode")
        return try FileManager.default.contentsOfDirectory(atPath: nobarcode.path).sorted()
            .filter { [".jpg", ".jpeg", ".png", ".webp"].contains(where: $0.lowercased().hasSuffix) }
            .map { nobarcode.appendingPathComponent($0).path }
    }
}
