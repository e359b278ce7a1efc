#include "CImageOps.h"
#include "CPUFeatures.h"

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

/* Where a row's samples are taken: source coordinates in 1/FRACTIONS pixel and 16 bits below
 * that, offset so they stay positive near the edges, the first and the step from one to the next;
 * and the box, inclusive, whose pixels are read and outside whose edges (half a pixel out) a
 * sample is white. */
typedef struct {
    int64_t fx, fy, step_x, step_y;
    int64_t left, right, top, bottom;
    int x0, y0, x1, y1;
} SampleRow;

/* The offset of the coordinates, in pixels. */
static const int64_t kOffset = 4;

/* One sample: white outside the box, else the bilinear mean of the four pixels around it, those
 * beyond the box's edge pixels taken from the edge. */
static inline uint8_t sample_at(const uint8_t *src, size_t stride, const SampleRow *row, int64_t fx, int64_t fy) {
    if (fx < row->left || fx > row->right || fy < row->top || fy > row->bottom)
        return 255;
    /* In 1/FRACTIONS; positive (fx ≥ left > 0), so a shift and a mask divide them. */
    unsigned px = (unsigned)((fx + 32768) >> 16), py = (unsigned)((fy + 32768) >> 16);
    int ix = (int)(px / FRACTIONS) - (int)kOffset, iy = (int)(py / FRACTIONS) - (int)kOffset;
    int ax = (int)(px % FRACTIONS), ay = (int)(py % FRACTIONS);
    int sum;
    if (ix >= row->x0 && ix < row->x1 && iy >= row->y0 && iy < row->y1) {
        const uint8_t *p = src + (size_t)iy * stride + ix;
        int upper = p[0] * (FRACTIONS - ax) + p[1] * ax;
        int lower = p[stride] * (FRACTIONS - ax) + p[stride + 1] * ax;
        sum = upper * (FRACTIONS - ay) + lower * ay;
    } else {
        int xa = clamp_int(ix, row->x0, row->x1), xb = clamp_int(ix + 1, row->x0, row->x1);
        const uint8_t *ra = src + (size_t)clamp_int(iy, row->y0, row->y1) * stride;
        const uint8_t *rb = src + (size_t)clamp_int(iy + 1, row->y0, row->y1) * stride;
        int upper = ra[xa] * (FRACTIONS - ax) + ra[xb] * ax;
        int lower = rb[xa] * (FRACTIONS - ax) + rb[xb] * ax;
        sum = upper * (FRACTIONS - ay) + lower * ay;
    }
    /* The weights sum to FRACTIONS², so the mean is 0…255 and never negative. */
    return (uint8_t)((unsigned)(sum + FRACTIONS * FRACTIONS / 2) / (FRACTIONS * FRACTIONS));
}

/* `count` samples one by one from (*fx, *fy) on, which it leaves at the next sample's. */
static inline void sample_span(const uint8_t *src, size_t stride, const SampleRow *row, int64_t *fx, int64_t *fy,
                               uint8_t *line, int count) {
    for (int k = 0; k < count; k++, *fx += row->step_x, *fy += row->step_y)
        line[k] = sample_at(src, stride, row, *fx, *fy);
}

static void sample_row_portable(const uint8_t *src, size_t stride, int src_height, const SampleRow *row, uint8_t *line,
                                int width) {
    (void)src_height;
    int64_t fx = row->fx, fy = row->fy;
    sample_span(src, stride, row, &fx, &fy, line, width);
}

#if defined(__x86_64__)
#include <immintrin.h>

/* sample_row_portable, eight samples at a time where all eight lie inside the box with their
 * four pixels, with the same integer arithmetic: the same bytes. Each sample's two pairs of
 * pixels are read as 32-bit words (gathers), so a group whose lower pair lies in the image's
 * last row, where a word would read past the end, is sampled one by one, as are groups at the
 * box's edges and the row's last few samples. */
__attribute__((target("avx2"))) static void sample_row_avx2(const uint8_t *src, size_t stride, int src_height,
                                                            const SampleRow *row, uint8_t *line, int width) {
    /* The gathers' offsets are 32-bit. */
    if ((uint64_t)src_height * stride >= (1u << 30)) {
        sample_row_portable(src, stride, src_height, row, line, width);
        return;
    }
    int64_t fx = row->fx, fy = row->fy;
    const __m256i step_x4 = _mm256_set1_epi64x(4 * row->step_x), step_y4 = _mm256_set1_epi64x(4 * row->step_y);
    const __m256i half = _mm256_set1_epi64x(32768);
    /* The low 32 bits of each 64-bit lane, in order, in the low half. */
    const __m256i low_words = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    const __m256i fractions = _mm256_set1_epi32(FRACTIONS), mask = _mm256_set1_epi32(FRACTIONS - 1);
    const __m256i offset = _mm256_set1_epi32((int)kOffset), bytes = _mm256_set1_epi32(0xff);
    const __m256i rounding = _mm256_set1_epi32(FRACTIONS * FRACTIONS / 2);
    /* Inside the box on both axes with the pixel to the right and below (ix < x1, iy < y1), and
     * the pair below not in the image's last row. */
    const int last_y = row->y1 < src_height - 2 ? row->y1 : src_height - 2;
    const __m256i x_low = _mm256_set1_epi32(row->x0 - 1), x_high = _mm256_set1_epi32(row->x1);
    const __m256i y_low = _mm256_set1_epi32(row->y0 - 1), y_high = _mm256_set1_epi32(last_y);
    const __m256i stride_v = _mm256_set1_epi32((int)stride);
    int column = 0;
    for (; column + 8 <= width; column += 8) {
        int64_t fx_end = fx + 7 * row->step_x, fy_end = fy + 7 * row->step_y;
        /* Every sample of the group inside the white margin's edges: the first and the last
         * decide, the coordinates being linear in the column. */
        if (fx < row->left || fx > row->right || fy < row->top || fy > row->bottom || fx_end < row->left ||
            fx_end > row->right || fy_end < row->top || fy_end > row->bottom) {
            sample_span(src, stride, row, &fx, &fy, line + column, 8);
            continue;
        }
        __m256i xs0 = _mm256_setr_epi64x(fx, fx + row->step_x, fx + 2 * row->step_x, fx + 3 * row->step_x);
        __m256i ys0 = _mm256_setr_epi64x(fy, fy + row->step_y, fy + 2 * row->step_y, fy + 3 * row->step_y);
        __m256i xs1 = _mm256_add_epi64(xs0, step_x4), ys1 = _mm256_add_epi64(ys0, step_y4);
        /* (f + 32768) >> 16, positive, in 32 bits: eight lanes. */
        __m256i px = _mm256_permute2x128_si256(
            _mm256_permutevar8x32_epi32(_mm256_srli_epi64(_mm256_add_epi64(xs0, half), 16), low_words),
            _mm256_permutevar8x32_epi32(_mm256_srli_epi64(_mm256_add_epi64(xs1, half), 16), low_words), 0x20);
        __m256i py = _mm256_permute2x128_si256(
            _mm256_permutevar8x32_epi32(_mm256_srli_epi64(_mm256_add_epi64(ys0, half), 16), low_words),
            _mm256_permutevar8x32_epi32(_mm256_srli_epi64(_mm256_add_epi64(ys1, half), 16), low_words), 0x20);
        __m256i ix = _mm256_sub_epi32(_mm256_srli_epi32(px, 6), offset), iy = _mm256_sub_epi32(_mm256_srli_epi32(py, 6), offset);
        __m256i inside = _mm256_and_si256(_mm256_and_si256(_mm256_cmpgt_epi32(ix, x_low), _mm256_cmpgt_epi32(x_high, ix)),
                                          _mm256_and_si256(_mm256_cmpgt_epi32(iy, y_low), _mm256_cmpgt_epi32(y_high, iy)));
        if (_mm256_movemask_epi8(inside) != -1) {
            sample_span(src, stride, row, &fx, &fy, line + column, 8);
            continue;
        }
        __m256i at = _mm256_add_epi32(_mm256_mullo_epi32(iy, stride_v), ix);
        __m256i upper_pair = _mm256_i32gather_epi32((const int *)src, at, 1);
        __m256i lower_pair = _mm256_i32gather_epi32((const int *)(src + stride), at, 1);
        __m256i ax = _mm256_and_si256(px, mask), ay = _mm256_and_si256(py, mask);
        __m256i bx = _mm256_sub_epi32(fractions, ax), by = _mm256_sub_epi32(fractions, ay);
        __m256i upper = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_and_si256(upper_pair, bytes), bx),
                                         _mm256_mullo_epi32(_mm256_and_si256(_mm256_srli_epi32(upper_pair, 8), bytes), ax));
        __m256i lower = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_and_si256(lower_pair, bytes), bx),
                                         _mm256_mullo_epi32(_mm256_and_si256(_mm256_srli_epi32(lower_pair, 8), bytes), ax));
        __m256i sum = _mm256_add_epi32(_mm256_mullo_epi32(upper, by), _mm256_mullo_epi32(lower, ay));
        __m256i value = _mm256_srli_epi32(_mm256_add_epi32(sum, rounding), 12);
        /* Eight values of 0…255 to eight bytes. */
        __m128i words = _mm_packus_epi32(_mm256_castsi256_si128(value), _mm256_extracti128_si256(value, 1));
        _mm_storel_epi64((__m128i *)(line + column), _mm_packus_epi16(words, words));
        fx += 8 * row->step_x;
        fy += 8 * row->step_y;
    }
    sample_span(src, stride, row, &fx, &fy, line + column, width - column);
}
#endif

typedef void (*sample_row_fn)(const uint8_t *src, size_t stride, int src_height, const SampleRow *row, uint8_t *line,
                              int width);

static sample_row_fn choose_sampler(int portable) {
#if defined(__x86_64__)
    if (!portable && ingest_cpu_has_avx2())
        return sample_row_avx2;
#endif
    (void)portable;
    return sample_row_portable;
}

static int sample_region(const uint8_t *src, int src_width, int src_height, int box_x, int box_y, int box_width,
                         int box_height, double angle, double scale, int smooth_rows, uint8_t *out, int width, int height,
                         int portable) {
    if (!src || !out || box_width <= 0 || box_height <= 0 || box_x < 0 || box_y < 0 ||
        box_x > src_width - box_width || box_y > src_height - box_height || width <= 0 || height <= 0 ||
        !(scale > 0) || (size_t)width * (size_t)height > ((size_t)1 << 28))
        return -1;
    if (angle == 0 && scale == 1 && width == box_width && height == box_height) {
        /* Neither turned nor scaled, every sample falls on a pixel with all its weight: the box's
         * rows as they are (zxing-cpp's first look at a read's surroundings). */
        for (int row = 0; row < height; row++)
            memcpy(out + (size_t)row * width, src + (size_t)(box_y + row) * src_width + box_x, (size_t)width);
        return smooth_rows <= 1 ? 0 : ingest_smooth_rows(out, width, height, smooth_rows);
    }
    sample_row_fn sample_row = choose_sampler(portable);
    double radians = angle * M_PI / 180.0;
    double c = cos(radians) / scale, s = sin(radians) / scale;
    double centre_x = box_x + box_width / 2.0, centre_y = box_y + box_height / 2.0;
    SampleRow shape = {.x0 = box_x, .y0 = box_y, .x1 = box_x + box_width - 1, .y1 = box_y + box_height - 1};
    shape.step_x = llround(c * FRACTIONS * 65536.0);
    shape.step_y = llround(-s * FRACTIONS * 65536.0);
    shape.left = (int64_t)((shape.x0 - 0.5 + kOffset) * FRACTIONS * 65536.0);
    shape.right = (int64_t)((shape.x1 + 0.5 + kOffset) * FRACTIONS * 65536.0);
    shape.top = (int64_t)((shape.y0 - 0.5 + kOffset) * FRACTIONS * 65536.0);
    shape.bottom = (int64_t)((shape.y1 + 0.5 + kOffset) * FRACTIONS * 65536.0);

    for (int row = 0; row < height; row++) {
        /* The inverse turn: the source point (pixel-index coordinates) of each output pixel, stepped
         * along the row in fixed point. */
        double dx = 0.5 - width / 2.0, dy = row + 0.5 - height / 2.0;
        double start_x = centre_x + c * dx + s * dy - 0.5, start_y = centre_y - s * dx + c * dy - 0.5;
        SampleRow at = shape;
        at.fx = llround((start_x + kOffset) * FRACTIONS * 65536.0);
        at.fy = llround((start_y + kOffset) * FRACTIONS * 65536.0);
        sample_row(src, (size_t)src_width, src_height, &at, out + (size_t)row * width, width);
    }
    return smooth_rows <= 1 ? 0 : ingest_smooth_rows(out, width, height, smooth_rows);
}

int ingest_sample_region(const uint8_t *src, int src_width, int src_height, int box_x, int box_y, int box_width,
                         int box_height, double angle, double scale, int smooth_rows, uint8_t *out, int width, int height) {
    return sample_region(src, src_width, src_height, box_x, box_y, box_width, box_height, angle, scale, smooth_rows, out,
                         width, height, 0);
}

int ingest_sample_region_portable(const uint8_t *src, int src_width, int src_height, int box_x, int box_y, int box_width,
                                  int box_height, double angle, double scale, int smooth_rows, uint8_t *out, int width,
                                  int height) {
    return sample_region(src, src_width, src_height, box_x, box_y, box_width, box_height, angle, scale, smooth_rows, out,
                         width, height, 1);
}

int ingest_smooth_rows(uint8_t *pixels, int width, int height, int smooth_rows) {
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
    memcpy(sampled, pixels, (size_t)width * height);
    int before = smooth_rows / 2, after = smooth_rows - 1 - before;
    for (int k = -before; k <= after; k++) {
        const uint8_t *source = sampled + (size_t)clamp_int(k, 0, height - 1) * width;
        for (int column = 0; column < width; column++)
            sums[column] += source[column];
    }
    /* Dividing by smooth_rows as a multiply by ⌈2³²/smooth_rows⌉ and a shift, several times faster
     * than a division: exact for every sum under 2³²/smooth_rows, which a sum of 8-bit values is
     * for up to 4095 rows. */
    const unsigned divisor = (unsigned)smooth_rows;
    const uint64_t reciprocal = ((1ull << 32) + divisor - 1) / divisor;
    const int exact = divisor < 4096;
    for (int row = 0; row < height; row++) {
        uint8_t *line = pixels + (size_t)row * width;
        for (int column = 0; column < width; column++) {
            unsigned sum = sums[column] + divisor / 2;
            line[column] = (uint8_t)(exact ? (unsigned)(((uint64_t)sum * reciprocal) >> 32) : sum / divisor);
        }
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
