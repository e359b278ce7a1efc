internal import CImageOps

/// Integer sums over a grey image's pixels, for the measures made of them (gradient tensors,
/// sharpness, contrast). Exact in any order, so the C loops may vectorise them.
extension GreyImage {
    /// Per cell of a `columns` × `rows` grid of `cell` × `cell` pixels from the top left, row by
    /// row, seven sums over its pixels off the image's border of the central differences gx and
    /// gy: gx², gy², gx·gy, gx, gy, |gx|, |gy|.
    package func cellGradientSums(cell: Int, columns: Int, rows: Int) -> [Int] {
        var sums = [Int64](repeating: 0, count: 7 * columns * rows)
        var lanes = [Int32](repeating: 0, count: 7 * width)
        pixels.withUnsafeBufferPointer { p in
            ingest_cell_gradients(p.baseAddress, Int32(width), Int32(height), Int32(cell), Int32(columns), Int32(rows),
                                  &lanes, &sums)
        }
        return sums.map { Int($0) }
    }

    /// The sum of the 4-neighbour Laplacian over the pixels off the border, and of its squares.
    package func laplacianSums() -> (sum: Int, squares: Int) {
        var sum: Int64 = 0, squares: Int64 = 0
        pixels.withUnsafeBufferPointer { ingest_laplacian_sums($0.baseAddress, Int32(width), Int32(height), &sum, &squares) }
        return (Int(sum), Int(squares))
    }

    /// The sum of the grey levels and of their squares.
    package func levelSums() -> (sum: Int, squares: Int) {
        var sum: Int64 = 0, squares: Int64 = 0
        pixels.withUnsafeBufferPointer { ingest_level_sums($0.baseAddress, $0.count, &sum, &squares) }
        return (Int(sum), Int(squares))
    }
}
