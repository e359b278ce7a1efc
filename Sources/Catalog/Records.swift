import Foundation
import GRDB

/// One product capture: at most one barcode and one or more photos of one set.
///
/// Times are kept twice: `capturedAt` as the user should read it (ISO 8601, with
/// the UTC offset only when the camera recorded one) and `capturedUTC`, seconds
/// since 1970 used for ordering and filters. When the offset is unknown the wall
/// clock is taken as UTC for `capturedUTC`; `timeSource` says so.
public struct Capture: Codable, Hashable, Sendable {
    /// A UUID string; commands accept any unique prefix of it.
    public var id: String
    public var runId: Int64?
    /// The inbox sub-folder the capture came from.
    public var setName: String
    /// The code as read, normalised (UPC-E expanded to UPC-A); nil for a capture without barcode.
    public var barcode: String?
    /// The symbology as ZBar read it, e.g. `EAN-13`, `UPC-A`, `QR-Code`.
    public var symbology: String?
    /// GTIN-13 of a retail code (EAN-13, UPC-A, UPC-E, EAN-8 zero-padded); nil otherwise.
    public var gtin13: String?
    public var capturedAt: String
    public var capturedUTC: Double
    /// `exif`, `exif-no-offset` or `file-time`, of the first photo.
    public var timeSource: String
    public var photoCount: Int
    /// Mean quality of the capture's photos, 0…1, and its rating.
    public var quality: Double
    public var rating: String
    /// When the capture was committed, ISO 8601 UTC.
    public var createdAt: String
    /// The agent the set was photographed for (its `capture.json`); nil without context.
    public var agentId: String?
    /// The agent's display name as the sidecar gave it at capture time; the `agent` table holds the latest.
    public var agentName: String?
    /// The agent's request this capture answers, as given in `capture.json`.
    public var requestId: String?
    /// Free text from `capture.json`.
    public var note: String?
    /// Where the set's `capture.json` was kept, relative to the library; shared by the set's captures.
    public var contextPath: String?

    public init(id: String, runId: Int64?, setName: String, barcode: String?, symbology: String?, gtin13: String?,
                capturedAt: String, capturedUTC: Double, timeSource: String, photoCount: Int,
                quality: Double, rating: String, createdAt: String, agentId: String? = nil, agentName: String? = nil,
                requestId: String? = nil, note: String? = nil, contextPath: String? = nil) {
        self.id = id
        self.runId = runId
        self.setName = setName
        self.barcode = barcode
        self.symbology = symbology
        self.gtin13 = gtin13
        self.capturedAt = capturedAt
        self.capturedUTC = capturedUTC
        self.timeSource = timeSource
        self.photoCount = photoCount
        self.quality = quality
        self.rating = rating
        self.createdAt = createdAt
        self.agentId = agentId
        self.agentName = agentName
        self.requestId = requestId
        self.note = note
        self.contextPath = contextPath
    }
}

/// An agent that photo sets are captured for: one row per agent id, holding its latest display name.
public struct Agent: Codable, Hashable, Sendable {
    /// The stable id from `capture.json`.
    public var id: String
    /// The latest display name seen; the id itself when no sidecar named it.
    public var name: String
    /// When a set of this agent was first and last committed, ISO 8601 UTC.
    public var firstSeen: String
    public var lastSeen: String

    public init(id: String, name: String, firstSeen: String, lastSeen: String) {
        self.id = id
        self.name = name
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
    }
}

/// One photo of a capture, with where its files live in the library and what was measured on it.
public struct Photo: Codable, Hashable, Sendable {
    public var id: String
    public var captureId: String
    /// 0-based position within the capture, in capture-time order.
    public var position: Int
    /// The file name as it was in the inbox.
    public var originalName: String
    /// The path as it was in the inbox, relative to the set folder (the name, or `sub/name`).
    public var sourcePath: String
    /// Relative to the library folder.
    public var originalPath: String
    public var thumbPath: String
    public var thumbWidth: Int
    public var thumbHeight: Int
    /// Lower-case hex SHA-256 of the original bytes; unique across the catalogue.
    public var sha256: String
    public var byteSize: Int64
    /// The loader that decoded it: `jpeg`, `png`, `webp`, `tiff`, `heif`.
    public var format: String
    /// Upright pixel size (EXIF orientation applied).
    public var width: Int
    public var height: Int
    public var orientation: Int
    public var make: String?
    public var model: String?
    public var takenAt: String
    public var takenUTC: Double
    public var timeSource: String
    public var sharpness: Double
    public var contrast: Double
    public var brightness: Double
    public var decodeConfidence: Double?
    public var quality: Double
    public var rating: String

    public init(id: String, captureId: String, position: Int, originalName: String, sourcePath: String,
                originalPath: String, thumbPath: String, thumbWidth: Int, thumbHeight: Int, sha256: String,
                byteSize: Int64, format: String, width: Int, height: Int, orientation: Int, make: String?,
                model: String?, takenAt: String, takenUTC: Double, timeSource: String, sharpness: Double,
                contrast: Double, brightness: Double, decodeConfidence: Double?, quality: Double, rating: String) {
        self.id = id
        self.captureId = captureId
        self.position = position
        self.originalName = originalName
        self.sourcePath = sourcePath
        self.originalPath = originalPath
        self.thumbPath = thumbPath
        self.thumbWidth = thumbWidth
        self.thumbHeight = thumbHeight
        self.sha256 = sha256
        self.byteSize = byteSize
        self.format = format
        self.width = width
        self.height = height
        self.orientation = orientation
        self.make = make
        self.model = model
        self.takenAt = takenAt
        self.takenUTC = takenUTC
        self.timeSource = timeSource
        self.sharpness = sharpness
        self.contrast = contrast
        self.brightness = brightness
        self.decodeConfidence = decodeConfidence
        self.quality = quality
        self.rating = rating
    }
}

/// One barcode ZBar found on a photo. Every hit is kept, also those that did not become the capture's barcode.
public struct BarcodeHit: Codable, Hashable, Sendable {
    public var id: Int64?
    public var photoId: String
    public var symbology: String
    /// The normalised code text (UPC-E expanded).
    public var text: String
    public var gtin13: String?
    /// ZBar's quality: for linear codes the number of scan lines that agreed.
    public var quality: Int
    /// Bounding box of ZBar's location points, in upright-independent stored-pixel coordinates of the scanned image.
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(id: Int64? = nil, photoId: String, symbology: String, text: String, gtin13: String?, quality: Int,
                x: Int, y: Int, width: Int, height: Int) {
        self.id = id
        self.photoId = photoId
        self.symbology = symbology
        self.text = text
        self.gtin13 = gtin13
        self.quality = quality
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// One `ingest run`: when, what it saw and what became of it.
public struct Run: Codable, Hashable, Sendable {
    public var id: Int64?
    public var startedAt: String
    public var finishedAt: String?
    public var inbox: String
    public var sets: Int
    public var captures: Int
    public var photos: Int
    public var duplicates: Int
    public var quarantined: Int
    public var failed: Int

    public init(id: Int64? = nil, startedAt: String, finishedAt: String? = nil, inbox: String, sets: Int = 0,
                captures: Int = 0, photos: Int = 0, duplicates: Int = 0, quarantined: Int = 0, failed: Int = 0) {
        self.id = id
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.inbox = inbox
        self.sets = sets
        self.captures = captures
        self.photos = photos
        self.duplicates = duplicates
        self.quarantined = quarantined
        self.failed = failed
    }
}

/// Everything one set adds to the catalogue; committed in one transaction.
public struct CommittedSet: Sendable {
    public var captures: [Capture]
    public var photos: [Photo]
    public var hits: [BarcodeHit]
    /// The agent the set's `capture.json` names, inserted or brought up to date in the same transaction.
    public var agent: Agent?

    public init(captures: [Capture], photos: [Photo], hits: [BarcodeHit], agent: Agent? = nil) {
        self.captures = captures
        self.photos = photos
        self.hits = hits
        self.agent = agent
    }
}
