import NIOPosix

/// Runs blocking work — a catalogue read, a file read, a staged write — on NIO's pool of threads
/// for it, never on the event loops or Swift's cooperative threads.
func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await NIOThreadPool.singleton.runIfActive(body)
}
