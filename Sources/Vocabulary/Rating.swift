/// The four quality bands of the phone app, by overall quality score (0…1); stored by name.
package enum Rating: String, CaseIterable, Sendable, Codable {
    case excellent = "Excellent", good = "Good", fair = "Fair", poor = "Poor"

    /// The band of `score`: Excellent ≥ 0.85, Good ≥ 0.70, Fair ≥ 0.50, else Poor.
    package init(score: Double) {
        switch score {
        case 0.85...: self = .excellent
        case 0.70..<0.85: self = .good
        case 0.50..<0.70: self = .fair
        default: self = .poor
        }
    }
}
