package import SystemPackage

/// A thumbnail written to the staging folder, to be moved into the library on commit.
package struct StagedThumbnail: Sendable {
    package var path: FilePath
    package var width: Int
    package var height: Int
}
