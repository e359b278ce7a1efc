#include "CImageOps.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* For each output index along one axis: the first source index it covers and the weights (in
 * 1/65536 of the output pixel, summing to 65536; Lanczos' are negative in places) of `taps`
 * consecutive source indexes from there, the same number for every output index (zero-padded) so
 * the loops over them unroll. */
typedef struct {
    int first;
    int *weights; /* taps entries */
} Span;

/* Lanczos with three lobes, the kernel libvips' thumbnails are resampled with. */
static double lanczos3(double x) {
    if (x == 0)
        return 1;
    if (fabs(x) >= 3)
        return 0;
    double px = M_PI * x;
    return 3 * sin(px) * sin(px / 3) / (px * px);
}

/* Output index i covers the source from `start` to `end` (exclusive, in source pixels) when
 * averaging areas; Lanczos reaches three times as far each side of that area's centre. */
static void weigh(IngestFilter filter, double ratio, int i, int source, int *first, int *last, double *raw) {
    double start = i * ratio, end = (i + 1) * ratio;
    if (filter == INGEST_FILTER_AREA) {
        *first = (int)floor(start);
        *last = (int)ceil(end) - 1;
        if (*last > source - 1)
            *last = source - 1;
        for (int k = *first; k <= *last; k++)
            raw[k - *first] = (fmin(end, k + 1) - fmax(start, k)) / ratio;
        return;
    }
    double centre = (start + end) / 2, reach = 3 * ratio;
    *first = (int)ceil(centre - reach - 0.5);
    *last = (int)floor(centre + reach - 0.5);
    if (*first < 0)
        *first = 0;
    if (*last > source - 1)
        *last = source - 1;
    /* Taps cut off by the image's edges are left out and the rest scaled up to a sum of 1. */
    double total = 0;
    for (int k = *first; k <= *last; k++)
        total += raw[k - *first] = lanczos3((k + 0.5 - centre) / ratio);
    for (int k = *first; k <= *last; k++)
        raw[k - *first] /= total;
}

static Span *spans_for(IngestFilter filter, int source, int target, int *taps, int **storage) {
    double ratio = (double)source / target;
    int most = filter == INGEST_FILTER_AREA ? (int)ceil(ratio) + 1 : (int)ceil(6 * ratio) + 1;
    if (most > source)
        most = source;
    Span *spans = malloc(sizeof(Span) * target);
    double *raw = malloc(sizeof(double) * ((size_t)most + 2));
    *storage = calloc((size_t)target * most, sizeof(int));
    if (!spans || !raw || !*storage) {
        free(spans);
        free(raw);
        free(*storage);
        *storage = NULL;
        return NULL;
    }
    for (int i = 0; i < target; i++) {
        int first, last;
        weigh(filter, ratio, i, source, &first, &last, raw);
        /* Near the far edge the window starts earlier; the extra taps in front weigh nothing. */
        int window = first + most > source ? source - most : first;
        Span *span = &spans[i];
        span->first = window;
        span->weights = *storage + (size_t)i * most;
        int total = 0;
        for (int k = first; k <= last; k++) {
            int weight = (int)lround(raw[k - first] * 65536.0);
            span->weights[k - window] = weight;
            total += weight;
        }
        span->weights[first - window] += 65536 - total;
    }
    free(raw);
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

typedef float Float4 __attribute__((vector_size(16)));

/* reduce_row for three bands: each tap's pixel taken as four floats at once (its three bands and
 * the next pixel's first, weighed for nothing), which the compiler keeps in one vector register.
 * Reads one float past the last pixel: the row must have room for it. */
static void reduce_row_rgb(const float *row, const Span *xs, const float *xw, int out_width, int taps, uint8_t *out) {
    for (int ox = 0; ox < out_width; ox++) {
        const float *p = row + (size_t)xs[ox].first * 3, *w = xw + (size_t)ox * taps;
        /* Two sums, of the even and the odd taps: one sum's additions would wait on each other. */
        Float4 even = {0, 0, 0, 0}, odd = {0, 0, 0, 0}, pixel;
        int j = 0;
        for (; j + 1 < taps; j += 2, p += 6) {
            memcpy(&pixel, p, sizeof pixel);
            even += pixel * w[j];
            memcpy(&pixel, p + 3, sizeof pixel);
            odd += pixel * w[j + 1];
        }
        if (j < taps) {
            memcpy(&pixel, p, sizeof pixel);
            even += pixel * w[j];
        }
        Float4 sum = even + odd;
        for (int b = 0; b < 3; b++) {
            float value = sum[b] + 0.5f;
            out[ox * 3 + b] = (uint8_t)(value >= 255 ? 255 : value <= 0 ? 0 : value);
        }
    }
}

/* One row of vertical sums in levels shrunk horizontally by Lanczos weights (`xw`, taps per
 * output pixel). */
static inline void reduce_row(const float *row, const Span *xs, const float *xw, int out_width, int bands, int taps,
                              uint8_t *out) {
    for (int ox = 0; ox < out_width; ox++) {
        const float *p = row + (size_t)xs[ox].first * bands, *w = xw + (size_t)ox * taps;
        float sum[4] = {0, 0, 0, 0};
        for (int j = 0; j < taps; j++, p += bands)
            for (int b = 0; b < bands; b++)
                sum[b] += p[b] * w[j];
        for (int b = 0; b < bands; b++) {
            float value = sum[b] + 0.5f;
            out[ox * bands + b] = (uint8_t)(value >= 255 ? 255 : value <= 0 ? 0 : value);
        }
    }
}

/* The vertical pass runs as rows arrive: each output row sums, in one of `ring` accumulators, the
 * source rows it covers, and is shrunk horizontally once its last one is in. An area's sums are
 * integers (weights at 1/256, exact and cheap); Lanczos' are floats, whose multiplications
 * vectorise where 32-bit integer ones do not (SSE2). Output row oy is open from its first
 * weighted source row (opens[oy]) to its last (closes[oy]); both only grow with oy, so the open
 * rows are always [closed, opened). */
struct IngestRowShrink {
    int width, height, bands, out_width, out_height;
    uint8_t *out, *grey;
    int grey_band;
    Span *xs, *ys;
    int *x_storage, *y_storage, x_taps, y_taps;
    int *opens, *closes;
    IngestFilter filter;
    int ring;
    uint32_t *sums;  /* ring × width × bands, area */
    float *fsums;    /* ring × width × bands, Lanczos */
    float *row;      /* width × bands: the row being taken in floats, Lanczos */
    float *xw, *yw;  /* the spans' weights as fractions, Lanczos */
    int next_row, opened, closed;
};

void ingest_row_shrink_free(IngestRowShrink *shrink) {
    if (!shrink)
        return;
    free(shrink->xs);
    free(shrink->ys);
    free(shrink->x_storage);
    free(shrink->y_storage);
    free(shrink->opens);
    free(shrink->closes);
    free(shrink->sums);
    free(shrink->fsums);
    free(shrink->row);
    free(shrink->xw);
    free(shrink->yw);
    free(shrink);
}

/* The spans' weights as fractions, `taps` per output index. */
static float *fractions(const Span *spans, int count, int taps) {
    float *weights = malloc(sizeof(float) * (size_t)count * taps);
    if (weights)
        for (int i = 0; i < count; i++)
            for (int k = 0; k < taps; k++)
                weights[(size_t)i * taps + k] = spans[i].weights[k] / 65536.0f;
    return weights;
}

IngestRowShrink *ingest_row_shrink_new(IngestFilter filter, int width, int height, int bands, uint8_t *out,
                                       int out_width, int out_height, uint8_t *grey, int grey_band) {
    if (!out || bands < 1 || bands > 4 || grey_band < 0 || grey_band >= bands || out_width < 1 || out_height < 1 ||
        out_width > width || out_height > height || (filter != INGEST_FILTER_AREA && filter != INGEST_FILTER_LANCZOS3))
        return NULL;
    IngestRowShrink *shrink = calloc(1, sizeof *shrink);
    if (!shrink)
        return NULL;
    *shrink = (IngestRowShrink){width, height, bands, out_width, out_height, out, grey, grey_band};
    shrink->filter = filter;
    shrink->xs = spans_for(filter, width, out_width, &shrink->x_taps, &shrink->x_storage);
    shrink->ys = spans_for(filter, height, out_height, &shrink->y_taps, &shrink->y_storage);
    shrink->opens = malloc(sizeof(int) * out_height);
    shrink->closes = malloc(sizeof(int) * out_height);
    if (!shrink->xs || !shrink->ys || !shrink->opens || !shrink->closes) {
        ingest_row_shrink_free(shrink);
        return NULL;
    }
    if (filter == INGEST_FILTER_LANCZOS3) {
        shrink->xw = fractions(shrink->xs, out_width, shrink->x_taps);
        shrink->yw = fractions(shrink->ys, out_height, shrink->y_taps);
        shrink->row = malloc(sizeof(float) * (size_t)width * bands);
        if (!shrink->xw || !shrink->yw || !shrink->row) {
            ingest_row_shrink_free(shrink);
            return NULL;
        }
    }
    for (int oy = 0; oy < out_height; oy++) {
        Span *span = &shrink->ys[oy];
        if (filter == INGEST_FILTER_AREA) {
            /* Weights at 1/256 here, corrected to sum to exactly 256: a flat area stays flat. */
            int total = 0, heaviest = 0;
            for (int k = 0; k < shrink->y_taps; k++) {
                span->weights[k] = (span->weights[k] + 128) >> 8;
                total += span->weights[k];
                if (span->weights[k] > span->weights[heaviest])
                    heaviest = k;
            }
            span->weights[heaviest] += 256 - total;
        }
        int first = shrink->y_taps, last = -1;
        for (int k = 0; k < shrink->y_taps; k++) {
            if (span->weights[k] == 0)
                continue;
            if (first > k)
                first = k;
            last = k;
        }
        shrink->opens[oy] = span->first + first;
        shrink->closes[oy] = span->first + last;
    }
    /* Both ends must only grow with oy: a Lanczos tap rounded to nothing could make one step back. */
    for (int oy = out_height - 2; oy >= 0; oy--)
        if (shrink->opens[oy] > shrink->opens[oy + 1])
            shrink->opens[oy] = shrink->opens[oy + 1];
    for (int oy = 1; oy < out_height; oy++)
        if (shrink->closes[oy] < shrink->closes[oy - 1])
            shrink->closes[oy] = shrink->closes[oy - 1];
    /* As many accumulators as output rows are ever open at once. */
    for (int oy = 0, earliest = 0; oy < out_height; oy++) {
        while (shrink->closes[earliest] < shrink->opens[oy])
            earliest++;
        if (oy - earliest + 1 > shrink->ring)
            shrink->ring = oy - earliest + 1;
    }
    size_t sums = (size_t)shrink->ring * width * bands;
    if (filter == INGEST_FILTER_AREA ? !(shrink->sums = malloc(sizeof(uint32_t) * sums))
                                     : !(shrink->fsums = calloc(sums + 1, sizeof(float)))) { /* + 1: reduce_row_rgb */
        ingest_row_shrink_free(shrink);
        return NULL;
    }
    return shrink;
}

/* ingest_row_shrink_take's rows for Lanczos; 0, or -1 when more rows are open than planned. */
static int reduce_rows(IngestRowShrink *shrink, const uint8_t *rows, size_t stride, int top, int count) {
    const int bands = shrink->bands, x_taps = shrink->x_taps, y_taps = shrink->y_taps;
    const size_t line = (size_t)shrink->width * bands;
    float *converted = shrink->row;
    for (int y = top; y < top + count; y++) {
        const uint8_t *row = rows + (size_t)(y - top) * stride;
        if (shrink->grey)
            ingest_extract_band(row, shrink->width, 1, bands, shrink->grey_band,
                                shrink->grey + (size_t)y * shrink->width);
        for (; shrink->opened < shrink->out_height && shrink->opens[shrink->opened] <= y; shrink->opened++) {
            if (shrink->opened - shrink->closed >= shrink->ring)
                return -1;
            memset(shrink->fsums + (size_t)(shrink->opened % shrink->ring) * line, 0, sizeof(float) * line);
        }
        for (size_t i = 0; i < line; i++)
            converted[i] = row[i];
        for (int oy = shrink->closed; oy < shrink->opened; oy++) {
            int k = y - shrink->ys[oy].first;
            float weight = k >= 0 && k < y_taps ? shrink->yw[(size_t)oy * y_taps + k] : 0;
            if (weight == 0)
                continue;
            float *sum = shrink->fsums + (size_t)(oy % shrink->ring) * line;
            for (size_t i = 0; i < line; i++)
                sum[i] += converted[i] * weight;
        }
        for (; shrink->closed < shrink->opened && shrink->closes[shrink->closed] <= y; shrink->closed++) {
            const float *sum = shrink->fsums + (size_t)(shrink->closed % shrink->ring) * line;
            uint8_t *target = shrink->out + (size_t)shrink->closed * shrink->out_width * bands;
            if (bands == 3)
                reduce_row_rgb(sum, shrink->xs, shrink->xw, shrink->out_width, x_taps, target);
            else
                reduce_row(sum, shrink->xs, shrink->xw, shrink->out_width, bands, x_taps, target);
        }
        shrink->next_row = y + 1;
    }
    return 0;
}

int ingest_row_shrink_take(const uint8_t *rows, size_t stride, int top, int count, void *context) {
    IngestRowShrink *shrink = context;
    if (!rows || top != shrink->next_row || count < 0 || count > shrink->height - top)
        return -1;
    if (shrink->filter == INGEST_FILTER_LANCZOS3)
        return reduce_rows(shrink, rows, stride, top, count);
    const int bands = shrink->bands, x_taps = shrink->x_taps;
    const size_t line = (size_t)shrink->width * bands;
    for (int y = top; y < top + count; y++) {
        const uint8_t *row = rows + (size_t)(y - top) * stride;
        if (shrink->grey)
            ingest_extract_band(row, shrink->width, 1, bands, shrink->grey_band,
                                shrink->grey + (size_t)y * shrink->width);
        for (; shrink->opened < shrink->out_height && shrink->opens[shrink->opened] <= y; shrink->opened++) {
            if (shrink->opened - shrink->closed >= shrink->ring)
                return -1;
            memset(shrink->sums + (size_t)(shrink->opened % shrink->ring) * line, 0, sizeof(uint32_t) * line);
        }
        for (int oy = shrink->closed; oy < shrink->opened; oy++) {
            const Span *span = &shrink->ys[oy];
            int k = y - span->first;
            uint32_t weight = k >= 0 && k < shrink->y_taps ? (uint32_t)span->weights[k] : 0;
            if (weight == 0)
                continue;
            uint32_t *sum = shrink->sums + (size_t)(oy % shrink->ring) * line;
            for (size_t i = 0; i < line; i++)
                sum[i] += row[i] * weight;
        }
        for (; shrink->closed < shrink->opened && shrink->closes[shrink->closed] <= y; shrink->closed++) {
            const uint32_t *sum = shrink->sums + (size_t)(shrink->closed % shrink->ring) * line;
            uint8_t *target = shrink->out + (size_t)shrink->closed * shrink->out_width * bands;
            if (bands == 3 && x_taps == 4)
                shrink_row(sum, shrink->xs, shrink->out_width, 3, 4, target); /* a 12 MP photo's thumbnail from its overview */
            else if (bands == 1 && x_taps == 4)
                shrink_row(sum, shrink->xs, shrink->out_width, 1, 4, target);
            else
                shrink_row(sum, shrink->xs, shrink->out_width, bands, x_taps, target);
        }
        shrink->next_row = y + 1;
    }
    return 0;
}

int ingest_row_shrink_finished(const IngestRowShrink *shrink) {
    return shrink->next_row == shrink->height && shrink->closed == shrink->out_height;
}

int ingest_shrink(IngestFilter filter, const uint8_t *src, int width, int height, int bands,
                  uint8_t *out, int out_width, int out_height) {
    if (!src)
        return -1;
    IngestRowShrink *shrink = ingest_row_shrink_new(filter, width, height, bands, out, out_width, out_height, NULL, 0);
    if (!shrink)
        return -1;
    int result = ingest_row_shrink_take(src, (size_t)width * bands, 0, height, shrink) == 0 &&
                 ingest_row_shrink_finished(shrink) ? 0 : -1;
    ingest_row_shrink_free(shrink);
    return result;
}
