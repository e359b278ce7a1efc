/// A photo is grouped by its path in the set when capture times tie.
extension AnalysedPhoto: Groupable {
    package var groupingName: String { file.relativePath }
    package var fileTime: Double { Double(source.modifiedSeconds) + Double(source.modifiedNanoseconds) / 1e9 }
}
