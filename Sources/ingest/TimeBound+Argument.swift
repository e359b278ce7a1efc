import ArgumentParser
import Catalog

extension TimeBound: ExpressibleByArgument {
    package init?(argument: String) {
        self.init(parsing: argument)
    }
}
