#include "CImageOps.h"
#include "CPUFeatures.h"
#include "EANPatterns.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

/* Module patterns of the EAN/UPC digits, bar = 1: set A (L, odd parity); set C is set A inverted,
 * set B (G, even parity) set C reversed. */
static const char *const kSetA[10] = {"0001101", "0011001", "0010011", "0111101", "0100011",
                                      "0110001", "0101111", "0111011", "0110111", "0001011"};

static Template make_template(const int modules[9]) {
    Template t = {0};
    for (int m = 0; m < 9; m++) {
        if (!modules[m]) continue;
        if (m > 0 && modules[m - 1]) {
            t.end[t.runs - 1] = m + 1;
        } else {
            t.start[t.runs] = m;
            t.end[t.runs] = m + 1;
            t.runs++;
        }
    }
    return t;
}

/* Per pixel i < n of a digit (at lo + i on the line), its blurred coverage beyond each of the 10
 * module boundaries: for a bar that starts there (rise) and one that ends there (fall), the ink
 * spread split between them; fall is rise where there is no spread. */
typedef void (*coverage_fn)(int lo, int n, const float boundary[10], float inverse, float half,
                            float (*rise)[10], float (*fall)[10]);

/* The templates of every digit, and the loops that cover and score them on this CPU. */
typedef struct {
    Template left[20], right[10];
    coverage_fn cover;
    ingest_ean_pattern_costs_fn score;
} Templates;

static void make_templates(Template *left /* 20 */, Template *right /* 10 */) {
    for (int d = 0; d < 10; d++) {
        int a[9], b[9], c[9];
        for (int k = 0; k < 7; k++) {
            a[k + 1] = kSetA[d][k] == '1';
            c[k + 1] = !a[k + 1];
            b[k + 1] = kSetA[d][6 - k] == '0';
        }
        a[0] = b[0] = 1;
        a[8] = b[8] = 0;
        c[0] = 0;
        c[8] = 1;
        left[d] = make_template(a);
        left[10 + d] = make_template(b);
        right[d] = make_template(c);
    }
}

/* The normal distribution's CDF from a table: the fit evaluates it millions of times per photo. */
#define PHI_STEPS 64
#define PHI_RANGE 5
static float phi_table[2 * PHI_RANGE * PHI_STEPS + 2];
static pthread_once_t phi_once = PTHREAD_ONCE_INIT;

static void fill_phi(void) {
    for (int i = 0; i <= 2 * PHI_RANGE * PHI_STEPS + 1; i++) {
        double t = (double)i / PHI_STEPS - PHI_RANGE;
        phi_table[i] = (float)(0.5 * erfc(-t / sqrt(2.0)));
    }
}

static inline float phi(float t) {
    if (t <= -PHI_RANGE) return 0;
    if (t >= PHI_RANGE) return 1;
    float u = (t + PHI_RANGE) * PHI_STEPS;
    int i = (int)u;
    float f = u - (float)i;
    return phi_table[i] + f * (phi_table[i + 1] - phi_table[i]);
}

/* Pixel x's coverage beyond one boundary: rise and fall of coverage_fn. */
static inline void cover_boundary(float x, float boundary, float inverse, float half, float *rise, float *fall) {
    *rise = phi((x - boundary + half) * inverse);
    /* Without spread the two are one value (adding or taking away +0 changes nothing). */
    *fall = half == 0 ? *rise : phi((x - boundary - half) * inverse);
}

static void coverage_portable(int lo, int n, const float boundary[10], float inverse, float half, float (*rise)[10],
                              float (*fall)[10]) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 10; j++)
            cover_boundary((float)(lo + i), boundary[j], inverse, half, &rise[i][j], &fall[i][j]);
}

#if defined(__x86_64__)
/* phi in eight lanes, with the same float operations in the same order as phi's (only "avx2" is
 * enabled, not "fma", so no multiply and add are fused): the same values, bit for bit. A lane
 * beyond the table's range reads its edge, and takes 0 or 1 instead. */
__attribute__((target("avx2"))) static inline __m256 phi8(__m256 t) {
    const __m256 below = _mm256_cmp_ps(t, _mm256_set1_ps(-PHI_RANGE), _CMP_LE_OQ);
    const __m256 above = _mm256_cmp_ps(t, _mm256_set1_ps(PHI_RANGE), _CMP_GE_OQ);
    __m256 u = _mm256_mul_ps(_mm256_add_ps(t, _mm256_set1_ps(PHI_RANGE)), _mm256_set1_ps(PHI_STEPS));
    __m256i i = _mm256_cvttps_epi32(u);
    i = _mm256_max_epi32(_mm256_min_epi32(i, _mm256_set1_epi32(2 * PHI_RANGE * PHI_STEPS)), _mm256_setzero_si256());
    __m256 f = _mm256_sub_ps(u, _mm256_cvtepi32_ps(i));
    __m256 a = _mm256_i32gather_ps(phi_table, i, 4), b = _mm256_i32gather_ps(phi_table + 1, i, 4);
    __m256 value = _mm256_add_ps(a, _mm256_mul_ps(f, _mm256_sub_ps(b, a)));
    value = _mm256_blendv_ps(value, _mm256_setzero_ps(), below);
    return _mm256_blendv_ps(value, _mm256_set1_ps(1), above);
}

/* coverage_portable with boundaries 0–7 in one vector, 8 and 9 as it does them. */
__attribute__((target("avx2"))) static void coverage_avx2(int lo, int n, const float boundary[10], float inverse, float half,
                                                           float (*rise)[10], float (*fall)[10]) {
    const __m256 bounds = _mm256_loadu_ps(boundary), spread = _mm256_set1_ps(half), scale = _mm256_set1_ps(inverse);
    for (int i = 0; i < n; i++) {
        float x = (float)(lo + i);
        __m256 from = _mm256_sub_ps(_mm256_set1_ps(x), bounds);
        __m256 risen = phi8(_mm256_mul_ps(_mm256_add_ps(from, spread), scale));
        _mm256_storeu_ps(rise[i], risen);
        _mm256_storeu_ps(fall[i], half == 0 ? risen : phi8(_mm256_mul_ps(_mm256_sub_ps(from, spread), scale)));
        for (int j = 8; j < 10; j++)
            cover_boundary(x, boundary[j], inverse, half, &rise[i][j], &fall[i][j]);
    }
}
#endif

/* How the code lies on the line: its first bar's edge x0, the module width w, the blur (σ of a
 * Gaussian) and the ink spread (how much wider every bar is printed or photographed than its
 * modules: positive for ink gain, negative where light blooms into the bars), all in pixels;
 * and, for a code seen at an angle (module widths growing across it), how many modules its
 * middle lies off where even widths put it (`drift`; `modules` from the first edge to the last).
 * The drift is fitted only to judge another decoder's read (`ingest_ean_fit_line`'s mode 3): to
 * read, it let wrong digits fit as well as right ones on the real photos, and read no more. */
typedef struct {
    double x0, w, sigma, spread, drift, modules;
} Placement;

/* Where module boundary u (0 = the first bar's edge, 95 = the last bar's; 51 in a UPC-E) lies on
 * the line: a parabola through both ends whose middle lies `drift` modules before even widths'. */
static inline double boundary_at(Placement at, double u) {
    return at.x0 + at.w * (u - at.drift * 4 * u * (at.modules - u) / (at.modules * at.modules));
}

/* For the digit place whose first module is `first_module`: every template's cost, the lowest over
 * a few sub-module shifts. The cost is 1 − r² of the profile against the template blurred (r < 0:
 * cost 1), so the local contrast and brightness do not matter. The shifts (none, or ±0.2 modules)
 * let each digit sit a little off the grid, as on a curved package. */
static void digit_costs(const float *profile, int count, Placement at, double first_module, int shifts,
                        const Template *templates, int patterns, coverage_fn cover, ingest_ean_pattern_costs_fn score,
                        float *best) {
    static const double kShifts[3] = {0, -0.2, 0.2};
    for (int p = 0; p < patterns; p++) best[p] = 9;
    double bounds[10];
    for (int j = 0; j < 10; j++) bounds[j] = boundary_at(at, first_module - 1 + j);
    double w = (bounds[9] - bounds[0]) / 9;
    for (int s = 0; s < shifts; s++) {
        double shift = kShifts[s] * w;
        int lo = (int)ceil(bounds[1] + shift), hi = (int)floor(bounds[8] + shift);
        if (lo < 0 || hi >= count || hi - lo < 3 || hi - lo + 1 > MAX_DIGIT_PIXELS) continue;
        int n = hi - lo + 1;
        float y[MAX_DIGIT_PIXELS];
        /* Per pixel, the blurred coverage beyond each of the 10 module boundaries, for a bar that
         * starts there (rising) and one that ends there (falling), the spread split between them. */
        float rise[MAX_DIGIT_PIXELS][10], fall[MAX_DIGIT_PIXELS][10];
        float mean = 0;
        for (int i = 0; i < n; i++) mean += profile[lo + i];
        mean /= (float)n;
        float yy = 0;
        for (int i = 0; i < n; i++) {
            y[i] = profile[lo + i] - mean;
            yy += y[i] * y[i];
        }
        if (yy < 1e-6f) continue;
        float inverse = (float)(1 / at.sigma), half = (float)(at.spread / 2), boundary[10];
        for (int j = 0; j < 10; j++) boundary[j] = (float)(bounds[j] + shift);
        cover(lo, n, boundary, inverse, half, rise, fall);
        score((const float (*)[10])rise, (const float (*)[10])fall, y, n, yy, templates, patterns, best);
    }
}

/* A place's lowest cost is never below −COST_SLACK: a cost is 1 − r², and r² exceeds 1 only by
 * the rounding of float sums over at most MAX_DIGIT_PIXELS pixels (under 1e-4). */
#define COST_SLACK 1e-3

/* Costs of every digit at the places of one half (0 left, 1 right) or both (2) for one placement;
 * returns the sum of each place's lowest. A placement that cannot end below `limit` (the best
 * so far, which it must beat) stops early, its costs incomplete: it returns a sum ≥ `limit`. */
static double placement_costs(const float *profile, int count, Placement at, int shifts, int half, double limit,
                              const Templates *templates, float *left_costs, float *right_costs) {
    double total = 0;
    int first = half == 1 ? 6 : 0, last = half == 0 ? 6 : 12;
    /* The left half's six places (sets A and B: 20 patterns) start at module 3, the right's
       (set C: 10) at module 50, after the centre guard. */
    for (int k = first; k < last; k++) {
        int is_left = k < 6, place = is_left ? k : k - 6, patterns = is_left ? 20 : 10;
        float *costs = is_left ? left_costs + 20 * place : right_costs + 10 * place;
        digit_costs(profile, count, at, (is_left ? 3 : 50) + 7 * place, shifts,
                    is_left ? templates->left : templates->right, patterns, templates->cover, templates->score, costs);
        float lowest = costs[0];
        for (int p = 1; p < patterns; p++) lowest = fminf(lowest, costs[p]);
        total += lowest;
        if (total - (last - 1 - k) * COST_SLACK >= limit) return total;
    }
    return total;
}

/* Copies one half's costs of a trial placement to the result. */
static void keep(int half, const float *trial_left, const float *trial_right, float *left_costs, float *right_costs) {
    if (half != 1) memcpy(left_costs, trial_left, 6 * 20 * sizeof *trial_left);
    if (half != 0) memcpy(right_costs, trial_right, 6 * 10 * sizeof *trial_right);
}

/* The best placement of the whole code (`half` 2), or of one half (0 left, 1 right) alone. A
 * curved package, or a fold, stretches one half against the other; each half placed alone keeps
 * its bars on its digits. `modules` from the first bar's edge to the last: 95, or a UPC-E's 51
 * (its six digits are laid out as an EAN-13's left half, between other guards: `half` 0).
 * Returns the places' lowest costs summed, their costs written to `left_costs` and
 * `right_costs`, or INFINITY. */
static double fit_places(const float *profile, int count, double first_edge, double last_edge, int half, int modules,
                         int perspective, const Templates *templates, float *left_costs, float *right_costs) {
    double w0 = (last_edge - first_edge) / modules;
    float trial_left[6 * 20], trial_right[6 * 10];
    /* The placement with `end` (0 the first edge, 1 the last) moved by `offset` modules. */
    #define AT(end, offset, w, sigma, drift) \
        ((end) ? (Placement){last_edge + (offset) * (w) - modules * (w), (w), (sigma), 0, (drift), modules} \
               : (Placement){first_edge + (offset) * (w), (w), (sigma), 0, (drift), modules})
    /* Coarse: a half anchored at either end (an end found a module off leaves it anchored at the
     * other), module width −4 … +4 %, the anchor −0.6 … +0.6 modules, blur 0.6 modules, no shifts;
     * with `perspective`, the middle's drift −3 … +3 modules (a code 95 modules long whose modules
     * grow by a quarter across it drifts 3). */
    double best = INFINITY, anchor = 0, width = w0, drift = 0;
    int end = half == 1, drifts = perspective ? 6 : 0;
    for (int d = -drifts; d <= drifts; d++) {
        for (int e = 0; e < (half == 2 ? 1 : 2); e++) {
            for (int i = -4; i <= 4; i++) {
                for (int j = -2; j <= 2; j++) {
                    double w = w0 * (1 + 0.01 * i);
                    double total = placement_costs(profile, count, AT(e, 0.3 * j, w, 0.6 * w, 0.5 * d), 1, half, best,
                                                   templates, trial_left, trial_right);
                    if (total < best) {
                        best = total;
                        end = e;
                        anchor = 0.3 * j;
                        width = w;
                        drift = 0.5 * d;
                    }
                }
            }
        }
    }
    if (!isfinite(best)) return INFINITY;
    /* Fine, with shifts: around the best of those, blur 0.4 … 1.2 modules; then the ink spread,
     * −0.75 … +0.45 modules. */
    best = INFINITY;
    Placement chosen = AT(end, anchor, width, 0.6 * width, drift);
    double x0 = chosen.x0, x_last = chosen.x0 + modules * width;
    static const double kBlur[5] = {0.4, 0.6, 0.8, 1.0, 1.2};
    for (int d = perspective ? -1 : 0; d <= (perspective ? 1 : 0); d++) {
        for (int b = 0; b < 5; b++) {
            for (int i = -1; i <= 1; i++) {
                for (int j = -1; j <= 1; j++) {
                    double w = width * (1 + 0.005 * i);
                    /* The anchored end stays where the coarse search put it. */
                    Placement at = {end ? x_last + 0.15 * j * w - modules * w : x0 + 0.15 * j * w, w, kBlur[b] * w, 0,
                                    drift + 0.25 * d, modules};
                    double total = placement_costs(profile, count, at, 3, half, best, templates, trial_left, trial_right);
                    if (total < best) {
                        best = total;
                        chosen = at;
                        keep(half, trial_left, trial_right, left_costs, right_costs);
                    }
                }
            }
        }
    }
    #undef AT
    static const double kSpread[8] = {-0.75, -0.6, -0.45, -0.3, -0.15, 0.15, 0.3, 0.45};
    for (int s = 0; s < 8; s++) {
        Placement at = chosen;
        at.spread = kSpread[s] * at.w;
        double total = placement_costs(profile, count, at, 3, half, best, templates, trial_left, trial_right);
        if (total < best) {
            best = total;
            keep(half, trial_left, trial_right, left_costs, right_costs);
        }
    }
    return best;
}

/* The coverage and pattern loops this CPU runs fastest, chosen once. */
static coverage_fn fastest_cover = coverage_portable;
static ingest_ean_pattern_costs_fn fastest = ingest_ean_pattern_costs_portable;
static pthread_once_t fastest_once = PTHREAD_ONCE_INIT;

static void choose_fastest(void) {
#if defined(__x86_64__)
    if (ingest_cpu_has_avx2()) {
        fastest_cover = coverage_avx2;
        fastest = ingest_ean_pattern_costs_avx2;
    }
#endif
}

double ingest_ean_fit_line(const float *profile, int count, double first_edge, double last_edge, int mode, int portable,
                           float *left_costs, float *right_costs) {
    pthread_once(&phi_once, fill_phi);
    pthread_once(&fastest_once, choose_fastest);
    Templates templates = {.cover = portable ? coverage_portable : fastest_cover,
                           .score = portable ? ingest_ean_pattern_costs_portable : fastest};
    make_templates(templates.left, templates.right);
    if (!((last_edge - first_edge) / 95 > 0)) return -1;
    double total = 0;
    if (mode == 2) {
        total = fit_places(profile, count, first_edge, last_edge, 0, 51, 0, &templates, left_costs, right_costs);
    } else if (mode == 1) {
        for (int half = 0; half < 2; half++) {
            total += fit_places(profile, count, first_edge, last_edge, half, 95, 0, &templates, left_costs, right_costs);
        }
    } else {
        total = fit_places(profile, count, first_edge, last_edge, 2, 95, mode == 3, &templates, left_costs, right_costs);
    }
    return isfinite(total) ? total : -1;
}
