import Foundation

/// How far a run (or a thumbnail regeneration, whose set counts stay 0) has come.
package struct RunProgress: Sendable {
    package var photosDone: Int
    package var photosTotal: Int
    package var setsDone: Int
    package var setsTotal: Int
    package var elapsed: Double

    /// Photos per second so far.
    package var rate: Double { elapsed > 0 ? Double(photosDone) / elapsed : 0 }

    /// Seconds left at the current rate, when it can be told.
    package var remaining: Double? { rate > 0 ? Double(photosTotal - photosDone) / rate : nil }
}
