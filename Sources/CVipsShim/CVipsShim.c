#include "CVipsShim.h"

static void ingest_ignore_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
}

int ingest_vips_start(int concurrency) {
    if (VIPS_INIT("ingest"))
        return -1;
    /* Decode problems reach the caller as errors with the file's path; libvips' own warnings
     * about the same problem would only clutter standard error. */
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, ingest_ignore_log, NULL);
    vips_block_untrusted_set(TRUE);
    vips_cache_set_max(0);
    if (concurrency > 0)
        vips_concurrency_set(concurrency);
    return 0;
}

const char *ingest_loader_for(const void *data, size_t length) {
    const char *name = vips_foreign_find_load_buffer(data, length);
    if (!name)
        vips_error_clear();
    return name;
}

int ingest_load(const void *data, size_t length, int is_jpeg, int shrink, VipsImage **out) {
    if (is_jpeg)
        return vips_jpegload_buffer((void *)data, length, out,
                                    "shrink", shrink > 0 ? shrink : 1,
                                    "fail_on", VIPS_FAIL_ON_ERROR, NULL);
    *out = vips_image_new_from_buffer(data, length, "", "fail_on", VIPS_FAIL_ON_ERROR, NULL);
    return *out ? 0 : -1;
}

int ingest_grey(VipsImage *in, VipsImage **out) {
    VipsImage *rgb = NULL, *band = NULL, *cast = NULL;
    if (vips_image_guess_interpretation(in) == VIPS_INTERPRETATION_CMYK) {
        if (vips_colourspace(in, &rgb, VIPS_INTERPRETATION_sRGB, NULL))
            return -1;
        in = rgb;
    }
    int result = vips_extract_band(in, &band, vips_image_get_bands(in) >= 3 ? 1 : 0, NULL);
    if (rgb)
        g_object_unref(rgb);
    if (result)
        return -1;
    if (vips_image_get_format(band) == VIPS_FORMAT_UCHAR) {
        *out = band;
        return 0;
    }
    result = vips_cast(band, &cast, VIPS_FORMAT_UCHAR, "shift", TRUE, NULL);
    g_object_unref(band);
    if (result)
        return -1;
    *out = cast;
    return 0;
}

int ingest_thumbnail(VipsImage *in, int width, VipsImage **out) {
    return vips_thumbnail_image(in, out, width, "height", VIPS_MAX_COORD, NULL);
}

int ingest_resize(VipsImage *in, double scale, VipsImage **out) {
    return vips_resize(in, out, scale, NULL);
}

int ingest_jpeg_save(VipsImage *in, int quality, void **data, size_t *length) {
    return vips_jpegsave_buffer(in, data, length, "Q", quality, "strip", TRUE, NULL);
}

int ingest_region(VipsImage *in, int left, int top, int width, int height,
                  double angle, double scale, int smooth, VipsImage **out) {
    VipsImage *area = NULL, *turned = NULL;
    if (vips_extract_area(in, &area, left, top, width, height, NULL))
        return -1;
    if (angle == 0.0 && scale == 1.0 && smooth <= 1) {
        *out = area;
        return 0;
    }
    VipsInterpolate *bicubic = vips_interpolate_new("bicubic");
    VipsArrayDouble *white = vips_array_double_newv(1, 255.0);
    int result = vips_similarity(area, &turned, "angle", angle, "scale", scale,
                                 "interpolate", bicubic, "background", white, NULL);
    vips_area_unref(VIPS_AREA(white));
    g_object_unref(bicubic);
    g_object_unref(area);
    if (result)
        return -1;
    if (smooth <= 1) {
        *out = turned;
        return 0;
    }
    /* A vertical box filter: averages along upright bars, which keeps their edges and
     * removes the noise and JPEG blocking between scan lines. */
    double ones[64];
    int taps = smooth > 64 ? 64 : smooth;
    for (int i = 0; i < taps; i++)
        ones[i] = 1.0;
    VipsImage *mask = vips_image_new_matrix_from_array(1, taps, ones, taps);
    if (!mask) {
        g_object_unref(turned);
        return -1;
    }
    vips_image_set_double(mask, "scale", taps);
    result = vips_conv(turned, out, mask, "precision", VIPS_PRECISION_INTEGER, NULL);
    g_object_unref(mask);
    g_object_unref(turned);
    return result;
}

int ingest_thumbnail_buffer(const void *data, size_t length, int width, VipsImage **out) {
    return vips_thumbnail_buffer((void *)data, length, out, width, "height", VIPS_MAX_COORD,
                                 "fail_on", VIPS_FAIL_ON_ERROR, NULL);
}
