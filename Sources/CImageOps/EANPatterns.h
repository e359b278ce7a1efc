#ifndef INGEST_EAN_PATTERNS_H
#define INGEST_EAN_PATTERNS_H

/* Shared by EANFit.c and EANPatterns.c: a digit's templates and the loop that scores them. */

/* A template spans nine modules: the digit's seven and one of each neighbour, whose colour the
 * symbology fixes (a left-half digit follows a bar and precedes a space; a right-half one the
 * reverse), so the blur they spill into the digit is part of the model. It is kept as its bars:
 * runs of dark modules [start, end), 0 ≤ start < end ≤ 9. */
typedef struct {
    int runs;
    int start[5], end[5];
} Template;

/* Every template has three: the digit's two bars and the neighbour's (make_templates). */
#define RUNS 3
#define MAX_DIGIT_PIXELS 64

/* For one digit place and sub-module shift: each of `patterns` templates' cost against the
 * profile `y` (n pixels, its mean taken away; yy its sum of squares), lowered into best[p] where
 * lower. rise[i][j] and fall[i][j] are pixel i's blurred coverage beyond module boundary j for a
 * bar that starts and one that ends there. The cost is 1 − r² (r < 0: cost 1).
 *
 * Both versions give the same costs, bit for bit: each pattern's sums are made in the same order
 * with the same float operations, whether 4 patterns share a vector or 8 do, and neither may
 * fuse a multiply and an add. `ingest_ean_pattern_costs_avx2` only exists on x86-64. */
typedef void (*ingest_ean_pattern_costs_fn)(const float (*rise)[10], const float (*fall)[10], const float *y, int n,
                                            float yy, const Template *templates, int patterns, float *best);
void ingest_ean_pattern_costs_portable(const float (*rise)[10], const float (*fall)[10], const float *y, int n,
                                       float yy, const Template *templates, int patterns, float *best);
#if defined(__x86_64__)
void ingest_ean_pattern_costs_avx2(const float (*rise)[10], const float (*fall)[10], const float *y, int n,
                                   float yy, const Template *templates, int patterns, float *best);
#endif

#endif
