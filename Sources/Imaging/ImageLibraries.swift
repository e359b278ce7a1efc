internal import CMemory

/// The C image libraries as a whole.
package enum ImageLibraries {
    /// Starts libvips (once per process); throws when it cannot start. Call it before the work
    /// begins, so a broken installation stops the run instead of failing every photo.
    package static func start() throws(ImageError) {
        try Vips.start()
    }

    /// Makes glibc keep freed buffers of up to 32 MB for reuse. Every photo allocates a few buffers
    /// of megabytes (its bytes, the decoded overview); by default glibc maps and unmaps each one,
    /// and the kernel zeroes every page anew. Measured on the 12 MP benchmark: page faults fell
    /// from ~77 000 to ~18 000 and wall time by ~5 %, for ~10 MB more resident memory.
    /// The kept buffers live in one heap per worker (`workers` arenas): glibc's default of up to
    /// 8 per core let each hold its own freed full-size HEIC buffers — 12 HEIC photos with 2 workers
    /// peaked at 430–505 MB, 357–395 MB with 2 arenas, at the same speed (and the 12 MP JPEG
    /// corpus at 85 MB instead of 96). A setting of the whole process: the executable decides,
    /// once, before any work.
    package static func keepFreedBuffersForReuse(workers: Int) {
        _ = ingest_keep_freed_memory(Int32(clamping: max(1, workers)))
    }

    /// Gives back to the kernel the freed buffers `keepFreedBuffersForReuse` keeps: before a photo
    /// too large to be decoded beside others (`DecodeMemory`), whose decode would otherwise add to
    /// what the other workers' heaps hold (a 48 MP HEIC with 2 workers: 533 MB peak, 447 with 1).
    static func releaseFreedBuffers() {
        ingest_release_freed_memory()
    }
}
