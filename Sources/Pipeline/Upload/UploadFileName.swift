/// A file name a client sent, made safe to create in a staging folder: its last path component
/// (either separator), without control characters, leading dots (no hidden files: the pipeline
/// ignores them) or a name too long for the file system; a clash gets ` (2)`, ` (3)`….
package enum UploadFileName {
    /// Bytes a name may keep of its stem: 255 is the usual file-system limit, with room for ` (99)`
    /// and an extension.
    static let maximumStemBytes = 200

    /// The name to use for `name` (as sent) in a set that has `taken` (which it joins).
    package static func clean(_ name: String, taken: inout Set<String>) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var kept = String(String.UnicodeScalarView(last.unicodeScalars.filter { !isControl($0) }))
        while kept.hasPrefix(".") || kept.hasPrefix(" ") { kept.removeFirst() }
        while kept.hasSuffix(" ") || kept.hasSuffix(".") { kept.removeLast() }
        var (stem, ext) = split(kept)
        if stem.isEmpty { stem = "photo" }
        stem = truncated(stem, bytes: maximumStemBytes)
        ext = truncated(ext, bytes: 16)
        let reserved: Set<String> = ["capture.json"]
        var candidate = ext.isEmpty ? stem : "\(stem).\(ext)"
        var counter = 2
        while taken.contains(candidate.lowercased()) || reserved.contains(candidate.lowercased()) {
            candidate = ext.isEmpty ? "\(stem) (\(counter))" : "\(stem) (\(counter)).\(ext)"
            counter += 1
        }
        taken.insert(candidate.lowercased())
        return candidate
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F ... 0x9F).contains(scalar.value)
            || scalar.properties.generalCategory == .format || scalar.properties.generalCategory == .lineSeparator
            || scalar.properties.generalCategory == .paragraphSeparator
    }

    private static func split(_ name: String) -> (stem: String, ext: String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }

    /// `text` cut to at most `bytes` of UTF-8, at a character's end.
    private static func truncated(_ text: String, bytes: Int) -> String {
        var result = ""
        var count = 0
        for character in text {
            count += character.utf8.count
            if count > bytes { break }
            result.append(character)
        }
        return result
    }
}
