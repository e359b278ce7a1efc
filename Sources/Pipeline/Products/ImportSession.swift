import Catalog
import Vocabulary

/// One import's state: the format, the batch being filled and the counts.
struct ImportSession {
    let catalogue: Catalogue
    let options: ProductImportOptions
    /// `--only-catalogued`: the GTIN-14s of the catalogue's captures.
    let catalogued: Set<String>?
    var format: (any DumpFormat)?
    var report = ProductImportReport()
    private var batch: [Product] = []

    init(catalogue: Catalogue, options: ProductImportOptions, catalogued: Set<String>?) {
        self.catalogue = catalogue
        self.options = options
        self.catalogued = catalogued
        batch.reserveCapacity(options.batchSize + 1)
    }

    /// Reads every record left, writing full batches; `progress` gets the rows read now and then.
    mutating func readRecords(_ reader: LineReader, progress: (Int) -> Void) throws {
        while let line = try reader.next() {
            switch line {
            case let .text(bytes): try read(bytes, lineNumber: reader.lineNumber, reader)
            case .tooLong: try skip(TabSeparatedFields.Malformed("line over \(ProductImport.maximumLine >> 20) MB"),
                                    lineNumber: reader.lineNumber, reader)
            }
            if batch.count >= options.batchSize {
                try flush()
                progress(report.rowsRead)
            } else if report.rowsRead % 8192 == 0 {
                progress(report.rowsRead)
            }
        }
    }

    /// Reads one record into the batch, or counts why it is skipped.
    mutating func read(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, _ reader: LineReader) throws {
        guard let format else { return }
        report.rowsRead += 1
        do {
            try format.load(line, reader: reader)
            guard let code = try format.code() else { return report.skipped["no code", default: 0] += 1 }
            guard let keys = ProductCode.keys(for: code) else { return report.skipped["code not a GTIN", default: 0] += 1 }
            if let catalogued, !keys.contains(where: catalogued.contains) { return report.notCatalogued += 1 }
            var product = Product(gtin14: keys[0], code: code, source: .off)
            try format.fill(&product)
            batch.append(product)
            for key in keys.dropFirst() { batch.append(product.alias(gtin14: key)) }
        } catch let malformed as TabSeparatedFields.Malformed {
            try skip(malformed, lineNumber: lineNumber, reader)
        }
    }

    /// Counts a malformed record, or with `strict` stops the import.
    private mutating func skip(_ malformed: TabSeparatedFields.Malformed, lineNumber: Int, _ reader: LineReader) throws {
        guard !options.strict else {
            throw ProductImportError.malformedLine(path: reader.path, line: lineNumber, reason: "\(malformed)")
        }
        report.skipped[malformed.kind, default: 0] += 1
    }

    /// Writes the batch in one transaction.
    mutating func flush() throws {
        guard !batch.isEmpty else { return }
        let owned = batch.lazy.filter { $0.aliasOf == nil }.count
        let written = try catalogue.upsertProducts(batch, replaceManual: options.replaceManual)
        report.stored += written
        report.kept += owned - written
        batch.removeAll(keepingCapacity: true)
    }
}
