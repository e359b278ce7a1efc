internal import CCrashNote
import Glibc

/// The note a crashing process leaves of the signal that ended it: what a C library's `abort()` or
/// a fault in it raised. Handlers of the crash signals (`SIGABRT`, `SIGSEGV`, `SIGBUS`, `SIGILL`,
/// `SIGFPE`, `SIGTRAP`, `SIGSYS`) write the signal's number to the file `noting(to:)` names, then
/// hand the signal on to the handler they found, so the process ends as it would have. A `SIGKILL`
/// leaves no note: nothing runs in the process then.
package enum CrashNote {
    /// Installs the handlers (once per process) and makes them write to `descriptor`, an open file;
    /// nil writes nowhere.
    package static func noting(to descriptor: Int32?) {
        ingest_crash_note_install()
        ingest_crash_note_set(descriptor ?? -1)
    }

    /// The signal a note names, by the constant's name (`SIGABRT`); nil when the note is empty.
    package static func signal(in note: String) -> String? {
        guard let number = note.split(separator: "\n").first.flatMap({ Int32($0) }) else { return nil }
        return names[number] ?? "signal \(number)"
    }

    private static let names: [Int32: String] = [
        SIGABRT: "SIGABRT", SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE",
        SIGTRAP: "SIGTRAP", SIGSYS: "SIGSYS",
    ]
}
