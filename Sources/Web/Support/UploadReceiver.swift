import Foundation
import MultipartKit
import NIOCore
import Pipeline

/// One `multipart/form-data` upload, parsed as its bytes arrive (multipart-kit's streaming parser)
/// and written to its staging folder as it goes: a photo is never whole in memory. Refuses, with an
/// `UploadRefusal`, a part that is not a photo by its bytes, a limit passed, a field that is not one
/// of the capture context's. Used by one request, one call after another.
// @unchecked: one request owns it and feeds it one call after another (never two at once), so its
// parser and counters need no lock; Sendable only so that those calls may hop threads.
final class UploadReceiver: @unchecked Sendable {
    /// The text fields an upload may carry: `capture.json`'s keys, and the CSRF token of a form.
    static let fields: Set<String> = ["agentId", "agentName", "requestId", "note", "csrf"]
    /// The bytes the parser is handed at once, and what a part's headers may hold in all: a browser
    /// sends a few hundred. multipart-kit holds a header whole while it parses it, at about ten
    /// times its size, so a header must be refused before it is long — not after.
    static let sliceBytes = 16 << 10
    static let maximumHeaderBytes = 16 << 10
    /// The longest file name a part may give, in bytes.
    static let maximumFileNameBytes = 1024

    private enum Event {
        case header(String, String)
        case body(ByteBuffer)
        case partEnd

        /// Whether the parser is past a part's headers.
        var isProgress: Bool {
            switch self {
            case .header: false
            case .body(let buffer): buffer.readableBytes > 0
            case .partEnd: true
            }
        }
    }

    /// The part being read: its headers until its first bytes, then what it turned out to be.
    private enum Part {
        case headers([(String, String)])
        /// A photo whose first bytes are still being gathered to tell its format.
        case sniffing(name: String, prefix: [UInt8])
        case photo(name: String, bytes: Int64)
        case field(name: String, value: [UInt8])
        /// A file input left empty: browsers send a part without a name or bytes.
        case empty
    }

    private let parser: MultipartParser
    private let staged: StagedUpload
    private let limits: UploadLimits
    private let staging: UploadStaging
    private var events: [Event] = []
    private var part: Part?
    private var values: [String: String] = [:]
    /// The last bytes of the body, where its closing delimiter must be.
    private var tail: [UInt8] = []
    private let closing: [UInt8]
    private(set) var received: Int64 = 0
    private var checkedSpaceAt: Int64 = 0
    /// Bytes handed to the parser since its last body bytes or part end: a part's headers (or a
    /// preamble) being read.
    private var headerBytes = 0
    private var parts = 0

    init(boundary: String, staged: StagedUpload, staging: UploadStaging, limits: UploadLimits) {
        parser = MultipartParser(boundary: boundary)
        closing = Array("--\(boundary)--".utf8)
        self.staged = staged
        self.staging = staging
        self.limits = limits
        parser.onHeader = { [unowned self] name, value in events.append(.header(name, value)) }
        parser.onBody = { [unowned self] buffer in events.append(.body(buffer)) }
        parser.onPartComplete = { [unowned self] in events.append(.partEnd) }
    }

    /// Parses `buffer` and writes what it holds (blocking: call it off the event loops).
    func receive(_ buffer: ByteBuffer) throws {
        received += Int64(buffer.readableBytes)
        guard received <= limits.maxRequestBytes else {
            throw UploadRefusal(.tooLarge, "the upload is larger than \(limits.maxRequestMB) MB (uploadMaxRequestMB).")
        }
        if received - checkedSpaceAt >= 8 << 20 {
            checkedSpaceAt = received
            try staging.checkSpace(for: 0)
        }
        tail.append(contentsOf: buffer.readableBytesView.suffix(closing.count + 64))
        if tail.count > closing.count + 64 { tail.removeFirst(tail.count - closing.count - 64) }
        var rest = buffer
        while let slice = rest.readSlice(length: min(Self.sliceBytes, rest.readableBytes)), slice.readableBytes > 0 {
            do {
                try parser.execute(slice)
            } catch {
                throw UploadRefusal(.badRequest, "the body is not valid multipart/form-data.")
            }
            let pending = events
            events.removeAll(keepingCapacity: true)
            headerBytes = pending.contains(where: \.isProgress) ? 0 : headerBytes + slice.readableBytes
            guard headerBytes <= Self.maximumHeaderBytes + Self.sliceBytes else {
                throw UploadRefusal(.headersTooLarge, "a part's headers are longer than \(Self.maximumHeaderBytes / 1024) KB: "
                    + "a part names its field and file in a few hundred bytes.")
            }
            for event in pending { try handle(event) }
        }
    }

    /// Checks that the body was whole and held a photo; returns the capture context its fields give.
    func finish() throws -> CaptureContext? {
        guard tail.count >= closing.count,
              tail.indices.dropLast(closing.count - 1).contains(where: { tail[$0 ..< $0 + closing.count].elementsEqual(closing) }),
              part == nil else {
            throw UploadRefusal(.badRequest, "the body ended before its closing boundary: the upload was cut short.")
        }
        try staged.finishPhoto()
        guard !staged.photos.isEmpty else {
            throw UploadRefusal(.badRequest, "the upload holds no photo: send one or more files in a multipart/form-data body.")
        }
        var fields = values
        fields["csrf"] = nil
        guard !fields.isEmpty else { return nil }
        do {
            let data = try JSONSerialization.data(withJSONObject: fields)
            return try CaptureContext.parse(data, file: "the upload's fields")
        } catch let error as CaptureContextError {
            throw UploadRefusal(.badRequest, error.description)
        }
    }

    private func handle(_ event: Event) throws {
        switch (event, part) {
        case (.header(let name, let value), .headers(var headers)):
            headers.append((name, value))
            part = .headers(headers)
        case (.header(let name, let value), nil):
            part = .headers([(name, value)])
        case (.header, _):
            throw UploadRefusal(.badRequest, "the body is not valid multipart/form-data.")
        case (.body(let buffer), _):
            try began(partWith: buffer.readableBytes > 0)
            try take(buffer)
        case (.partEnd, _):
            try began(partWith: false)
            try endPart()
        }
    }

    /// Turns the headers read into a part, at its first bytes or its end.
    private func began(partWith bytes: Bool) throws {
        guard case .headers(let headers) = part ?? .headers([]) else { return }
        parts += 1
        guard parts <= limits.maxFiles * 2 + Self.fields.count else {
            throw UploadRefusal(.tooLarge, "the upload has more parts than \(limits.maxFiles) photos (uploadMaxFiles) and "
                + "their fields can fill.")
        }
        let disposition = headers.first { $0.0.lowercased() == "content-disposition" }.map { ContentDisposition($0.1) }
        if let filename = disposition?.filename {
            guard filename.utf8.count <= Self.maximumFileNameBytes else {
                throw UploadRefusal(.headersTooLarge, "a file name is longer than \(Self.maximumFileNameBytes) bytes.")
            }
            part = filename.isEmpty && !bytes ? .empty : .sniffing(name: filename, prefix: [])
        } else if let name = disposition?.name {
            guard Self.fields.contains(name) else {
                throw UploadRefusal(.badRequest, "unknown field '\(name)': an upload takes photos and the fields "
                    + Self.fields.subtracting(["csrf"]).sorted().joined(separator: ", ") + ".")
            }
            part = .field(name: name, value: [])
        } else {
            throw UploadRefusal(.badRequest, "a part has no Content-Disposition name: the body is not multipart/form-data.")
        }
    }

    private func take(_ buffer: ByteBuffer) throws {
        switch part {
        case .sniffing(let name, var prefix):
            prefix.append(contentsOf: buffer.readableBytesView)
            part = .sniffing(name: name, prefix: prefix)
            if prefix.count >= PhotoSignature.length { try startPhoto(name, prefix) }
        case .photo(let name, let bytes):
            let total = bytes + Int64(buffer.readableBytes)
            try checkSize(name, total)
            try buffer.withUnsafeReadableBytes { try staged.append($0) }
            part = .photo(name: name, bytes: total)
        case .field(let name, var value):
            value.append(contentsOf: buffer.readableBytesView)
            guard value.count <= CaptureContext.maximumLength * 4 else {
                throw UploadRefusal(.tooLarge, "the field '\(name)' is longer than \(CaptureContext.maximumLength) characters.")
            }
            part = .field(name: name, value: value)
        case .empty, .headers, nil:
            break
        }
    }

    private func endPart() throws {
        switch part {
        case .sniffing(let name, let prefix):
            try startPhoto(name, prefix)
            try staged.finishPhoto()
        case .photo:
            try staged.finishPhoto()
        case .field(let name, let value):
            values[name] = String(decoding: value, as: UTF8.self)
        case .empty, .headers, nil:
            break
        }
        part = nil
    }

    /// Checks a photo's first bytes, then writes them to its new file.
    private func startPhoto(_ name: String, _ prefix: [UInt8]) throws {
        guard PhotoSignature.format(of: prefix) != nil else {
            throw UploadRefusal(.notAPhoto, "'\(name)' is not a photo: its bytes are not JPEG, PNG, WebP, HEIC or TIFF.")
        }
        guard staged.photos.count < limits.maxFiles else {
            throw UploadRefusal(.tooLarge, "an upload takes at most \(limits.maxFiles) photos (uploadMaxFiles).")
        }
        try checkSize(name, Int64(prefix.count))
        _ = try staged.startPhoto(clientName: name)
        try prefix.withUnsafeBytes { try staged.append($0) }
        part = .photo(name: name, bytes: Int64(prefix.count))
    }

    private func checkSize(_ name: String, _ bytes: Int64) throws {
        guard bytes <= limits.maxFileBytes else {
            throw UploadRefusal(.tooLarge, "'\(name)' is larger than \(limits.maxFileMB) MB (uploadMaxFileMB).")
        }
    }
}
