import Foundation
import Catalog
import Imaging

/// ZBar scanners for the workers: one per concurrent use, reused across photos.
final class ScannerPool: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [BarcodeScanner] = []
    private let symbologies: Set<Symbology>
    private let density: Int
    private let rowsOnly: Bool

    init(symbologies: Set<Symbology>, density: Int, rowsOnly: Bool = false) {
        self.symbologies = symbologies
        self.density = density
        self.rowsOnly = rowsOnly
    }

    func withScanner<T>(_ body: (BarcodeScanner) -> T) -> T {
        lock.lock()
        let scanner = idle.popLast() ?? BarcodeScanner(symbologies: symbologies, density: density, rowsOnly: rowsOnly)
        lock.unlock()
        defer {
            lock.lock()
            idle.append(scanner)
            lock.unlock()
        }
        return body(scanner)
    }
}
