import ArgumentParser
import Foundation
import Logging
import Pipeline

/// How log lines are written to standard error.
enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    /// `StreamLogHandler`'s lines, escaped for a terminal (`TerminalLogHandler`).
    case text
    /// One JSON object a line, for a log collector (`JSONLogHandler`).
    case json
}

/// One JSON object a line on standard error: `time` (UTC, ISO 8601 with milliseconds), `level`,
/// `label`, `message`, and `metadata` (the handler's and the line's, strings, arrays and objects
/// as swift-log holds them), each line written whole at once so that lines from several threads never mix.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, line in line }
        var record: [String: Any] = [
            "time": Self.timestamp(Date()), "level": event.level.rawValue, "label": label,
            "message": event.message.description,
        ]
        if !merged.isEmpty { record["metadata"] = merged.mapValues(Self.json) }
        guard var line = try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        line.append(UInt8(ascii: "\n"))
        FileHandle.standardError.write(line)
    }

    private static func json(_ value: Logger.MetadataValue) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let value): value.description
        case .dictionary(let values): values.mapValues(json)
        case .array(let values): values.map(json)
        }
    }

    private static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}

extension RunSummary {
    /// The summary as one log record's metadata: the counts, and each file that needs a look.
    var logMetadata: Logger.Metadata {
        func files(_ reports: [FileReport]) -> Logger.MetadataValue {
            .array(reports.map { report in
                .dictionary(["path": .string(report.path), "reason": .string(report.reason)]
                    .merging(report.keptAt.map { ["keptAt": .string($0)] } ?? [:]) { first, _ in first })
            })
        }
        var metadata: Logger.Metadata = [
            "sets": "\(sets.count)", "captures": "\(captures)", "photos": "\(photos)", "duplicates": "\(duplicates.count)",
            "quarantined": files(quarantined), "failed": files(failed), "handedOver": files(handedOver), "skipped": files(skipped),
            "contextProblems": files(contextProblems), "seconds": "\(String(format: "%.3f", seconds))",
            "interrupted": "\(interrupted)",
        ]
        if let stoppedEarly { metadata["stoppedEarly"] = .string(stoppedEarly) }
        return metadata
    }
}
