#include "CImageOps.h"

#include <string.h>

static inline int min_int(int a, int b) { return a < b ? a : b; }
static inline int max_int(int a, int b) { return a > b ? a : b; }

/* The seven sums of one pixel row, per column, accumulated down the rows of a band of cells. */
enum { XX, YY, XY, SX, SY, AX, AY, SUMS };

void ingest_cell_gradients(const uint8_t *pixels, int width, int height, int cell, int columns, int rows,
                           int32_t *lanes, int64_t *sums) {
    memset(sums, 0, sizeof *sums * SUMS * (size_t)columns * rows);
    int last_row = min_int(rows * cell, height - 1), last_column = min_int(columns * cell, width - 1);
    if (last_column <= 1) return;
    /* Down the rows of one band of cells every column's sums grow in its own lane (int32: at most
     * 255² a pixel, for fewer than 2¹⁵ rows), so the loop over a row's pixels vectorises; each
     * cell then sums its columns' lanes. */
    for (int cell_row = 0; cell_row < rows; cell_row++) {
        memset(lanes, 0, sizeof *lanes * SUMS * (size_t)width);
        int32_t *xx = lanes + XX * width, *yy = lanes + YY * width, *xy = lanes + XY * width, *sx = lanes + SX * width,
                *sy = lanes + SY * width, *ax = lanes + AX * width, *ay = lanes + AY * width;
        for (int y = max_int(1, cell_row * cell); y < min_int(last_row, (cell_row + 1) * cell); y++) {
            const uint8_t *row = pixels + (size_t)y * width, *above = row - width, *below = row + width;
            for (int x = 1; x < last_column; x++) {
                int32_t gx = (int32_t)row[x + 1] - row[x - 1], gy = (int32_t)below[x] - above[x];
                xx[x] += gx * gx;
                yy[x] += gy * gy;
                xy[x] += gx * gy;
                sx[x] += gx;
                sy[x] += gy;
                ax[x] += gx < 0 ? -gx : gx;
                ay[x] += gy < 0 ? -gy : gy;
            }
        }
        for (int column = 0; column < columns; column++) {
            int64_t *out = sums + SUMS * ((size_t)cell_row * columns + column);
            for (int x = max_int(1, column * cell); x < min_int(last_column, (column + 1) * cell); x++) {
                for (int k = 0; k < SUMS; k++) out[k] += lanes[k * width + x];
            }
        }
    }
}

void ingest_laplacian_sums(const uint8_t *pixels, int width, int height, int64_t *sum, int64_t *squares) {
    *sum = 0;
    *squares = 0;
    for (int y = 1; y < height - 1; y++) {
        const uint8_t *row = pixels + (size_t)y * width, *above = row - width, *below = row + width;
        /* int32 within a chunk: a square is at most 1020², a chunk's 1024 of them under 2³¹. */
        for (int start = 1; start < width - 1; start += 1024) {
            int end = min_int(width - 1, start + 1024);
            int32_t chunk_sum = 0, chunk_squares = 0;
            for (int x = start; x < end; x++) {
                int32_t l = (int32_t)row[x - 1] + row[x + 1] + above[x] + below[x] - 4 * (int32_t)row[x];
                chunk_sum += l;
                chunk_squares += l * l;
            }
            *sum += chunk_sum;
            *squares += chunk_squares;
        }
    }
}

void ingest_level_sums(const uint8_t *pixels, size_t count, int64_t *sum, int64_t *squares) {
    *sum = 0;
    *squares = 0;
    /* int32 within a chunk: 2¹⁵ squares of at most 255² stay under 2³¹. */
    for (size_t start = 0; start < count; start += 32768) {
        size_t end = start + 32768 < count ? start + 32768 : count;
        int32_t chunk_sum = 0, chunk_squares = 0;
        for (size_t i = start; i < end; i++) {
            int32_t v = pixels[i];
            chunk_sum += v;
            chunk_squares += v * v;
        }
        *sum += chunk_sum;
        *squares += chunk_squares;
    }
}
