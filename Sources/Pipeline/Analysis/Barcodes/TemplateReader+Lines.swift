import Foundation
import Imaging

/// The template reader's lines: the ink along rows across the bars, and where along them the code
/// begins and ends.
extension TemplateReader {
    /// Ink along the row, averaged with the rows above and below.
    static func darkness(_ image: GreyImage, row: Int) -> [Float] {
        let rows = max(0, row - 1)...min(image.height - 1, row + 1)
        var line = [Float](repeating: 0, count: image.width)
        for y in rows {
            for x in 0..<image.width { line[x] += Float(255 - Int(image.pixels[y * image.width + x])) }
        }
        return line.map { $0 / Float(rows.count) }
    }

    /// Each `factor` values averaged into one.
    static func shrunk(_ line: [Float], by factor: Int) -> [Float] {
        stride(from: 0, to: line.count - factor + 1, by: factor).map { start in
            line[start..<(start + factor)].reduce(0, +) / Float(factor)
        }
    }

    /// Each line's first and last edge. A code turned a little against its region, or seen in
    /// perspective (a keystone), has ends that move along the lines on straight lines; one extent
    /// for all lines put the fit off the bars at the top and the bottom. Each end's slope is the one
    /// most lines' ends lie on, within a module (`consensusSlope`); its place the outermost several
    /// lines agree on once that slope is taken out (`extent`). `modules`: the code's, first bar's
    /// edge to last (95; a UPC-E's 51).
    static func ends(_ extents: [(Double, Double)?], modules: Double = 95) -> [(Double, Double)]? {
        let found = extents.enumerated().compactMap { index, extent in extent.map { (line: Double(index), ends: $0) } }
        guard found.count >= 2 else { return nil }
        let tolerance = max(2, found.map { $0.ends.1 - $0.ends.0 }.sorted()[found.count / 2] / modules)
        let first = consensusSlope(found.map { ($0.line, $0.ends.0) }, tolerance: tolerance)
        let last = consensusSlope(found.map { ($0.line, $0.ends.1) }, tolerance: tolerance)
        let level = extents.enumerated().map { index, extent in
            extent.map { ($0.0 - first * Double(index), $0.1 - last * Double(index)) }
        }
        guard let (start, end) = extent(level, modules: modules) else { return nil }
        return extents.indices.map { (start + first * Double($0), end + last * Double($0)) }
    }

    /// The slope across the lines of the straight line most of `points` (line, end) lie on, within
    /// `tolerance`: of the lines through any two points, the one with most points near it (the
    /// least steep of equals), its slope then the median of the slopes between those points.
    /// Not the median of all the slopes (Theil–Sen): ends that lie on no one line — lines that
    /// lose a faint guard bar, or cross the digits printed beside the bars — tipped that median
    /// where most ends agree on none, and the fit slid off the bars.
    static func consensusSlope(_ points: [(line: Double, end: Double)], tolerance: Double) -> Double {
        func slope(_ a: (line: Double, end: Double), _ b: (line: Double, end: Double)) -> Double {
            (b.end - a.end) / (b.line - a.line)
        }
        var best: (near: [(line: Double, end: Double)], slope: Double) = ([], 0)
        for a in points.indices {
            for b in points.indices where b > a {
                let s = slope(points[a], points[b])
                let near = points.filter { abs($0.end - points[a].end - s * ($0.line - points[a].line)) <= tolerance }
                if near.count > best.near.count || (near.count == best.near.count && abs(s) < abs(best.slope)) {
                    best = (near, s)
                }
            }
        }
        var slopes: [Double] = []
        for a in best.near.indices {
            for b in best.near.indices where b > a { slopes.append(slope(best.near[a], best.near[b])) }
        }
        return slopes.isEmpty ? 0 : slopes.sorted()[slopes.count / 2]
    }

    /// The code's extent from the lines' own: blur hides a code's faint outer bars on some lines
    /// and text beside it reaches into others, so the outermost edges that several lines agree on.
    static func extent(_ extents: [(Double, Double)?], modules: Double = 95) -> (Double, Double)? {
        let found = extents.compactMap { $0 }
        let needed = max(3, found.count / 4)
        guard found.count >= needed else { return nil }
        func agreed(_ values: [Double], tolerance: Double) -> [Double] {
            values.filter { value in values.filter { abs($0 - value) <= tolerance }.count >= needed }
        }
        let module = found.map { $0.1 - $0.0 }.sorted()[found.count / 2] / modules
        let tolerance = max(2, module)
        guard let first = agreed(found.map(\.0), tolerance: tolerance).min(),
              let last = agreed(found.map(\.1), tolerance: tolerance).max(),
              (last - first) / modules >= 0.7 else { return nil }
        return (first, last)
    }

    /// Where the code's first and last edges lie along one line: runs of strong edges, with no gap
    /// wider than 4 times the typical one, joined while the gap between them is at most 5 modules
    /// of the code they would make (a code's widest space is 4 modules, its quiet zone 7 or more).
    static func extent(of line: [Float], modules: Double = 95) -> (Double, Double)? {
        let n = line.count
        guard n >= 32 else { return nil }
        let kernel = Self.smoothing
        var smooth = [Float](repeating: 0, count: n)
        for x in 0..<n {
            var sum: Float = 0
            for (offset, weight) in zip(-3...3, kernel) {
                var i = x + offset
                if i < 0 { i = -i - 1 } else if i >= n { i = 2 * n - i - 1 }
                sum += weight * line[i]
            }
            smooth[x] = sum
        }
        var gradient = [Float](repeating: 0, count: n)
        for x in 1..<(n - 1) { gradient[x] = abs(smooth[x + 1] - smooth[x - 1]) / 2 }
        // Not the line's first and last pixels: the frame's own edge, or the white a turned region
        // is filled with beyond it, is no bar.
        let peaks = (3..<(n - 3)).filter { gradient[$0] > 0 && gradient[$0] >= gradient[$0 - 1] && gradient[$0] >= gradient[$0 + 1] }
        guard peaks.count >= 16 else { return nil }
        // Relative to the strong edges, not the strongest: the border of a region turned inside
        // its white frame, or a glint, is stronger than any bar.
        let strong = peaks.map { gradient[$0] }.sorted()[peaks.count * 9 / 10]
        let edges = peaks.filter { gradient[$0] > 0.25 * strong }
        guard edges.count >= 16 else { return nil }
        let gaps = zip(edges.dropFirst(), edges).map { $0 - $1 }.sorted()
        let median = Double(gaps[gaps.count / 2])
        var runs: [ArraySlice<Int>] = [], start = 0
        for index in 1...edges.count where index == edges.count || Double(edges[index] - edges[index - 1]) > 4 * median {
            runs.append(edges[start..<index])
            start = index
        }
        let main = runs.indices.max { runs[$0].count < runs[$1].count }!
        var low = main, high = main
        func joins(_ left: Int, _ right: Int, span: Int) -> Bool {
            runs[left].count >= 2 && runs[right].count >= 2 && Double(runs[right].first! - runs[left].last!) <= 5 * Double(span) / modules
        }
        while true {
            if low > 0, joins(low - 1, low, span: runs[high].last! - runs[low - 1].first!) {
                low -= 1
            } else if high < runs.count - 1, joins(high, high + 1, span: runs[high + 1].last! - runs[low].first!) {
                high += 1
            } else {
                break
            }
        }
        guard runs[low...high].reduce(0, { $0 + $1.count }) >= 16 else { return nil }
        return (Double(runs[low].first!), Double(runs[high].last!))
    }

    /// A Gaussian of σ 0.7 px, normalised.
    static let smoothing: [Float] = {
        let weights = (-3...3).map { (offset: Int) -> Double in exp(-Double(offset * offset) / 0.98) }
        let total = weights.reduce(0, +)
        return weights.map { Float($0 / total) }
    }()
}
