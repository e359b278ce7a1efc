/// A thumbnail written to the staging folder, to be moved into the library on commit.
public struct StagedThumbnail: Sendable {
    public var path: String
    public var width: Int
    public var height: Int
}
