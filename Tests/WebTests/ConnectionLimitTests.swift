import NIOCore
import NIOEmbedded
@testable import Web
import XCTest

/// The deadlines a connection lives by, without a socket (the sockets: `ServeConnectionTests`).
final class ConnectionClockTests: XCTestCase {
    private let limits = ConnectionClock.Limits(header: .seconds(10), idle: .seconds(60), body: .seconds(35))
    private let start = ContinuousClock.now

    private func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    func testNewConnection_mustSendAWholeHeadWithinTheHeaderTime_howeverSlowlyItDrips() {
        var clock = ConnectionClock(limits: limits, opened: start)
        XCTAssertEqual(clock.deadline, at(10))
        XCTAssertEqual(clock.reason, "no complete request head in time")
        for second in 1 ... 9 { clock.bytesArrived(at: at(Double(second))) }
        XCTAssertEqual(clock.deadline, at(10), "a byte a second does not move the head's deadline")
        XCTAssertTrue(clock.isQuiet, "a connection still without its head may be closed for a newcomer")
    }

    func testWhileAnAnswerIsMade_nothingIsTimed_thenTheIdleTimeRuns() {
        var clock = ConnectionClock(limits: limits, opened: start)
        clock.bytesArrived(at: at(1))
        clock.headArrived(at: at(2))
        XCTAssertEqual(clock.deadline, at(37), "the body may pause for its own time")
        XCTAssertEqual(clock.reason, "the request's body stalled")
        clock.bytesArrived(at: at(30))
        XCTAssertEqual(clock.deadline, at(65), "each body byte moves the body's deadline")
        clock.requestEnded()
        XCTAssertNil(clock.deadline, "the route's work is its own")
        XCTAssertFalse(clock.isQuiet)
        clock.responseEnded(at: at(100))
        XCTAssertEqual(clock.deadline, at(160))
        XCTAssertEqual(clock.reason, "idle between requests")
        XCTAssertTrue(clock.isQuiet)
    }

    func testAnAnswerBeforeItsRequestsBody_lingersForTheLingeringTimeWhateverStillComes() {
        var clock = ConnectionClock(limits: limits, opened: start)
        clock.headArrived(at: at(1))
        clock.bytesArrived(at: at(2))
        XCTAssertTrue(clock.readingBody)
        clock.responseEnded(at: at(3))
        clock.answeredBeforeItsBody(at: at(3))
        XCTAssertFalse(clock.readingBody)
        XCTAssertEqual(clock.deadline, at(3) + ConnectionClock.lingering)
        XCTAssertEqual(clock.reason, "the rest of a refused request's body kept coming")
        clock.bytesArrived(at: at(4))
        XCTAssertEqual(clock.deadline, at(3) + ConnectionClock.lingering, "bytes that keep coming do not keep it open")
        XCTAssertLessThan(ConnectionClock.lingering, limits.header, "shorter than any other wait")
    }

    func testAfterAQuietSpell_theNextHeadHasTheHeaderTimeFromItsFirstByte() {
        var clock = ConnectionClock(limits: limits, opened: start)
        clock.headArrived(at: at(1))
        clock.requestEnded()
        clock.responseEnded(at: at(2))
        clock.bytesArrived(at: at(50))
        XCTAssertEqual(clock.deadline, at(60), "the idle deadline gives way to the head's")
        clock.bytesArrived(at: at(55))
        XCTAssertEqual(clock.deadline, at(60))
    }
}

/// The cap on open connections: quiet ones make room, busy ones are never closed for a newcomer.
final class ConnectionTableTests: XCTestCase {
    func testPastCapacity_theLongestQuietGoes_andANewcomerIsRefusedWhenAllAreBusy() {
        let table = ConnectionTable(capacity: 3)
        let channels = (0 ..< 5).map { _ in EmbeddedChannel() }
        XCTAssertNil(table.admit(channels[0]))
        XCTAssertNil(table.admit(channels[1]))
        XCTAssertNil(table.admit(channels[2]))
        table.mark(channels[0], busy: true)
        table.mark(channels[0], busy: false) // quiet again: now the most recently quiet
        XCTAssertTrue(table.admit(channels[3]) === channels[1], "the longest quiet makes room")
        XCTAssertEqual(table.count, 3)
        for channel in [channels[0], channels[2], channels[3]] { table.mark(channel, busy: true) }
        XCTAssertTrue(table.admit(channels[4]) === channels[4], "every connection busy: the newcomer is refused")
        XCTAssertEqual(table.count, 3)
        table.remove(channels[2])
        XCTAssertNil(table.admit(channels[4]))
        XCTAssertEqual(table.count, 3)
    }
}
