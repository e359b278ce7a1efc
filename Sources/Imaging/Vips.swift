internal import CVips
internal import CVipsShim
import Vocabulary

/// libvips as a whole: starting it, the loaders it accepts, and its error text. Every libvips call
/// is in this file or in `VipsImage.swift`; no libvips pointer leaves them.
enum Vips {
    /// Started once per process, on first use, with one libvips thread per operation: the
    /// pipeline parallelises across photos, so the thread total stays bounded by its worker count.
    private static let started: Result<Void, ImageError> = {
        guard ingest_vips_start(1) == 0 else { return .failure(.libraryFailed("libvips did not start: \(lastError())")) }
        return .success(())
    }()

    /// Starts libvips unless it runs already; throws when it cannot start.
    static func start() throws(ImageError) {
        try started.get()
    }

    /// The format of `bytes` if a loader the pipeline accepts recognises them.
    static func format(of bytes: UnsafeRawBufferPointer) -> ImageFormat? {
        guard let base = bytes.baseAddress, let name = ingest_loader_for(base, bytes.count) else { return nil }
        return ImageFormat(loaderName: String(cString: name))
    }

    /// libvips' error text for the last failure on any thread, cleared afterwards.
    static func lastError() -> String {
        guard let copy = ingest_vips_error_copy() else { return "unknown libvips error" }
        defer { free(copy) }
        let text = String(cString: copy).split(whereSeparator: \.isNewline).joined(separator: "; ")
        return text.isEmpty ? "unknown libvips error" : text
    }
}

extension ImageFormat {
    /// The format of the loader libvips names by its type, e.g. `VipsForeignLoadJpegBuffer`.
    init?(loaderName: String) {
        switch loaderName {
        case "VipsForeignLoadJpegBuffer": self = .jpeg
        case "VipsForeignLoadPngBuffer": self = .png
        case "VipsForeignLoadWebpBuffer": self = .webp
        case "VipsForeignLoadTiffBuffer": self = .tiff
        case "VipsForeignLoadHeifBuffer": self = .heif
        default: return nil
        }
    }
}
