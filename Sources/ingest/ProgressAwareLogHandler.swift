import Foundation
import Logging
import Pipeline
import Synchronization

/// Writes log lines as `StreamLogHandler` does, first moving a progress line out of the way.
struct ProgressAwareLogHandler: LogHandler {
    var inner: StreamLogHandler
    let progress: ProgressLine

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
        progress.interrupting { inner.log(event: event) }
    }
}
