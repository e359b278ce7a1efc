package import Catalog
import FileSystem
import Foundation
internal import SystemPackage
import CoreMetrics

/// The gauges read when the metrics are scraped rather than recorded as work happens: the inbox's
/// waiting sets, the catalogue's size, the library's free space and whether the service is ready.
/// A gauge that cannot be read keeps its last value; readiness says why (`Readiness`).
package enum ServiceGauges {
    package static func refresh(config: PipelineConfig, catalogue: Catalogue) {
        let readiness = Readiness(config: config, catalogue: catalogue)
        MetricFamily.ready.meter().set(readiness.ready ? 1 : 0)
        if let sets = try? waitingSets(in: config.inbox) {
            MetricFamily.inboxSetsWaiting.meter().set(sets.count)
            let now = Date().timeIntervalSince1970
            MetricFamily.inboxOldestWaiting.meter().set(sets.map { max(0, now - $0) }.max() ?? 0)
        }
        if let counts = try? catalogue.counts() {
            MetricFamily.catalogueCaptures.meter().set(counts.captures)
            MetricFamily.cataloguePhotos.meter().set(counts.photos)
        }
        if let free = readiness.freeBytes {
            MetricFamily.libraryFreeBytes.meter().set(free)
        }
        MetricFamily.libraryFreeFloorBytes.meter().set(config.minFreeMB << 20)
    }

    /// When each set folder of the inbox with something to ingest last changed (seconds since
    /// 1970): a folder with hidden files only (`.DS_Store`), which a run leaves, waits for nothing.
    /// In `copy` mode a set stays in the inbox once ingested, and counts here too.
    static func waitingSets(in inbox: FilePath) throws -> [Double] {
        try FileOperationError.attempt("list", inbox) { try Directory.entries(of: inbox) }
            .filter { $0.isDirectory && !$0.isHidden }
            .compactMap { entry in
                let folder = inbox.appending(entry.name)
                guard let status = try? folder.stat(followTargetSymlink: false),
                      (try? Directory.entries(of: folder).contains { !$0.isHidden }) == true else {
                    return nil
                }
                return Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
            }
    }
}
