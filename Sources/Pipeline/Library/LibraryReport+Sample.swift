import Foundation

extension LibraryReport {
    /// For a sample: the share of all the catalogue's photos that may have a problem, at most, with
    /// 95 % confidence (the exact Clopper–Pearson bound; for a clean sample of n photos about 3/n).
    package var problemShareBound: Double? {
        guard sampledFrom != nil, photos > 0 else { return nil }
        return Self.upperBound(found: min(photosWithProblems, photos), of: photos, confidence: 0.95)
    }

    /// The largest share p for which seeing at most `found` in `trials` still has a chance of
    /// 1 − `confidence`: P(X ≤ found | trials, p) = 1 − confidence, by bisection.
    static func upperBound(found: Int, of trials: Int, confidence: Double) -> Double {
        guard found < trials else { return 1 }
        var low = Double(found) / Double(trials), high = 1.0
        for _ in 0 ..< 60 {
            let middle = (low + high) / 2
            if cumulativeBinomial(atMost: found, trials: trials, share: middle) > 1 - confidence { low = middle } else { high = middle }
        }
        return high
    }

    /// P(X ≤ k) for X binomial with `trials` and `share`, summed in logarithms to stay finite.
    private static func cumulativeBinomial(atMost k: Int, trials n: Int, share p: Double) -> Double {
        guard p > 0 else { return 1 }
        guard p < 1 else { return k >= n ? 1 : 0 }
        var total = 0.0
        var logTerm = Double(n) * log1p(-p)  // log P(X = 0)
        for i in 0 ... k {
            if i > 0 { logTerm += log(Double(n - i + 1) / Double(i)) + log(p) - log1p(-p) }
            total += exp(logTerm)
        }
        return min(1, total)
    }
}
