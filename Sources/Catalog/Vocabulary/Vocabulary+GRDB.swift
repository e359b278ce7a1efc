import GRDB

// The vocabulary is stored as its raw text, so records and query filters use the enums themselves;
// GRDB supplies the conversion for string-backed enums.

extension Symbology: DatabaseValueConvertible {}
extension Rating: DatabaseValueConvertible {}
extension TimeSource: DatabaseValueConvertible {}
extension ImageFormat: DatabaseValueConvertible {}
extension ProductSource: DatabaseValueConvertible {}
