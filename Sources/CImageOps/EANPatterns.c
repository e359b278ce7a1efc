#include "EANPatterns.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

/* Each pattern's cost from its sums: the lanes' last step, the same in both versions. */
static inline void lower_cost(float vy, float vv, float yy, float *best) {
    float cost = 1;
    if (vv > 1e-9f && vy > 0) cost = 1 - vy * vy / (vv * yy);
    if (cost < *best) *best = cost;
}

#define LANES 4
typedef float lanes __attribute__((vector_size(LANES * sizeof(float))));

/* Four patterns at a time, one per lane: each lane's sums are made in the same order as one
 * pattern's alone would be, so the costs are those of a pattern-by-pattern loop, bit for bit,
 * but the four chains of additions overlap instead of waiting on each other. */
void ingest_ean_pattern_costs_portable(const float (*rise)[10], const float (*fall)[10], const float *y, int n,
                                       float yy, const Template *templates, int patterns, float *best) {
    for (int p0 = 0; p0 < patterns; p0 += LANES) {
        const Template *t[LANES];
        for (int k = 0; k < LANES; k++) t[k] = &templates[p0 + k < patterns ? p0 + k : patterns - 1];
        lanes v[MAX_DIGIT_PIXELS], vm = {0};
        for (int i = 0; i < n; i++) {
            lanes value = {0};
            for (int r = 0; r < RUNS; r++) {
                lanes run;
                for (int k = 0; k < LANES; k++) run[k] = rise[i][t[k]->start[r]] - fall[i][t[k]->end[r]];
                value += run;
            }
            v[i] = value;
            vm += value;
        }
        vm /= (float)n;
        lanes vy = {0}, vv = {0};
        for (int i = 0; i < n; i++) {
            lanes d = v[i] - vm;
            vy += d * y[i];
            vv += d * d;
        }
        for (int k = 0; k < LANES && p0 + k < patterns; k++) lower_cost(vy[k], vv[k], yy, &best[p0 + k]);
    }
}

#if defined(__x86_64__)
/* Picks table[index] in every lane from a row of 10 floats: two permutes (elements 0–7 and 2–9)
 * and a blend, instead of eight scalar loads. */
__attribute__((target("avx2"))) static inline __m256 pick(const float *table, __m256i low, __m256i high, __m256 beyond) {
    __m256 first = _mm256_permutevar8x32_ps(_mm256_loadu_ps(table), low);
    __m256 last = _mm256_permutevar8x32_ps(_mm256_loadu_ps(table + 2), high);
    return _mm256_blendv_ps(first, last, beyond);
}

/* Eight patterns at a time, as the portable version's four: the same operations in each lane.
 * Only "avx2" is enabled, not "fma", so no multiply and add are fused. */
__attribute__((target("avx2"))) void ingest_ean_pattern_costs_avx2(const float (*rise)[10], const float (*fall)[10],
                                                                    const float *y, int n, float yy,
                                                                    const Template *templates, int patterns, float *best) {
    for (int p0 = 0; p0 < patterns; p0 += 8) {
        int starts[RUNS][8], ends[RUNS][8];
        for (int k = 0; k < 8; k++) {
            const Template *t = &templates[p0 + k < patterns ? p0 + k : patterns - 1];
            for (int r = 0; r < RUNS; r++) {
                starts[r][k] = t->start[r];
                ends[r][k] = t->end[r];
            }
        }
        __m256i start_low[RUNS], start_high[RUNS], end_low[RUNS], end_high[RUNS];
        __m256 start_beyond[RUNS], end_beyond[RUNS];
        const __m256i two = _mm256_set1_epi32(2), seven = _mm256_set1_epi32(7);
        for (int r = 0; r < RUNS; r++) {
            start_low[r] = _mm256_loadu_si256((const __m256i *)starts[r]);
            end_low[r] = _mm256_loadu_si256((const __m256i *)ends[r]);
            start_high[r] = _mm256_sub_epi32(start_low[r], two);
            end_high[r] = _mm256_sub_epi32(end_low[r], two);
            start_beyond[r] = _mm256_castsi256_ps(_mm256_cmpgt_epi32(start_low[r], seven));
            end_beyond[r] = _mm256_castsi256_ps(_mm256_cmpgt_epi32(end_low[r], seven));
        }
        __m256 v[MAX_DIGIT_PIXELS], vm = _mm256_setzero_ps();
        for (int i = 0; i < n; i++) {
            __m256 value = _mm256_setzero_ps();
            for (int r = 0; r < RUNS; r++) {
                __m256 run = _mm256_sub_ps(pick(rise[i], start_low[r], start_high[r], start_beyond[r]),
                                           pick(fall[i], end_low[r], end_high[r], end_beyond[r]));
                value = _mm256_add_ps(value, run);
            }
            v[i] = value;
            vm = _mm256_add_ps(vm, value);
        }
        vm = _mm256_div_ps(vm, _mm256_set1_ps((float)n));
        __m256 vy = _mm256_setzero_ps(), vv = _mm256_setzero_ps();
        for (int i = 0; i < n; i++) {
            __m256 d = _mm256_sub_ps(v[i], vm);
            vy = _mm256_add_ps(vy, _mm256_mul_ps(d, _mm256_set1_ps(y[i])));
            vv = _mm256_add_ps(vv, _mm256_mul_ps(d, d));
        }
        float sums_y[8], sums_v[8];
        _mm256_storeu_ps(sums_y, vy);
        _mm256_storeu_ps(sums_v, vv);
        for (int k = 0; k < 8 && p0 + k < patterns; k++) lower_cost(sums_y[k], sums_v[k], yy, &best[p0 + k]);
    }
}
#endif
