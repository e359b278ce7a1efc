import ArgumentParser
import Vocabulary

extension Rating: ExpressibleByArgument {
    /// A rating typed in any case: `excellent`, `Poor`.
    package init?(argument: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == argument.lowercased() }) else {
            return nil
        }
        self = match
    }
}
