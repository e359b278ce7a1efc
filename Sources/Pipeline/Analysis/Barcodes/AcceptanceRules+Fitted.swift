// Written by bench/fit_rules.py; do not edit by hand, run it again.

extension AcceptanceRules {
    /// The thresholds the reader uses (see `AcceptanceRules`).
    package static let fitted = AcceptanceRules(trustedLines: 3, confirmedLines: 20, quietZoneNearest: 2.0, quietZoneLines: 2,
                                               quietZoneCrossings: 0, quietZoneExemptLines: 20,
                                               contradictingShortfall: 0.15, templateExemptLines: nil)
}
