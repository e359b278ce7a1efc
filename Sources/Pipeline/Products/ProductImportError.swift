/// Why an import of a product dump stopped, naming the file and what to do.
package enum ProductImportError: Error, CustomStringConvertible, Equatable {
    /// The file could not be opened or read (path, reason).
    case cannotRead(path: String, reason: String)
    /// The file is not an Open Food Facts dump; nothing was written (path, reason).
    case notADump(path: String, reason: String)
    /// `--strict`: a line could not be used (path, line number, reason).
    case malformedLine(path: String, line: Int, reason: String)
    /// The gzip stream ended early or is damaged (path, gzip's message); the rows before were stored.
    case damagedGzip(path: String, reason: String)

    package var description: String {
        switch self {
        case let .cannotRead(path, reason):
            return "\(path): cannot read the dump (\(reason))."
        case let .notADump(path, reason):
            return "\(path): not an Open Food Facts dump (\(reason)); nothing was imported. Pass the CSV "
                + "export (tab-separated, with a code column) or the JSONL dump, either optionally gzipped."
        case let .malformedLine(path, line, reason):
            return "\(path): line \(line): \(reason) (--strict); the batches before it were stored, "
                + "run again without --strict to skip such lines."
        case let .damagedGzip(path, reason):
            return "\(path): the gzip stream is damaged or cut short (\(reason)); the rows before it were stored, "
                + "import a whole copy of the dump to finish."
        }
    }
}
