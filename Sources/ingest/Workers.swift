import ArgumentParser
import Catalog
import Foundation
import Pipeline

extension Ingest {
    /// `ingest workers`: who is ingesting into the catalogue, and which sets each holds.
    struct Workers: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Lists the workers ingesting into the catalogue, the sets each has claimed and their leases.",
            discussion: """
                With a PostgreSQL catalogue: every ingest run or watch sharing it, live ones first, each with \
                its host, process id, start and the seconds left of its lease, then its claimed sets; a \
                lapsed worker (killed, cut off) is listed until another worker takes its sets over. With a \
                SQLite catalogue: the process holding the library's lock, if any. Exit codes: 0; 1 no \
                catalogue; 64 usage error.
                """
        )

        @OptionGroup var options: CommonOptions

        func run() throws {
            try withCommandContext(options) { context in
                guard context.config.catalogLocation.isShared else {
                    let holder = LibraryLock.holder(library: context.config.library)
                    printEscaped("SQLite catalogue \(context.catalogue.path): one worker at a time, holding \(LibraryLock.path(library: context.config.library))")
                    printEscaped(holder.map { "worker: process \($0)" } ?? "no worker now")
                    return
                }
                printEscaped(Self.table(try context.catalogue.workers()), terminator: "")
            }
        }

        /// One line per worker, then one per claim, indented.
        static func table(_ list: WorkerList) -> String {
            guard !list.workers.isEmpty || !list.claims.isEmpty else { return "no worker now\n" }
            let live = list.workers.filter { $0.leaseUntil >= list.now }
            let lapsed = list.workers.filter { $0.leaseUntil < list.now }
            let known = Set(list.workers.map(\.id))
            var text = ""
            for worker in live + lapsed {
                let lease = worker.leaseUntil >= list.now ? "lease \(seconds(worker.leaseUntil - list.now))"
                    : "LAPSED \(seconds(list.now - worker.leaseUntil)) ago"
                text += "\(worker.id)  host \(worker.host)  pid \(worker.pid)  started \(worker.startedAt)  \(lease)\n"
                text += claims(list.claims.filter { $0.workerId == worker.id }, now: list.now)
            }
            for orphan in Set(list.claims.map(\.workerId)).subtracting(known).sorted() {
                text += "\(orphan)  (no longer registered)\n" + claims(list.claims.filter { $0.workerId == orphan }, now: list.now)
            }
            return text
        }

        private static func claims(_ claims: [SetClaim], now: Double) -> String {
            claims.map { claim in
                let state = claim.leaseUntil >= now ? "lease \(seconds(claim.leaseUntil - now))" : "lapsed: any worker may take it over"
                return "  set \(claim.setName)  claimed \(seconds(now - claim.claimedUTC)) ago  \(state)\n"
            }.joined()
        }

        private static func seconds(_ value: Double) -> String {
            "\(Int(value.rounded())) s"
        }
    }
}
