import Foundation
import Logging

/// Writes log lines as `StreamLogHandler` does, with the message and metadata escaped for a
/// terminal (`TerminalText`), first moving a progress line out of the way when there is one.
struct TerminalLogHandler: LogHandler {
    var inner: StreamLogHandler
    let progress: ProgressLine?

    var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        event.message = "\(TerminalText.escaped(event.message.description))"
        event.metadata = event.metadata?.mapValues(Self.escaped)
        if let progress {
            progress.interrupting { inner.log(event: event) }
        } else {
            inner.log(event: event)
        }
    }

    private static func escaped(_ value: Logger.MetadataValue) -> Logger.MetadataValue {
        switch value {
        case .string(let text): .string(TerminalText.escaped(text))
        case .stringConvertible(let value): .string(TerminalText.escaped(value.description))
        case .dictionary(let values): .dictionary(values.mapValues(escaped))
        case .array(let values): .array(values.map(escaped))
        }
    }
}
