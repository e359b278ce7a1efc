import Imaging

/// An image cut into cells of about 1/128 of its long edge (at least 8 px), with each cell's
/// gradient tensor.
struct CellGrid {
    let cell: Int
    let columns: Int
    let rows: Int
    let width: Int
    let height: Int
    let tensors: [Tensor]

    /// Nil for an image too small for two cells each way.
    init?(_ image: GreyImage) {
        cell = BarcodeLocator.cellSize(width: image.width, height: image.height)
        columns = image.width / cell
        rows = image.height / cell
        guard columns >= 2, rows >= 2 else { return nil }
        width = image.width
        height = image.height
        tensors = Self.cellTensors(image, cell: cell, columns: columns, rows: rows)
    }

    /// Sums of gx², gy² and gx·gy (and of the signed and absolute gradients) per cell: integer sums,
    /// exact, made by a vectorised loop.
    static func cellTensors(_ image: GreyImage, cell: Int, columns: Int, rows: Int) -> [Tensor] {
        let sums = image.cellGradientSums(cell: cell, columns: columns, rows: rows)
        return (0..<(columns * rows)).map { index in
            let base = 7 * index
            return Tensor(xx: Double(sums[base]), yy: Double(sums[base + 1]), xy: Double(sums[base + 2]),
                          sx: Double(sums[base + 3]), sy: Double(sums[base + 4]), ax: Double(sums[base + 5]),
                          ay: Double(sums[base + 6]))
        }
    }
}
