import Foundation

/// How far a run (or a thumbnail regeneration, whose set counts stay 0) has come.
public struct RunProgress: Sendable {
    public var photosDone: Int
    public var photosTotal: Int
    public var setsDone: Int
    public var setsTotal: Int
    public var elapsed: Double

    /// Photos per second so far.
    public var rate: Double { elapsed > 0 ? Double(photosDone) / elapsed : 0 }

    /// Seconds left at the current rate, when it can be told.
    public var remaining: Double? { rate > 0 ? Double(photosTotal - photosDone) / rate : nil }
}
