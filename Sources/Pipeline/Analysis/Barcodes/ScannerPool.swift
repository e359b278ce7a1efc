import Catalog
import Imaging
import Synchronization

/// ZBar scanners for the workers: one per concurrent use, reused across photos.
final class ScannerPool: Sendable {
    private let idle = Mutex<[BarcodeScanner]>([])
    private let symbologies: Set<Symbology>
    private let density: Int
    private let rowsOnly: Bool

    init(symbologies: Set<Symbology>, density: Int, rowsOnly: Bool = false) {
        self.symbologies = symbologies
        self.density = density
        self.rowsOnly = rowsOnly
    }

    /// Runs `body` with a scanner no other thread uses meanwhile.
    func withScanner<T>(_ body: (BarcodeScanner) -> T) -> T {
        let scanner = idle.withLock { $0.popLast() }
            ?? BarcodeScanner(symbologies: symbologies, density: density, rowsOnly: rowsOnly)
        defer { idle.withLock { $0.append(scanner) } }
        return body(scanner)
    }
}
