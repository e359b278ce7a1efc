import Foundation
@testable import Imaging
import XCTest

/// The bound on what the decodes running at once hold: how many run together, the one too large
/// to run beside others, and the order of turns.
final class DecodeMemoryTests: XCTestCase {
    /// Decodes running inside reservations, and the most that ever ran at once.
    private final class Gauge: @unchecked Sendable {
        private let lock = NSLock()
        private var running = 0
        private(set) var most = 0
        private(set) var order: [String] = []

        func enter(_ name: String) {
            lock.withLock {
                running += 1
                most = max(most, running)
                order.append(name)
            }
        }

        func leave() { lock.withLock { running -= 1 } }
        var log: [String] { lock.withLock { order } }
    }

    private func wait(until condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(10)
        while !condition(), Date() < deadline { usleep(1_000) }
        XCTAssertTrue(condition(), "timed out")
    }

    func testReservations_runOnlyAsManyAtOnceAsFitTheLimit() {
        let memory = DecodeMemory(limit: 100)
        let gauge = Gauge()
        DispatchQueue.concurrentPerform(iterations: 12) { index in
            memory.withReservation(of: 40) {
                gauge.enter("\(index)")
                usleep(5_000)
                gauge.leave()
            }
        }
        XCTAssertEqual(gauge.log.count, 12)
        XCTAssertLessThanOrEqual(gauge.most, 2, "three of 40 do not fit in 100")
    }

    func testReservation_largerThanTheLimit_runsAloneAfterTheOthersAndBeforeLaterOnes() {
        let memory = DecodeMemory(limit: 100)
        let gauge = Gauge()
        let release = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        let queue = DispatchQueue(label: "decodes", attributes: .concurrent)
        queue.async(group: group) {
            memory.withReservation(of: 10) {
                gauge.enter("small, first")
                release.wait()
                gauge.leave()
            }
        }
        wait { gauge.log.count == 1 }
        queue.async(group: group) {
            memory.withReservation(of: 500) {
                gauge.enter("large")
                gauge.leave()
            }
        }
        wait { memory.waiting == 1 }
        // Would fit beside the first, but the large one came before it.
        queue.async(group: group) {
            memory.withReservation(of: 10) {
                gauge.enter("small, last")
                gauge.leave()
            }
        }
        wait { memory.waiting == 2 }
        XCTAssertEqual(gauge.log, ["small, first"], "the large one waits for the first to finish, the last for its turn")
        release.signal()
        group.wait()
        XCTAssertEqual(gauge.log, ["small, first", "large", "small, last"])
        XCTAssertEqual(gauge.most, 1)
    }

    func testReservation_throwing_givesItsMemoryBack() {
        let memory = DecodeMemory(limit: 100)
        XCTAssertThrowsError(try memory.withReservation(of: 100) { () throws(ImageError) in throw ImageError.notAnImage })
        let gauge = Gauge()
        memory.withReservation(of: 100) { gauge.enter("after the failure") }
        XCTAssertEqual(gauge.log, ["after the failure"])
    }
}
