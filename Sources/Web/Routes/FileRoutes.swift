import Catalog
import Foundation
import HTTPTypes
import Hummingbird
import Imaging
import Pipeline
import Vocabulary
import FileSystem
import SystemPackage

/// A photo's thumbnail and original under `/photos/{id}`, found by the photo's id in the catalogue —
/// the URL never names a path — and opened below the library without following links
/// (`LibraryFile`). ETags are SHA-256s: the thumbnail's bytes, the original's catalogued hash.
struct FileRoutes {
    let catalogue: Catalogue
    /// The library's folder.
    let library: FilePath

    var routes: RouteCollection<WebContext> {
        let routes = RouteCollection(context: WebContext.self)
        let photos = routes.group("/photos/:id")
        photos.get("thumbnail") { request, context in
            let photo = try await photo(context.parameters.require("id"))
            let (bytes, hash) = try await blocking { [library] in
                let bytes = try Self.open(photo.thumbPath, of: photo, library: library).readAll(limit: 16 << 20)
                return (bytes, Digest.sha256(bytes))
            }
            let headers: HTTPFields = [.contentType: "image/jpeg", .eTag: "\"\(hash)\"", .cacheControl: "private, no-cache"]
            if Self.matches(request.headers[.ifNoneMatch], "\"\(hash)\"") {
                return Response(status: .notModified, headers: headers)
            }
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        photos.get("original") { request, context in
            let photo = try await photo(context.parameters.require("id"))
            let file = try await blocking { [library] in try Self.open(photo.originalPath, of: photo, library: library) }
            let tag = "\"\(photo.sha256)\""
            var headers: HTTPFields = [.contentType: Self.contentType(photo.format), .eTag: tag, .acceptRanges: "bytes",
                                       .cacheControl: "private, max-age=86400",
                                       .contentDisposition: "inline; filename*=UTF-8''" + Self.encodedFileName(photo.originalName)]
            if Self.matches(request.headers[.ifNoneMatch], tag) { return Response(status: .notModified, headers: headers) }
            // A range is for this version of the file only (If-Range); else the whole file.
            let asked = request.headers[.ifRange].map { $0 == tag } ?? true ? request.headers[.range] : nil
            switch ByteRange(header: asked, size: file.size) {
            case .unsatisfiable:
                throw HTTPError(.rangeNotSatisfiable, headers: [.contentRange: "bytes */\(file.size)"],
                                message: "the range asked for is outside the file (\(file.size) bytes).")
            case .part(let range):
                headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(file.size)"
                return Response(status: .partialContent, headers: headers, body: body(file, range))
            case .whole:
                return Response(status: .ok, headers: headers, body: body(file, 0 ... max(0, file.size - 1)))
            }
        }
        return routes
    }

    private func photo(_ id: String) async throws -> Photo {
        guard let photo = try await blocking({ [catalogue] in try catalogue.photo(id: id) }) else {
            throw HTTPError.notFound("no photo \(id) in the catalogue.")
        }
        return photo
    }

    /// Opens a file of `photo`; a missing or unreachable file is a 404 naming the photo.
    private static func open(_ path: String, of photo: Photo, library: FilePath) throws -> LibraryFile {
        do {
            return try LibraryFile.open(path, library: library)
        } catch {
            throw HTTPError.notFound("the file \(path) of photo \(photo.id) cannot be read from the library "
                + "(\(error.reason)); ingest verify checks the library.")
        }
    }

    /// The bytes of `range`, read 256 KB at a time on the blocking pool as the client takes them.
    private func body(_ file: LibraryFile, _ range: ClosedRange<Int64>) -> ResponseBody {
        let count = file.size == 0 ? 0 : Int(range.upperBound - range.lowerBound + 1)
        return ResponseBody(contentLength: count) { writer in
            var offset = range.lowerBound
            var left = count
            while left > 0 {
                let chunk = try await blocking { [offset, left] in try file.read(at: offset, count: min(left, 256 << 10)) }
                guard !chunk.isEmpty else { throw HTTPError.notFound("\(file.path) became shorter while it was sent.") }
                try await writer.write(ByteBuffer(bytes: chunk))
                offset += Int64(chunk.count)
                left -= chunk.count
            }
            try await writer.finish(nil)
        }
    }

    /// Whether an `If-None-Match` header names `tag` (or `*`).
    static func matches(_ header: String?, _ tag: String) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == tag || $0.trimmingCharacters(in: .whitespaces) == "*" }
    }

    static func contentType(_ format: ImageFormat) -> String {
        switch format {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .tiff: "image/tiff"
        case .heif: "image/heic"
        }
    }

    /// A file name for `filename*=` (RFC 8187): UTF-8, everything but letters, digits and `.-_` escaped.
    static func encodedFileName(_ name: String) -> String {
        name.utf8.map { byte in
            let allowed = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2E || byte == 0x2D || byte == 0x5F
            return allowed ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }.joined()
    }
}
