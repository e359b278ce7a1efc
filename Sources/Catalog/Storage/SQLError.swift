/// A failure of the database, in the terms the catalogue acts on, whichever database reported it.
struct SQLError: Error, CustomStringConvertible {
    enum Kind: Equatable, Sendable {
        /// A `UNIQUE` index refused the row; `column` is `table.column` when it is known.
        case unique(column: String?)
        /// A `CHECK` or `NOT NULL` constraint refused the row.
        case check
        /// A row references a row that does not exist.
        case foreignKey
        /// The disk is full or failing: no later write will fare better.
        case storage
        /// The connection to the server broke (it restarted, the network failed); nothing of an
        /// open transaction was kept.
        case connectionLost
        /// The server aborted the transaction to break a deadlock or a serialization conflict;
        /// nothing of it was kept, and running it again is safe.
        case conflict
        /// The file or server holds no catalogue: not a SQLite database, or a server refusing the login.
        case notADatabase
        /// The database cannot be opened or reached.
        case cannotOpen
        case other
    }

    var kind: Kind
    /// The database's own message.
    var message: String

    var description: String { message }
}
