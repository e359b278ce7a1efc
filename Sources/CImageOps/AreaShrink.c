#include "CImageOps.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* The vertical pass runs as rows arrive: each output row sums, in one of `ring` accumulators, the
 * source rows it covers (weighted at 1/256), and is shrunk horizontally once its last one is in.
 * Output row oy is open from its first weighted source row (opens[oy]) to its last (closes[oy]);
 * both only grow with oy, so the open rows are always [closed, opened). */
struct IngestRowShrink {
    int width, height, bands, out_width, out_height;
    uint8_t *out, *grey;
    int grey_band;
    Span *xs, *ys;
    int *x_storage, *y_storage, x_taps, y_taps;
    int *opens, *closes;
    int ring;
    uint32_t *sums; /* ring × width × bands */
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
    free(shrink);
}

IngestRowShrink *ingest_row_shrink_new(int width, int height, int bands, uint8_t *out, int out_width,
                                       int out_height, uint8_t *grey, int grey_band) {
    if (!out || bands < 1 || bands > 4 || grey_band < 0 || grey_band >= bands || out_width < 1 || out_height < 1 ||
        out_width > width || out_height > height)
        return NULL;
    IngestRowShrink *shrink = calloc(1, sizeof *shrink);
    if (!shrink)
        return NULL;
    *shrink = (IngestRowShrink){width, height, bands, out_width, out_height, out, grey, grey_band};
    shrink->xs = area_spans(width, out_width, &shrink->x_taps, &shrink->x_storage);
    shrink->ys = area_spans(height, out_height, &shrink->y_taps, &shrink->y_storage);
    shrink->opens = malloc(sizeof(int) * out_height);
    shrink->closes = malloc(sizeof(int) * out_height);
    /* Row spans of at least one source row each overlap at most two at a time; one more to spare. */
    shrink->ring = 3;
    shrink->sums = malloc(sizeof(uint32_t) * (size_t)shrink->ring * width * bands);
    if (!shrink->xs || !shrink->ys || !shrink->opens || !shrink->closes || !shrink->sums) {
        ingest_row_shrink_free(shrink);
        return NULL;
    }
    for (int oy = 0; oy < out_height; oy++) {
        Span *span = &shrink->ys[oy];
        /* Weights at 1/256 here, corrected to sum to exactly 256: a flat area stays flat. */
        int total = 0, heaviest = 0;
        for (int k = 0; k < shrink->y_taps; k++) {
            span->weights[k] = (span->weights[k] + 128) >> 8;
            total += span->weights[k];
            if (span->weights[k] > span->weights[heaviest])
                heaviest = k;
        }
        span->weights[heaviest] += 256 - total;
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
    return shrink;
}

int ingest_row_shrink_take(const uint8_t *rows, size_t stride, int top, int count, void *context) {
    IngestRowShrink *shrink = context;
    if (!rows || top != shrink->next_row || count < 0 || count > shrink->height - top)
        return -1;
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
            uint32_t weight = (uint32_t)span->weights[y - span->first];
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

int ingest_area_shrink(const uint8_t *src, int width, int height, int bands,
                       uint8_t *out, int out_width, int out_height) {
    if (!src)
        return -1;
    IngestRowShrink *shrink = ingest_row_shrink_new(width, height, bands, out, out_width, out_height, NULL, 0);
    if (!shrink)
        return -1;
    int result = ingest_row_shrink_take(src, (size_t)width * bands, 0, height, shrink) == 0 &&
                 ingest_row_shrink_finished(shrink) ? 0 : -1;
    ingest_row_shrink_free(shrink);
    return result;
}
