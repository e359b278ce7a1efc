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
                                    "access", VIPS_ACCESS_SEQUENTIAL,
                                    "fail_on", VIPS_FAIL_ON_ERROR, NULL);
    *out = vips_image_new_from_buffer(data, length, "", "access", VIPS_ACCESS_SEQUENTIAL,
                                      "fail_on", VIPS_FAIL_ON_ERROR, NULL);
    return *out ? 0 : -1;
}

/* Releases *image and puts next in its place. */
static void ingest_replace(VipsImage **image, VipsImage *next) {
    g_object_unref(*image);
    *image = next;
}

int ingest_eight_bit(VipsImage *in, VipsImage **out) {
    VipsImage *image = in, *next = NULL;
    g_object_ref(image);
    if (vips_image_guess_interpretation(image) == VIPS_INTERPRETATION_CMYK) {
        if (vips_colourspace(image, &next, VIPS_INTERPRETATION_sRGB, NULL))
            goto failed;
        ingest_replace(&image, next);
    }
    int colour = vips_image_get_bands(image) - (vips_image_hasalpha(image) ? 1 : 0) >= 3;
    if (vips_colourspace(image, &next, colour ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W, NULL))
        goto failed;
    ingest_replace(&image, next);
    if (vips_image_get_format(image) != VIPS_FORMAT_UCHAR) {
        if (vips_cast(image, &next, VIPS_FORMAT_UCHAR, "shift", TRUE, NULL))
            goto failed;
        ingest_replace(&image, next);
    }
    if (vips_image_hasalpha(image)) {
        VipsArrayDouble *white = vips_array_double_newv(1, 255.0);
        int result = vips_flatten(image, &next, "background", white, "max_alpha", 255.0, NULL);
        vips_area_unref(VIPS_AREA(white));
        if (result)
            goto failed;
        ingest_replace(&image, next);
    }
    if (vips_image_get_bands(image) != 1 && vips_image_get_bands(image) != 3) {
        /* Extra bands that are not alpha: keep the first three, or the first one. */
        if (vips_extract_band(image, &next, 0, "n", vips_image_get_bands(image) >= 3 ? 3 : 1, NULL))
            goto failed;
        ingest_replace(&image, next);
    }
    *out = image;
    return 0;
failed:
    g_object_unref(image);
    return -1;
}

int ingest_image_from_pixels(const void *data, int width, int height, int bands, int orientation,
                             VipsImage **out) {
    VipsImage *image = vips_image_new_from_memory_copy(data, (size_t)width * height * bands, width, height,
                                                       bands, VIPS_FORMAT_UCHAR);
    if (!image)
        return -1;
    image->Type = bands >= 3 ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W;
    vips_image_set_int(image, VIPS_META_ORIENTATION, orientation);
    int result = vips_autorot(image, out, NULL);
    g_object_unref(image);
    return result;
}

int ingest_thumbnail(VipsImage *in, int width, VipsImage **out) {
    return vips_thumbnail_image(in, out, width, "height", VIPS_MAX_COORD, NULL);
}

int ingest_jpeg_save(VipsImage *in, int quality, void **data, size_t *length) {
    return vips_jpegsave_buffer(in, data, length, "Q", quality, "strip", TRUE, NULL);
}

int ingest_thumbnail_buffer(const void *data, size_t length, int width, VipsImage **out) {
    return vips_thumbnail_buffer((void *)data, length, out, width, "height", VIPS_MAX_COORD,
                                 "fail_on", VIPS_FAIL_ON_ERROR, NULL);
}
