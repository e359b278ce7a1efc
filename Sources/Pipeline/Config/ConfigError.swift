/// What is wrong with a configuration: the file, and every problem found in it, each naming its key.
package struct ConfigError: Error, CustomStringConvertible, Sendable {
    package var file: String
    /// One line per problem, each naming its key (`thumbnailWidth must be 16…4096, got 0`): unknown
    /// keys first, then the settings in the order they are read.
    package var messages: [String]

    package init(file: String, message: String) {
        self.init(file: file, messages: [message])
    }

    package init(file: String, messages: [String]) {
        self.file = file
        self.messages = messages
    }

    /// One line per problem: `file: message`.
    package var description: String { messages.map { "\(file): \($0)" }.joined(separator: "\n") }
}
