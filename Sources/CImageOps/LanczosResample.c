#include "CImageOps.h"
#include "CPUFeatures.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Lanczos resampling (three lobes: libvips' kernel for thumbnails) of rows as they are decoded,
 * making up for the blur of a source that is already a mean of the original's pixels (a JPEG
 * shrunk on load). */

/* Eight floats, loaded and stored unaligned (memcpy); one AVX register, two SSE ones. */
typedef float Float8 __attribute__((vector_size(32)));

/* Macros, not functions: a function returning a Float8 would change the ABI with AVX on or off. */
#define LOAD8(p) ({ Float8 loaded_; memcpy(&loaded_, (p), sizeof loaded_); loaded_; })
#define STORE8(p, v) do { Float8 stored_ = (v); memcpy((p), &stored_, sizeof stored_); } while (0)

static inline uint8_t level(float value) {
    value += 0.5f;
    return (uint8_t)(value >= 255 ? 255 : value <= 0 ? 0 : value);
}

/* Lanczos with three lobes (libvips' kernel for thumbnails) at x0, x0 + step, …: `count` values.
 * The sines advance by rotation: two sin() calls a tap were a tenth of a thumbnail's time. */
static void lanczos3(double x0, double step, int count, double *out) {
    double angle = M_PI * x0, turn = M_PI * step;
    double s1 = sin(angle), c1 = cos(angle), s3 = sin(angle / 3), c3 = cos(angle / 3);
    double ds1 = sin(turn), dc1 = cos(turn), ds3 = sin(turn / 3), dc3 = cos(turn / 3);
    for (int k = 0; k < count; k++) {
        double px = M_PI * (x0 + k * step);
        out[k] = fabs(px) >= 3 * M_PI ? 0 : fabs(px) < 1e-6 ? 1 : 3 * s1 * s3 / (px * px);
        double next = s1 * dc1 + c1 * ds1;
        c1 = c1 * dc1 - s1 * ds1;
        s1 = next;
        next = s3 * dc3 + c3 * ds3;
        c3 = c3 * dc3 - s3 * ds3;
        s3 = next;
    }
}

static double sinc(double x) {
    return x == 0 ? 1 : sin(M_PI * x) / (M_PI * x);
}

/* A source pixel that is the mean of box × box pixels of the original (a JPEG shrunk by `box` as
 * it loads: measured, libjpeg's scaled decode is such a mean within 2 % of amplitude) is blurred
 * against the original's own pixels by sinc(f) / sinc(f / box) at f cycles a source pixel. The
 * resample undoes that up to the output's Nyquist frequency with the filter (-a, 1 + 2a, -a), whose
 * gain 1 + 4a sin²(πf) grows with f as the loss does; this is the `a` that makes up the loss exactly
 * at the output's Nyquist frequency. 0 for a source that is the original (box 1). */
static double unblurring(int box, double ratio) {
    if (box <= 1 || ratio < 1)
        return 0;
    double nyquist = 0.5 / ratio, gain = sinc(nyquist / box) / sinc(nyquist), s = sin(M_PI * nyquist);
    return (gain - 1) / (4 * s * s);
}

/* Along one axis of `source` pixels, `ratio` source pixels an output pixel, for each of `target`
 * output indexes: the first of `taps` consecutive source indexes (firsts[i]) and their weights
 * (weights[i * taps + k], summing to 1). Taps cut off by the image's edges are left out and the
 * rest scaled up to a sum of 1; the unblurring filter repeats the edge pixel. -1 when out of
 * memory. */
static int lanczos_axis(int source, double ratio, int target, int box, int *taps, int **firsts, float **weights) {
    double reach = 3 * ratio, a = unblurring(box, ratio);
    int spread = a > 0 ? 1 : 0;
    /* An interval 2 × reach long holds at most floor(2 × reach) + 1 source pixels' centres. */
    int most = (int)floor(2 * reach) + 1 + 2 * spread;
    if (most > source)
        most = source;
    *firsts = malloc(sizeof(int) * target);
    *weights = calloc((size_t)target * most, sizeof(float));
    double *raw = malloc(sizeof(double) * ((size_t)ceil(2 * reach) + 2));
    double *sums = malloc(sizeof(double) * most);
    if (!*firsts || !*weights || !raw || !sums) {
        free(raw);
        free(sums);
        return -1;
    }
    for (int i = 0; i < target; i++) {
        /* Pixel-centre convention: source pixel k spans [k, k + 1), output pixel i [i, i + 1) × ratio. */
        double centre = (i + 0.5) * ratio;
        int first = (int)ceil(centre - reach - 0.5), last = (int)floor(centre + reach - 0.5);
        if (first < 0)
            first = 0;
        if (last > source - 1)
            last = source - 1;
        lanczos3((first + 0.5 - centre) / ratio, 1 / ratio, last - first + 1, raw);
        double total = 0;
        for (int k = first; k <= last; k++)
            total += raw[k - first];
        /* Near the far edge the window starts earlier; the extra taps in front weigh nothing. */
        int window = first - spread;
        if (window > source - most)
            window = source - most;
        if (window < 0)
            window = 0;
        memset(sums, 0, sizeof(double) * most);
        for (int k = first; k <= last; k++) {
            double weight = raw[k - first] / total;
            int before = k > 0 ? k - 1 : 0, after = k < source - 1 ? k + 1 : source - 1;
            sums[k - window] += (1 + 2 * a) * weight;
            if (spread) {
                sums[before - window] -= a * weight;
                sums[after - window] -= a * weight;
            }
        }
        (*firsts)[i] = window;
        for (int k = 0; k < most; k++)
            (*weights)[(size_t)i * most + k] = (float)sums[k];
    }
    free(raw);
    free(sums);
    *taps = most;
    return 0;
}

/* Source rows are kept, as floats, in a ring of `y_taps` rows: once an output row's last source
 * row is in, the vertical pass sums its column of rows into `column` and the horizontal pass
 * resamples that along the row. Each output value is a sum of products whose accumulator stays in
 * a register; under AVX2 every product of the vertical pass (the larger: it runs at the source's
 * width) is one multiply-add of eight floats.
 *
 * Shrinking by 4 or more, as libvips' vips_resize does, the source is first shrunk by an integer
 * factor (box_x × box_y) by averaging, leaving a Lanczos shrink of 2 to 4: its taps, and the ring,
 * stay bounded however large the shrink (a 100,000,000 × 1 strip to a 400 px thumbnail would
 * otherwise weigh 1.5 million source pixels for each output pixel), and the unblurring makes up
 * for the averaging as it does for a JPEG's. The ring then holds those averages: rows of
 * mid_width pixels, each the mean of up to box_x × box_y source pixels. */
struct IngestRowResample {
    int width, height, bands, out_width, out_height;
    uint8_t *out, *grey;
    int grey_band;
    int box_x, box_y, mid_width, mid_height;
    int x_taps, y_taps, pairs;
    int *x_firsts, *y_firsts;
    float *xw, *yw;
    /* For three bands, each pair of taps' weights for a vector of eight floats that holds the
     * pair's two pixels: {w0, w0, w0, w1, w1, w1, 0, 0}, `pairs` per output pixel. */
    float *x_pairs;
    size_t pitch;       /* floats a row: mid_width × bands and room for a vector's reach past the end */
    float *ring;        /* y_taps rows */
    float *column;      /* one row's vertical sums */
    float *sums;        /* one output row's sums, three bands */
    const float **rows; /* y_taps: the rows of the ring an output row is made of, in order */
    int next_row, next_out;
    int avx2;
};

void ingest_row_resample_free(IngestRowResample *resample) {
    if (!resample)
        return;
    free(resample->x_firsts);
    free(resample->y_firsts);
    free(resample->xw);
    free(resample->yw);
    free(resample->x_pairs);
    free(resample->ring);
    free(resample->column);
    free(resample->sums);
    free(resample->rows);
    free(resample);
}

IngestRowResample *ingest_row_resample_new(int width, int height, int bands, uint8_t *out, int out_width,
                                           int out_height, int source_shrink, uint8_t *grey, int grey_band) {
    if (!out || bands < 1 || bands > 4 || grey_band < 0 || grey_band >= bands || out_width < 1 || out_height < 1 ||
        out_width > width || out_height > height || source_shrink < 1 || source_shrink > 64)
        return NULL;
    IngestRowResample *resample = calloc(1, sizeof *resample);
    if (!resample)
        return NULL;
    *resample = (IngestRowResample){width, height, bands, out_width, out_height, out, grey, grey_band};
    resample->avx2 = ingest_cpu_has_avx2_fma();
    double x_ratio = (double)width / out_width, y_ratio = (double)height / out_height;
    resample->box_x = x_ratio >= 4 ? (int)(x_ratio / 2) : 1;
    resample->box_y = y_ratio >= 4 ? (int)(y_ratio / 2) : 1;
    resample->mid_width = (width + resample->box_x - 1) / resample->box_x;
    resample->mid_height = (height + resample->box_y - 1) / resample->box_y;
    if (lanczos_axis(resample->mid_width, x_ratio / resample->box_x, out_width, source_shrink * resample->box_x,
                     &resample->x_taps, &resample->x_firsts, &resample->xw) ||
        lanczos_axis(resample->mid_height, y_ratio / resample->box_y, out_height, source_shrink * resample->box_y,
                     &resample->y_taps, &resample->y_firsts, &resample->yw)) {
        ingest_row_resample_free(resample);
        return NULL;
    }
    resample->pitch = ((size_t)resample->mid_width * bands + 8 + 7) / 8 * 8;
    resample->ring = calloc(resample->pitch * resample->y_taps, sizeof(float));
    resample->column = calloc(resample->pitch, sizeof(float));
    resample->rows = malloc(sizeof(float *) * resample->y_taps);
    if (!resample->ring || !resample->column || !resample->rows) {
        ingest_row_resample_free(resample);
        return NULL;
    }
    if (bands == 3) {
        int pairs = resample->pairs = (resample->x_taps + 1) / 2;
        resample->x_pairs = calloc((size_t)out_width * pairs * 8, sizeof(float));
        resample->sums = malloc(sizeof(float) * out_width * 3);
        if (!resample->x_pairs || !resample->sums) {
            ingest_row_resample_free(resample);
            return NULL;
        }
        for (int ox = 0; ox < out_width; ox++)
            for (int k = 0; k < resample->x_taps; k++)
                for (int b = 0; b < 3; b++)
                    resample->x_pairs[((size_t)ox * pairs + k / 2) * 8 + (k % 2) * 3 + b] =
                        resample->xw[(size_t)ox * resample->x_taps + k];
    }
    return resample;
}

/* The vertical pass: column[i] = Σ rows[k][i] × weights[k], for i < line, eight at a time (the
 * rows have room past `line`). */
static inline __attribute__((always_inline)) void sum_column(const float *const *rows, const float *weights, int taps,
                                                             size_t line, float *column) {
    size_t i = 0;
    /* Eight sums of eight at a time: each tap's row pointer and weight, loaded once, serve 64 columns. */
    for (; i + 64 <= line; i += 64) {
        Float8 a = {0}, b = {0}, c = {0}, d = {0}, e = {0}, f = {0}, g = {0}, h = {0};
        for (int k = 0; k < taps; k++) {
            const float *row = rows[k] + i;
            float weight = weights[k];
            a += LOAD8(row) * weight;
            b += LOAD8(row + 8) * weight;
            c += LOAD8(row + 16) * weight;
            d += LOAD8(row + 24) * weight;
            e += LOAD8(row + 32) * weight;
            f += LOAD8(row + 40) * weight;
            g += LOAD8(row + 48) * weight;
            h += LOAD8(row + 56) * weight;
        }
        STORE8(column + i, a);
        STORE8(column + i + 8, b);
        STORE8(column + i + 16, c);
        STORE8(column + i + 24, d);
        STORE8(column + i + 32, e);
        STORE8(column + i + 40, f);
        STORE8(column + i + 48, g);
        STORE8(column + i + 56, h);
    }
    for (; i < line; i += 8) {
        Float8 a = {0};
        for (int k = 0; k < taps; k++)
            a += LOAD8(rows[k] + i) * weights[k];
        STORE8(column + i, a);
    }
}

/* The horizontal pass for three bands, into floats: each pair of taps is one product of eight
 * floats (the pair's two pixels and two floats of the next, weighed for nothing). */
static inline __attribute__((always_inline)) void resample_rgb(const float *column, const int *firsts,
                                                               const float *pairs, int count, int out_width,
                                                               float *out) {
    for (int ox = 0; ox < out_width; ox++) {
        const float *p = column + (size_t)firsts[ox] * 3, *w = pairs + (size_t)ox * count * 8;
        /* Two sums, of the even and the odd pairs: one sum's additions would wait on each other. */
        Float8 even = {0}, odd = {0};
        int j = 0;
        for (; j + 1 < count; j += 2, p += 12, w += 16) {
            even += LOAD8(p) * LOAD8(w);
            odd += LOAD8(p + 6) * LOAD8(w + 8);
        }
        if (j < count)
            even += LOAD8(p) * LOAD8(w);
        Float8 sum = even + odd;
        out[ox * 3] = sum[0] + sum[3];
        out[ox * 3 + 1] = sum[1] + sum[4];
        out[ox * 3 + 2] = sum[2] + sum[5];
    }
}

/* resample_rgb with the pair counts of common ratios (1.85 to 3.7: a JPEG's thumbnail from its
 * overview) as constants, so that its loop unrolls: a third of its instructions were the loop's. */
#define RESAMPLE_RGB_UNROLLED(column, firsts, pairs, count, out_width, sums)                             \
    switch (count) {                                                                                   \
    case 8: resample_rgb(column, firsts, pairs, 8, out_width, sums); break;                            \
    case 9: resample_rgb(column, firsts, pairs, 9, out_width, sums); break;                            \
    case 10: resample_rgb(column, firsts, pairs, 10, out_width, sums); break;                          \
    case 11: resample_rgb(column, firsts, pairs, 11, out_width, sums); break;                          \
    case 12: resample_rgb(column, firsts, pairs, 12, out_width, sums); break;                          \
    case 13: resample_rgb(column, firsts, pairs, 13, out_width, sums); break;                          \
    default: resample_rgb(column, firsts, pairs, count, out_width, sums); break;                       \
    }

/* Sums rounded to levels, clamped to 0…255. */
static inline __attribute__((always_inline)) void narrow(const float *sums, size_t count, uint8_t *out) {
    for (size_t i = 0; i < count; i++) {
        float value = sums[i] + 0.5f;
        value = value < 0 ? 0 : value;
        value = value > 255 ? 255 : value;
        out[i] = (uint8_t)(int)value;
    }
}

/* A row into the ring as floats, and its band `band` into `grey` when that is not NULL. */
static inline __attribute__((always_inline)) void widen(const uint8_t *row, int width, int bands, int band,
                                                        float *out, uint8_t *grey) {
    for (size_t i = 0; i < (size_t)width * bands; i++)
        out[i] = row[i];
    if (!grey)
        return;
    if (bands == 3) {
        /* With its stride a constant this loop vectorises; ingest_extract_band's does not. */
        const uint8_t *from = row + band;
        for (int x = 0; x < width; x++)
            grey[x] = from[3 * x];
    } else
        ingest_extract_band(row, width, 1, bands, band, grey);
}

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) static void sum_column_avx2(const float *const *rows, const float *weights,
                                                                  int taps, size_t line, float *column) {
    sum_column(rows, weights, taps, line, column);
}

__attribute__((target("avx2,fma"))) static void resample_rgb_avx2(const float *column, const int *firsts,
                                                                    const float *pairs, int count, int out_width,
                                                                    uint8_t *out, float *sums) {
    RESAMPLE_RGB_UNROLLED(column, firsts, pairs, count, out_width, sums);
    narrow(sums, (size_t)out_width * 3, out);
}

__attribute__((target("avx2"))) static void widen_avx2(const uint8_t *row, int width, int bands, int band, float *out,
                                                       uint8_t *grey) {
    widen(row, width, bands, band, out, grey);
}
#endif

static void sum_column_base(const float *const *rows, const float *weights, int taps, size_t line, float *column) {
    sum_column(rows, weights, taps, line, column);
}

static void resample_rgb_base(const float *column, const int *firsts, const float *pairs, int count, int out_width,
                              uint8_t *out, float *sums) {
    RESAMPLE_RGB_UNROLLED(column, firsts, pairs, count, out_width, sums);
    narrow(sums, (size_t)out_width * 3, out);
}

static void widen_base(const uint8_t *row, int width, int bands, int band, float *out, uint8_t *grey) {
    widen(row, width, bands, band, out, grey);
}

/* The horizontal pass for any number of bands. */
static void resample_any(const float *column, const int *firsts, const float *weights, int taps, int bands,
                         int out_width, uint8_t *out) {
    for (int ox = 0; ox < out_width; ox++) {
        const float *p = column + (size_t)firsts[ox] * bands, *w = weights + (size_t)ox * taps;
        float sum[4] = {0, 0, 0, 0};
        for (int k = 0; k < taps; k++, p += bands)
            for (int b = 0; b < bands; b++)
                sum[b] += p[b] * w[k];
        for (int b = 0; b < bands; b++)
            out[ox * bands + b] = level(sum[b]);
    }
}

/* Source row y added into its row of averages (the first of a box's rows replaces it); after the
 * box's last row, the sums divided into means. */
static void add_to_box(IngestRowResample *resample, const uint8_t *row, int y, float *mean) {
    const int bands = resample->bands, box_x = resample->box_x, width = resample->width;
    const size_t line = (size_t)resample->mid_width * bands;
    if (y % resample->box_y == 0)
        memset(mean, 0, sizeof(float) * line);
    for (int j = 0, x = 0; j < resample->mid_width; j++)
        for (int end = x + box_x < width ? x + box_x : width; x < end; x++)
            for (int b = 0; b < bands; b++)
                mean[(size_t)j * bands + b] += row[(size_t)x * bands + b];
    int rows = y % resample->box_y + 1;
    if (rows < resample->box_y && y < resample->height - 1)
        return;
    for (int j = 0; j < resample->mid_width; j++) {
        int columns = j < resample->mid_width - 1 ? box_x : width - j * box_x;
        float scale = 1.0f / ((float)rows * columns);
        for (int b = 0; b < bands; b++)
            mean[(size_t)j * bands + b] *= scale;
    }
}

int ingest_row_resample_take(const uint8_t *rows, size_t stride, int top, int count, void *context) {
    IngestRowResample *resample = context;
    if (!rows || top != resample->next_row || count < 0 || count > resample->height - top)
        return -1;
    const int bands = resample->bands, taps = resample->y_taps, box_y = resample->box_y;
    const int boxed = resample->box_x > 1 || box_y > 1;
    const size_t line = (size_t)resample->mid_width * bands;
#if defined(__x86_64__)
    void (*widen_row)(const uint8_t *, int, int, int, float *, uint8_t *) = resample->avx2 ? widen_avx2 : widen_base;
    void (*sum)(const float *const *, const float *, int, size_t, float *) =
        resample->avx2 ? sum_column_avx2 : sum_column_base;
    void (*rgb)(const float *, const int *, const float *, int, int, uint8_t *, float *) =
        resample->avx2 ? resample_rgb_avx2 : resample_rgb_base;
#else
    void (*widen_row)(const uint8_t *, int, int, int, float *, uint8_t *) = widen_base;
    void (*sum)(const float *const *, const float *, int, size_t, float *) = sum_column_base;
    void (*rgb)(const float *, const int *, const float *, int, int, uint8_t *, float *) = resample_rgb_base;
#endif
    for (int y = top; y < top + count; y++) {
        const uint8_t *row = rows + (size_t)(y - top) * stride;
        uint8_t *grey = resample->grey ? resample->grey + (size_t)y * resample->width : NULL;
        int mid = y / box_y;
        float *slot = resample->ring + (size_t)(mid % taps) * resample->pitch;
        if (!boxed)
            widen_row(row, resample->width, bands, resample->grey_band, slot, grey);
        else {
            if (grey)
                ingest_extract_band(row, resample->width, 1, bands, resample->grey_band, grey);
            add_to_box(resample, row, y, slot);
        }
        resample->next_row = y + 1;
        if (y % box_y != box_y - 1 && y != resample->height - 1)
            continue;
        /* Output rows whose taps end at this row of the ring; their first rows are still in it. */
        for (; resample->next_out < resample->out_height && resample->y_firsts[resample->next_out] + taps - 1 <= mid;
             resample->next_out++) {
            int oy = resample->next_out, first = resample->y_firsts[oy];
            const float *weights = resample->yw + (size_t)oy * taps;
            /* Only the rows that weigh something: near the edges the window is wider than the taps. */
            int from = 0, to = taps;
            while (from < to - 1 && weights[from] == 0)
                from++;
            while (to > from + 1 && weights[to - 1] == 0)
                to--;
            for (int k = from; k < to; k++)
                resample->rows[k - from] = resample->ring + (size_t)((first + k) % taps) * resample->pitch;
            sum(resample->rows, weights + from, to - from, line, resample->column);
            uint8_t *target = resample->out + (size_t)oy * resample->out_width * bands;
            if (bands == 3)
                rgb(resample->column, resample->x_firsts, resample->x_pairs, resample->pairs, resample->out_width,
                    target, resample->sums);
            else
                resample_any(resample->column, resample->x_firsts, resample->xw, resample->x_taps, bands,
                             resample->out_width, target);
        }
    }
    return 0;
}

int ingest_row_resample_finished(const IngestRowResample *resample) {
    return resample->next_row == resample->height && resample->next_out == resample->out_height;
}

int ingest_resample(const uint8_t *src, int width, int height, int bands, uint8_t *out, int out_width,
                    int out_height, int source_shrink) {
    if (!src)
        return -1;
    IngestRowResample *resample =
        ingest_row_resample_new(width, height, bands, out, out_width, out_height, source_shrink, NULL, 0);
    if (!resample)
        return -1;
    int result = ingest_row_resample_take(src, (size_t)width * bands, 0, height, resample) == 0 &&
                 ingest_row_resample_finished(resample) ? 0 : -1;
    ingest_row_resample_free(resample);
    return result;
}
