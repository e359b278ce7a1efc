import Synchronization

/// Hands each problem `LibraryVerifier` finds to its caller, one at a time whichever thread found
/// it, and keeps only their counts.
final class ProblemTally: Sendable {
    private let counts = Mutex((problems: 0, repaired: 0))
    private let onProblem: @Sendable (LibraryProblem) -> Void

    init(_ onProblem: @escaping @Sendable (LibraryProblem) -> Void) {
        self.onProblem = onProblem
    }

    /// Counts `problem` and passes it on; calls from several threads are passed on in turn.
    func found(_ problem: LibraryProblem) {
        counts.withLock { counts in
            counts.problems += 1
            if problem.repair != nil { counts.repaired += 1 }
            onProblem(problem)
        }
    }

    /// The problems found so far, and how many of them were repaired.
    var total: (problems: Int, repaired: Int) { counts.withLock { $0 } }
}
