#ifndef INGEST_CPU_FEATURES_H
#define INGEST_CPU_FEATURES_H

/* What the loops of CImageOps that have an AVX2 version ask of this CPU; 0 off x86-64. */

static inline int ingest_cpu_has_avx2(void) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

/* AVX2 and fused multiply-add (the thumbnail's float loops). */
static inline int ingest_cpu_has_avx2_fma(void) {
#if defined(__x86_64__)
    return ingest_cpu_has_avx2() && __builtin_cpu_supports("fma");
#else
    return 0;
#endif
}

#endif
