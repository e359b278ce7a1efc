import ArgumentParser
import Catalog

extension TimeBound: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(parsing: argument)
    }
}
