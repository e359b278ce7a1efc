#include "CImageOps.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void ingest_region_size(int box_width, int box_height, double angle, double scale, int *width, int *height) {
    double radians = angle * M_PI / 180.0;
    double c = fabs(cos(radians)), s = fabs(sin(radians));
    *width = (int)ceil(scale * (box_width * c + box_height * s) - 1e-9);
    *height = (int)ceil(scale * (box_width * s + box_height * c) - 1e-9);
}

/* Sample positions and bilinear weights in 1/64 of a pixel. */
enum { FRACTIONS = 64 };

static inline int clamp_int(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

int ingest_sample_region(const uint8_t *src, int src_width, int src_height,
                         int box_x, int box_y, int box_width, int box_height,
                         double angle, double scale, int smooth_rows,
                         uint8_t *out, int width, int height) {
    if (!src || !out || box_width <= 0 || box_height <= 0 || box_x < 0 || box_y < 0 ||
        box_x > src_width - box_width || box_y > src_height - box_height || width <= 0 || height <= 0 ||
        !(scale > 0) || (size_t)width * (size_t)height > ((size_t)1 << 28))
        return -1;
    double radians = angle * M_PI / 180.0;
    double c = cos(radians) / scale, s = sin(radians) / scale;
    double centre_x = box_x + box_width / 2.0, centre_y = box_y + box_height / 2.0;
    int x0 = box_x, y0 = box_y, x1 = box_x + box_width - 1, y1 = box_y + box_height - 1;
    const size_t stride = (size_t)src_width;
    /* Source coordinates in 1/FRACTIONS pixel, offset so they stay positive near the edges. */
    const int64_t offset = 4;

    for (int row = 0; row < height; row++) {
        /* The inverse turn: the source point (pixel-index coordinates) of each output pixel, stepped
         * along the row in fixed point. */
        double dx = 0.5 - width / 2.0, dy = row + 0.5 - height / 2.0;
        double start_x = centre_x + c * dx + s * dy - 0.5, start_y = centre_y - s * dx + c * dy - 0.5;
        int64_t fx = llround((start_x + offset) * FRACTIONS * 65536.0), fy = llround((start_y + offset) * FRACTIONS * 65536.0);
        const int64_t step_x = llround(c * FRACTIONS * 65536.0), step_y = llround(-s * FRACTIONS * 65536.0);
        const int64_t left = (int64_t)((x0 - 0.5 + offset) * FRACTIONS * 65536.0);
        const int64_t right = (int64_t)((x1 + 0.5 + offset) * FRACTIONS * 65536.0);
        const int64_t top = (int64_t)((y0 - 0.5 + offset) * FRACTIONS * 65536.0);
        const int64_t bottom = (int64_t)((y1 + 0.5 + offset) * FRACTIONS * 65536.0);
        uint8_t *line = out + (size_t)row * width;
        for (int column = 0; column < width; column++, fx += step_x, fy += step_y) {
            if (fx < left || fx > right || fy < top || fy > bottom) {
                line[column] = 255;
                continue;
            }
            int px = (int)((fx + 32768) >> 16), py = (int)((fy + 32768) >> 16); /* in 1/FRACTIONS */
            int ix = px / FRACTIONS - (int)offset, iy = py / FRACTIONS - (int)offset;
            int ax = px % FRACTIONS, ay = py % FRACTIONS;
            int sum;
            if (ix >= x0 && ix < x1 && iy >= y0 && iy < y1) {
                const uint8_t *p = src + (size_t)iy * stride + ix;
                int upper = p[0] * (FRACTIONS - ax) + p[1] * ax;
                int lower = p[stride] * (FRACTIONS - ax) + p[stride + 1] * ax;
                sum = upper * (FRACTIONS - ay) + lower * ay;
            } else {
                int xa = clamp_int(ix, x0, x1), xb = clamp_int(ix + 1, x0, x1);
                const uint8_t *ra = src + (size_t)clamp_int(iy, y0, y1) * stride;
                const uint8_t *rb = src + (size_t)clamp_int(iy + 1, y0, y1) * stride;
                int upper = ra[xa] * (FRACTIONS - ax) + ra[xb] * ax;
                int lower = rb[xa] * (FRACTIONS - ax) + rb[xb] * ax;
                sum = upper * (FRACTIONS - ay) + lower * ay;
            }
            sum = (sum + FRACTIONS * FRACTIONS / 2) / (FRACTIONS * FRACTIONS);
            line[column] = (uint8_t)(sum < 0 ? 0 : (sum > 255 ? 255 : sum));
        }
    }
    if (smooth_rows <= 1 || height < 2)
        return 0;

    /* A running vertical sum per column over a copy of the sampled image. */
    uint8_t *sampled = malloc((size_t)width * height);
    unsigned *sums = calloc((size_t)width, sizeof(unsigned));
    if (!sampled || !sums) {
        free(sampled);
        free(sums);
        return -1;
    }
    memcpy(sampled, out, (size_t)width * height);
    int before = smooth_rows / 2, after = smooth_rows - 1 - before;
    for (int k = -before; k <= after; k++) {
        const uint8_t *source = sampled + (size_t)clamp_int(k, 0, height - 1) * width;
        for (int column = 0; column < width; column++)
            sums[column] += source[column];
    }
    for (int row = 0; row < height; row++) {
        uint8_t *line = out + (size_t)row * width;
        for (int column = 0; column < width; column++)
            line[column] = (uint8_t)((sums[column] + smooth_rows / 2) / smooth_rows);
        const uint8_t *leaving = sampled + (size_t)clamp_int(row - before, 0, height - 1) * width;
        const uint8_t *entering = sampled + (size_t)clamp_int(row + after + 1, 0, height - 1) * width;
        for (int column = 0; column < width; column++)
            sums[column] += entering[column] - leaving[column];
    }
    free(sampled);
    free(sums);
    return 0;
}

void ingest_extract_band(const uint8_t *src, int width, int height, int bands, int band, uint8_t *out) {
    size_t count = (size_t)width * height;
    if (bands == 1) {
        memcpy(out, src, count);
        return;
    }
    for (size_t i = 0; i < count; i++)
        out[i] = src[i * bands + band];
}

/* For each output index along one axis: the first source index it covers and the weights (in
 * 1/65536 of the output pixel, summing to 65536) of `taps` consecutive source indexes from there,
 * the same number for every output index (zero-padded) so the loops over them unroll. */
typedef struct {
    int first;
    int *weights; /* taps entries */
} Span;

static Span *area_spans(int source, int target, int *taps, int **storage) {
    double ratio = (double)source / target;
    int most = (int)ceil(ratio) + 1;
    if (most > source)
        most = source;
    Span *spans = malloc(sizeof(Span) * target);
    *storage = calloc((size_t)target * most, sizeof(int));
    if (!spans || !*storage) {
        free(spans);
        free(*storage);
        *storage = NULL;
        return NULL;
    }
    for (int i = 0; i < target; i++) {
        double start = i * ratio, end = (i + 1) * ratio;
        int first = (int)floor(start), last = (int)ceil(end) - 1;
        if (last > source - 1)
            last = source - 1;
        /* Near the far edge the window starts earlier; the extra taps in front weigh nothing. */
        int window = first + most > source ? source - most : first;
        Span *span = &spans[i];
        span->first = window;
        span->weights = *storage + (size_t)i * most;
        int total = 0;
        for (int k = first; k <= last; k++) {
            double from = fmax(start, k), to = fmin(end, k + 1);
            int weight = (int)lround((to - from) / ratio * 65536.0);
            span->weights[k - window] = weight;
            total += weight;
        }
        span->weights[first - window] += 65536 - total;
    }
    *taps = most;
    return spans;
}

/* One row (in 1/256 of a level, after the vertical pass) shrunk horizontally. Called with
 * constant bands and taps where it matters, so the inner loops unroll. */
static inline void shrink_row(const uint32_t *row, const Span *xs, int out_width, int bands, int taps,
                              uint8_t *out) {
    for (int ox = 0; ox < out_width; ox++) {
        const Span *span = &xs[ox];
        const uint32_t *p = row + (size_t)span->first * bands;
        uint64_t sum[4] = {0, 0, 0, 0};
        for (int j = 0; j < taps; j++, p += bands) {
            uint64_t weight = (uint64_t)span->weights[j];
            for (int b = 0; b < bands; b++)
                sum[b] += p[b] * weight;
        }
        for (int b = 0; b < bands; b++) {
            uint64_t value = (sum[b] + ((uint64_t)1 << 23)) >> 24;
            out[ox * bands + b] = (uint8_t)(value > 255 ? 255 : value);
        }
    }
}

int ingest_area_shrink(const uint8_t *src, int width, int height, int bands,
                       uint8_t *out, int out_width, int out_height) {
    if (!src || !out || bands < 1 || bands > 4 || out_width < 1 || out_height < 1 || out_width > width ||
        out_height > height)
        return -1;
    int *x_storage = NULL, *y_storage = NULL, x_taps = 0, y_taps = 0;
    Span *xs = area_spans(width, out_width, &x_taps, &x_storage);
    Span *ys = area_spans(height, out_height, &y_taps, &y_storage);
    size_t line = (size_t)width * bands;
    /* Each output row: its source rows averaged (contiguous, so vectorised), then that row shrunk
     * horizontally. */
    uint32_t *down = malloc(sizeof(uint32_t) * line);
    /* On the heap: y_taps grows with the height ratio (a 1×3,000,000 strip shrunk to one pixel
     * needs 3,000,001), far past what a thread's stack holds. */
    uint32_t *weights = malloc(sizeof(uint32_t) * (size_t)(y_taps > 0 ? y_taps : 1));
    int result = -1;
    if (!xs || !ys || !down || !weights)
        goto done;
    for (int oy = 0; oy < out_height; oy++) {
        const Span *span = &ys[oy];
        memset(down, 0, sizeof(uint32_t) * line);
        /* Weights at 1/256 here, corrected to sum to exactly 256: a flat area stays flat. */
        int total = 0, heaviest = 0;
        for (int k = 0; k < y_taps; k++) {
            weights[k] = (uint32_t)(span->weights[k] + 128) >> 8;
            total += (int)weights[k];
            if (weights[k] > weights[heaviest])
                heaviest = k;
        }
        weights[heaviest] += 256 - total;
        for (int k = 0; k < y_taps; k++) {
            if (weights[k] == 0)
                continue;
            const uint8_t *row = src + (size_t)(span->first + k) * line;
            for (size_t i = 0; i < line; i++)
                down[i] += row[i] * weights[k];
        }
        uint8_t *target = out + (size_t)oy * out_width * bands;
        if (bands == 3 && x_taps == 4)
            shrink_row(down, xs, out_width, 3, 4, target); /* a 12 MP photo's thumbnail from its overview */
        else if (bands == 1 && x_taps == 4)
            shrink_row(down, xs, out_width, 1, 4, target);
        else
            shrink_row(down, xs, out_width, bands, x_taps, target);
    }
    result = 0;
done:
    free(xs);
    free(ys);
    free(x_storage);
    free(y_storage);
    free(down);
    free(weights);
    return result;
}
