import Foundation

/// A 2×2 structure tensor accumulated over pixels.
struct Tensor {
    var xx = 0.0, yy = 0.0, xy = 0.0
    /// Signed and absolute gradient sums, for the balance of rising and falling edges.
    var sx = 0.0, sy = 0.0, ax = 0.0, ay = 0.0

    mutating func add(_ other: Tensor) {
        xx += other.xx
        yy += other.yy
        xy += other.xy
        sx += other.sx
        sy += other.sy
        ax += other.ax
        ay += other.ay
    }

    /// 0 when rising and falling edges balance (bars, modules, strokes), 1 for a single step.
    var imbalance: Double {
        let total = ax + ay
        return total > 0 ? (abs(sx) + abs(sy)) / total : 0
    }

    /// Mean squared gradient per pixel of one cell.
    func energy(cell: Int) -> Double { (xx + yy) / Double(cell * cell) }

    /// The dominant gradient direction in degrees, from +x towards +y (image y pointing down),
    /// −90 to 90: libvips turning by its negative makes the gradient horizontal, bars vertical.
    var direction: Double { 0.5 * atan2(2 * xy, xx - yy) * 180 / .pi }

    /// 0 when gradients point every way, 1 when they all share one axis.
    var coherence: Double {
        let trace = xx + yy
        guard trace > 0 else { return 0 }
        return ((xx - yy) * (xx - yy) + 4 * xy * xy).squareRoot() / trace
    }
}
