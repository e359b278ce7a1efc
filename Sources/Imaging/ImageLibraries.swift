internal import CMemory

/// The C image libraries as a whole.
public enum ImageLibraries {
    /// Starts libvips (once per process); throws when it cannot start. Call it before the work
    /// begins, so a broken installation stops the run instead of failing every photo.
    public static func start() throws(ImageError) {
        try Vips.start()
    }

    /// Makes glibc keep freed buffers of up to 32 MB for reuse. Every photo allocates a few buffers
    /// of megabytes (its bytes, the decoded overview); by default glibc maps and unmaps each one,
    /// and the kernel zeroes every page anew. Measured on the 12 MP benchmark: page faults fell
    /// from ~77 000 to ~18 000 and wall time by ~5 %, for ~10 MB more resident memory. A setting
    /// of the whole process: the executable decides, once, before any work.
    public static func keepFreedBuffersForReuse() {
        _ = ingest_keep_freed_memory()
    }
}
