import Foundation
import Imaging

/// Finds barcode-like regions cheaply, as classic barcode localisation does: the image is cut into
/// cells; a cell with strong gradients is a candidate, and its structure tensor says whether the
/// gradients share one direction (the bars of a 1-D code) or not (a QR code's modules).
/// Neighbouring candidate cells form regions; thin runs (a single edge of a drawn shape) are dropped.
///
/// It exists for small codes ZBar misses in the whole frame: cut out, turned upright and enlarged,
/// they decode.
struct BarcodeLocator {
    /// Mean squared gradient per pixel (central differences, both axes) above which a cell has edges
    /// dense enough for a barcode; camera noise stays far below it.
    var minimumEnergy = 400.0
    /// Structure-tensor coherence above which a cell counts as one-directional; a region is linear
    /// when at least 40 % of its cells are.
    var linearCoherence = 0.75
    /// Coherence of the linear cells' summed tensor above which a region is one code's bars.
    var regionCoherence = 0.85
    /// A cell whose gradients mostly point one way (|Σg| / Σ|g| above this) holds a single step — the
    /// edge of a drawn shape or a shadow — not the rising and falling edges of bars or modules.
    var maximumImbalance = 0.5
    /// Regions smaller than this many cells are noise or a fragment of print: the smallest code a
    /// camera can resolve (an EAN-8 or a version-1 QR at about 0.4 px per module) covers about 8.
    var minimumCells = 8
    /// A region whose edges, summed, still point one way (|Σg| / Σ|g| above this), or whose cells
    /// on average do (`maximumMeanCellImbalance`), is shading or the outline of a shape; the bars
    /// and modules of a code rise and fall in equal measure (measured: ≤ 0.04 and ≤ 0.22).
    var maximumRegionImbalance = 0.08
    var maximumMeanCellImbalance = 0.28
    /// Two bar cells of one code turn their gradients the same way within this many degrees.
    var barDirectionTolerance = 15.0
    /// Whether a code's box reaches across its single-edge cells to the rest of its bars
    /// (`extent(of:direction:in:)`).
    var spansSingleEdges = true
    /// At most this many regions per photo, the strongest first.
    var maximumCandidates = 4

    /// The cell edge in pixels for an image of this size: about 1/128 of the long edge, at least 8.
    static func cellSize(width: Int, height: Int) -> Int { max(8, max(width, height) / 128) }

    /// Candidate regions in `image`, strongest first.
    func candidates(in image: GreyImage) -> [BarcodeCandidate] {
        CellGrid(image).map(candidates(in:)) ?? []
    }

    /// Candidate regions in an image's cells, strongest first: the cells are measured once and may
    /// be searched by several locators.
    func candidates(in grid: CellGrid) -> [BarcodeCandidate] {
        let (cell, columns, rows, tensors) = (grid.cell, grid.columns, grid.rows, grid.tensors)
        let marked = tensors.map { $0.energy(cell: cell) >= minimumEnergy && $0.imbalance <= maximumImbalance }
        var seen = [Bool](repeating: false, count: marked.count)
        // The one-directional cells, flooded again inside regions that are not bars (`bars(within:)`);
        // regions are apart, so one record of the cells seen serves them all.
        let oneDirectional = marked.indices.map { marked[$0] && tensors[$0].coherence >= linearCoherence }
        var barsSeen = [Bool](repeating: false, count: marked.count)
        var found: [BarcodeCandidate] = []
        for start in marked.indices where marked[start] && !seen[start] {
            let region = Self.flood(from: start, marked: { marked[$0] }, seen: &seen, columns: columns, rows: rows)
            guard region.count >= minimumCells else { continue }
            let candidate = self.candidate(region, in: grid)
            if let candidate { found.append(candidate) }
            if candidate?.isLinear != true { found += bars(within: region, in: grid, oneDirectional: oneDirectional, seen: &barsSeen) }
        }
        return Array((Self.joined(found, gap: 2 * cell) + found).sorted { $0.strength > $1.strength }
            .prefix(maximumCandidates))
    }

    /// The codes inside a region that is not one code's bars as a whole: a code printed beside text
    /// or a picture joins them in one region of strong cells, whose strokes point every which way
    /// (on ../shared/realphotos/off, a code beside an ingredient list). The region's one-directional
    /// cells are joined again, only to neighbours whose gradients turn the same way; a group that is
    /// a code's bars passes as one. `oneDirectional`: the strong cells of the grid that are; a flood
    /// from one of the region's stays inside it.
    private func bars(within region: [Int], in grid: CellGrid, oneDirectional: [Bool], seen: inout [Bool]) -> [BarcodeCandidate] {
        let tensors = grid.tensors
        let alike = { (a: Int, b: Int) -> Bool in
            Self.turn(from: tensors[a].direction, to: tensors[b].direction) <= barDirectionTolerance
        }
        var found: [BarcodeCandidate] = []
        for start in region where oneDirectional[start] && !seen[start] {
            let bars = Self.flood(from: start, marked: { oneDirectional[$0] }, seen: &seen, columns: grid.columns, rows: grid.rows,
                                  joins: alike)
            guard bars.count >= minimumCells, bars.count < region.count,
                  let candidate = candidate(bars, in: grid), candidate.isLinear else { continue }
            found.append(candidate)
        }
        return found
    }

    /// The candidate a region of strong cells makes: a code's bars, a 2-D code, or nil (too thin,
    /// lopsided, or long and sparse like a word of text).
    private func candidate(_ region: [Int], in grid: CellGrid) -> BarcodeCandidate? {
        let (cell, columns, tensors) = (grid.cell, grid.columns, grid.tensors)
        let columnsSpanned = Set(region.map { $0 % columns }).count
        let rowsSpanned = Set(region.map { $0 / columns }).count
        guard columnsSpanned >= 2, rowsSpanned >= 2 else { return nil }
        var whole = Tensor()
        for index in region { whole.add(tensors[index]) }
        let meanCellImbalance = region.reduce(0) { $0 + tensors[$1].imbalance } / Double(region.count)
        guard whole.imbalance <= maximumRegionImbalance, meanCellImbalance <= maximumMeanCellImbalance else { return nil }
        // The bars decide the direction; the label's border and the digits under the bars do not,
        // so only one-directional cells vote.
        let linearCells = region.filter { tensors[$0].coherence >= linearCoherence }
        var linearSum = Tensor()
        for index in linearCells { linearSum.add(tensors[index]) }
        // Bars share one direction across the whole region; the strokes of text are each
        // one-directional too, but every which way.
        let isLinear = linearCells.count * 5 >= region.count * 2 && linearSum.coherence >= regionCoherence
        // A 2-D code is a compact, squarish patch (a diamond when turned 45°); a word of text is
        // long. A small 1-D code the overview cannot resolve also looks 2-D, but is at most about
        // twice as wide as tall.
        let (spanX, spanY) = (Double(columnsSpanned), Double(rowsSpanned))
        if !isLinear && (max(spanX, spanY) > 2.2 * min(spanX, spanY) || Double(region.count) < 0.45 * spanX * spanY) {
            return nil
        }
        var sum = Tensor()
        for index in isLinear ? linearCells : region { sum.add(tensors[index]) }
        // The dominant gradient direction θ (from +x towards +y, image y pointing down); libvips
        // turning the region by −θ makes the gradient horizontal and the bars vertical.
        let angle = isLinear ? -sum.direction : 0
        let cells = isLinear && spansSingleEdges ? extent(of: region, direction: sum.direction, in: grid) : region
        return BarcodeCandidate(box: Self.box(of: cells, cell: cell, columns: columns, width: grid.width, height: grid.height),
                                angle: angle, isLinear: isLinear, strength: sum.energy(cell: cell) / Double(region.count))
    }

    /// Two linear regions with the same bar direction side by side are often one code whose cells
    /// in between were too faint or too unbalanced (the centre guard of an EAN, a glare spot): each
    /// half alone does not read, so the two together are a candidate of their own.
    static func joined(_ candidates: [BarcodeCandidate], gap: Int) -> [BarcodeCandidate] {
        var joined: [BarcodeCandidate] = []
        let linear = candidates.filter(\.isLinear)
        for (i, a) in linear.enumerated() {
            for b in linear[(i + 1)...] {
                guard turn(from: a.angle, to: b.angle) <= 8,
                      a.box.x <= b.box.x + b.box.width + gap, b.box.x <= a.box.x + a.box.width + gap,
                      a.box.y <= b.box.y + b.box.height + gap, b.box.y <= a.box.y + a.box.height + gap else { continue }
                joined.append(BarcodeCandidate(
                    box: a.box.union(b.box),
                    angle: a.strength >= b.strength ? a.angle : b.angle, isLinear: true,
                    strength: max(a.strength, b.strength)))
            }
        }
        return joined
    }

    /// All the bars of the code whose linear `region` was found: its cells, and the balanced cells
    /// with bars the same way that a path of such cells, balanced or not, joins to them. Where a
    /// bar or space is wider than half a cell (a close-up, or a large code), many cells hold a
    /// single edge. Alone such cells are the edges of shapes (`maximumImbalance`), so they are not
    /// candidates, and rows of them cut a code into parts whose largest box leaves part of the code
    /// out (`RealPhotoBarcodeTests.testReadAll_codeCutIntoPartsBySingleEdgeCells_isReadAcrossItsWholeExtent`).
    /// Single-edge cells join the parts but do not widen the box: a package's edge beside the bars does not.
    private func extent(of region: [Int], direction: Double, in grid: CellGrid) -> [Int] {
        let tensors = grid.tensors
        var inRegion = [Bool](repeating: false, count: tensors.count)
        for index in region { inRegion[index] = true }
        let onPath = { (index: Int) -> Bool in
            let tensor = tensors[index]
            return inRegion[index] || tensor.energy(cell: grid.cell) >= minimumEnergy && tensor.coherence >= linearCoherence
                && Self.turn(from: tensor.direction, to: direction) <= barDirectionTolerance
        }
        var seen = [Bool](repeating: false, count: tensors.count)
        var reached: [Int] = []
        for start in region where !seen[start] {
            reached += Self.flood(from: start, marked: onPath, seen: &seen, columns: grid.columns, rows: grid.rows)
        }
        return reached.filter { tensors[$0].imbalance <= maximumImbalance }
    }

    /// The angle between two directions of bars or gradients, in degrees, 0 to 90.
    static func turn(from a: Double, to b: Double) -> Double {
        let turn = abs(a - b).truncatingRemainder(dividingBy: 180)
        return min(turn, 180 - turn)
    }

    /// The cells `marked` accepts 8-connected to `start` (through neighbours `joins` accepts).
    private static func flood(from start: Int, marked: (Int) -> Bool, seen: inout [Bool], columns: Int, rows: Int,
                              joins: (Int, Int) -> Bool = { _, _ in true }) -> [Int] {
        var stack = [start], region: [Int] = []
        seen[start] = true
        while let index = stack.popLast() {
            region.append(index)
            let column = index % columns, row = index / columns
            for dy in -1...1 {
                for dx in -1...1 where dx != 0 || dy != 0 {
                    let c = column + dx, r = row + dy
                    guard c >= 0, c < columns, r >= 0, r < rows else { continue }
                    let next = r * columns + c
                    if !seen[next] && marked(next) && joins(index, next) {
                        seen[next] = true
                        stack.append(next)
                    }
                }
            }
        }
        return region
    }

    /// The region's bounding box with a margin of two cells or 15 %, whichever is larger, inside the image.
    private static func box(of region: [Int], cell: Int, columns: Int, width: Int, height: Int) -> PixelBox {
        let xs = region.map { $0 % columns }, ys = region.map { $0 / columns }
        let left = xs.min()! * cell, right = (xs.max()! + 1) * cell
        let top = ys.min()! * cell, bottom = (ys.max()! + 1) * cell
        let margin = max(2 * cell, Int(Double(max(right - left, bottom - top)) * 0.15))
        let x0 = max(0, left - margin), y0 = max(0, top - margin)
        let x1 = min(width, right + margin), y1 = min(height, bottom + margin)
        return PixelBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
