/// The C image libraries as a whole.
public enum ImageLibraries {
    /// Starts libvips (once per process); throws when it cannot start. Call it before the work
    /// begins, so a broken installation stops the run instead of failing every photo.
    public static func start() throws(ImageError) {
        try Vips.start()
    }
}
