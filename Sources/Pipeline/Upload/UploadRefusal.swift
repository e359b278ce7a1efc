/// Why an upload was refused: what the client must change, and which kind of refusal it is (the
/// web server answers each kind with its own status). Nothing of a refused upload reaches the inbox.
package struct UploadRefusal: Error, CustomStringConvertible, Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// A file, the request or the number of files past its limit (413).
        case tooLarge
        /// A part that is not a photo by its bytes (415).
        case notAPhoto
        /// No photo, a field that is not known or not valid, a body that is not multipart (400).
        case badRequest
        /// Too little free space on the inbox's disk to keep the margin (507).
        case diskFull
        /// The client sent nothing for too long (408).
        case tooSlow
        /// A part's headers (its file name among them) past their limit (431).
        case headersTooLarge
    }

    package var kind: Kind
    package var message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var description: String { message }
}
