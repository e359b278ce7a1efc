package import Catalog
import Foundation
package import Logging
import Pipeline
package import SystemPackage
import FileSystem

/// `ingest export --html DIR`: the catalogue's pages and a page per capture as files, with relative
/// links, the stylesheet and script beside them and every thumbnail linked (or copied) in, to open
/// from `file://`. Corrections and the review queue need the server, so the pages offer none.
///
/// Layout: `index.html`, `page-2.html`, … (newest first), `captures/<id>.html`,
/// `thumbs/<photo id>.jpg`, `assets/`. Page by page, so memory holds one page whatever the
/// catalogue's size.
package struct StaticExport {
    private let catalogue: Catalogue
    private let library: FilePath
    private let logger: Logger

    /// The file that marks a folder as an export, which a later export may write over.
    static let marker = ".ingest-export"

    package init(catalogue: Catalogue, library: FilePath, logger: Logger) {
        self.catalogue = catalogue
        self.library = library
        self.logger = logger
    }

    /// What an export wrote.
    package struct Written: Sendable, Equatable {
        package var pages = 0
        package var captures = 0
        package var thumbnails = 0
    }

    /// Writes the export into `folder`, which must be new, empty or an earlier export. Throws
    /// `StaticExportError` naming the folder or file at fault.
    package func write(to folder: FilePath) throws -> Written {
        try prepare(folder)
        var written = Written()
        for (name, asset) in Assets.files {
            try save(asset.text, to: folder.appending("assets").appending(name))
        }
        var query = CatalogueQuery()
        repeat {
            let page = try CataloguePage.load(query, from: catalogue)
            written.pages += 1
            let name = written.pages == 1 ? "index.html" : "page-\(written.pages).html"
            try save(page.html(.export(depth: 0), exportPage: written.pages).rendered, to: folder.appending(name))
            for card in page.cards {
                guard let capture = try CapturePage.load(id: card.capture.id, from: catalogue) else { continue }
                try save(capture.html(.export(depth: 1)).rendered, to: folder.appending("captures").appending("\(card.capture.id).html"))
                for entry in capture.photos {
                    written.thumbnails += try copyThumbnail(entry.photo, into: folder) ? 1 : 0
                }
                written.captures += 1
            }
            query.before = page.next
        } while query.before != nil
        logger.notice("catalogue exported as web pages", metadata: [
            "folder": "\(folder)", "pages": "\(written.pages)", "captures": "\(written.captures)",
        ])
        return written
    }

    /// Makes the folder and its sub-folders; refuses one that holds something else than an export.
    private func prepare(_ folder: FilePath) throws {
        let manager = FileManager.default
        if let entries = try? manager.contentsOfDirectory(atPath: folder.string), !entries.isEmpty,
           !entries.contains(Self.marker) {
            throw StaticExportError(path: folder.string, reason: "the folder holds other files; give a new or empty folder")
        }
        do {
            for sub in ["assets", "captures", "thumbs"] {
                try manager.createDirectory(atPath: folder.appending(sub).string, withIntermediateDirectories: true)
            }
        } catch {
            throw StaticExportError(path: folder.string, reason: "cannot create the folder (\(Self.reason(error)))")
        }
        try save("written by ingest export --html\n", to: folder.appending(Self.marker))
    }

    /// Links (or copies) the photo's thumbnail into the export; false when it cannot be read, which
    /// is logged: the page shows the photo's name and facts without its picture.
    private func copyThumbnail(_ photo: Photo, into folder: FilePath) throws -> Bool {
        do {
            try LibraryFile.open(photo.thumbPath, library: library).copy(to: folder.appending("thumbs").appending("\(photo.id).jpg"))
            return true
        } catch where error.operation == "open" {
            logger.warning("thumbnail not exported", metadata: ["photo": "\(photo.id)", "error": "\(error)"])
            return false
        } catch {
            throw StaticExportError(path: error.path.string, reason: error.description)
        }
    }

    private func save(_ text: String, to path: FilePath) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path.string))
        } catch {
            throw StaticExportError(path: path.string, reason: "cannot write it (\(Self.reason(error)))")
        }
    }

    /// errno's text for a Foundation error, which would say only "the operation could not be completed".
    private static func reason(_ error: any Error) -> String {
        let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code ?? Int(EIO)
        return Errno(rawValue: Int32(code)).description
    }
}

/// Why an HTML export stopped: the file or folder, and what to do.
package struct StaticExportError: Error, CustomStringConvertible {
    package var path: String
    package var reason: String

    package var description: String { "\(path): \(reason)." }
}
