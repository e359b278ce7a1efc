#include "CVipsShim.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* libvips is opened with dlopen when a command first needs it, not linked: its hundred shared
 * libraries (glib, ImageMagick, poppler, …) cost ~25 ms of relocations at every process start,
 * more than a whole `ingest list` takes otherwise. Each function below is called through a
 * pointer of the function's own declared type (typeof), looked up once by ingest_vips_start. */
#define INGEST_VIPS_FUNCTIONS(X) \
    X(vips_version) X(vips_init) X(vips_error) X(vips_error_clear) X(vips_error_buffer_copy) \
    X(vips_block_untrusted_set) X(vips_cache_set_max) X(vips_concurrency_set) \
    X(vips_foreign_find_load_buffer) X(vips_jpegload_buffer) X(vips_image_new_from_buffer) \
    X(vips_image_new_from_memory_copy) X(vips_image_guess_interpretation) X(vips_image_get_bands) \
    X(vips_image_hasalpha) X(vips_image_get_format) X(vips_image_get_width) X(vips_image_get_height) \
    X(vips_image_get_typeof) X(vips_image_get_int) X(vips_image_set_int) X(vips_image_get_blob) \
    X(vips_colourspace) X(vips_cast) \
    X(vips_array_double_newv) X(vips_flatten) X(vips_area_unref) X(vips_extract_band) X(vips_autorot) \
    X(vips_region_new) X(vips_region_prepare) X(vips_thumbnail_buffer) X(vips_jpegsave_buffer) \
    X(g_log_set_handler) X(g_object_ref) X(g_object_unref) X(g_free)

#define INGEST_DECLARE(name) static __typeof__(name) *ingest_##name;
INGEST_VIPS_FUNCTIONS(INGEST_DECLARE)

/* From here on every call by these names goes through its pointer. */
#undef g_object_ref
#undef g_object_unref
#undef g_free
#define vips_version (*ingest_vips_version)
#define vips_init (*ingest_vips_init)
#define vips_error (*ingest_vips_error)
#define vips_error_clear (*ingest_vips_error_clear)
#define vips_error_buffer_copy (*ingest_vips_error_buffer_copy)
#define vips_block_untrusted_set (*ingest_vips_block_untrusted_set)
#define vips_cache_set_max (*ingest_vips_cache_set_max)
#define vips_concurrency_set (*ingest_vips_concurrency_set)
#define vips_foreign_find_load_buffer (*ingest_vips_foreign_find_load_buffer)
#define vips_jpegload_buffer (*ingest_vips_jpegload_buffer)
#define vips_image_new_from_buffer (*ingest_vips_image_new_from_buffer)
#define vips_image_new_from_memory_copy (*ingest_vips_image_new_from_memory_copy)
#define vips_image_guess_interpretation (*ingest_vips_image_guess_interpretation)
#define vips_image_get_bands (*ingest_vips_image_get_bands)
#define vips_image_hasalpha (*ingest_vips_image_hasalpha)
#define vips_image_get_format (*ingest_vips_image_get_format)
#define vips_image_get_width (*ingest_vips_image_get_width)
#define vips_image_get_height (*ingest_vips_image_get_height)
#define vips_image_get_typeof (*ingest_vips_image_get_typeof)
#define vips_image_get_int (*ingest_vips_image_get_int)
#define vips_image_set_int (*ingest_vips_image_set_int)
#define vips_image_get_blob (*ingest_vips_image_get_blob)
#define vips_colourspace (*ingest_vips_colourspace)
#define vips_cast (*ingest_vips_cast)
#define vips_array_double_newv (*ingest_vips_array_double_newv)
#define vips_flatten (*ingest_vips_flatten)
#define vips_area_unref (*ingest_vips_area_unref)
#define vips_extract_band (*ingest_vips_extract_band)
#define vips_autorot (*ingest_vips_autorot)
#define vips_region_new (*ingest_vips_region_new)
#define vips_region_prepare (*ingest_vips_region_prepare)
#define vips_thumbnail_buffer (*ingest_vips_thumbnail_buffer)
#define vips_jpegsave_buffer (*ingest_vips_jpegsave_buffer)
#define g_log_set_handler (*ingest_g_log_set_handler)
#define g_object_ref (*ingest_g_object_ref)
#define g_object_unref (*ingest_g_object_unref)
#define g_free (*ingest_g_free)

/* Why ingest_vips_start failed, when libvips' own error buffer cannot say it. */
static char ingest_start_error[512];

/* Opens libvips and looks up every function; 0 on success. */
static int ingest_vips_open(void) {
    void *library = dlopen(INGEST_VIPS_LIBRARY, RTLD_NOW | RTLD_GLOBAL);
    if (!library) {
        snprintf(ingest_start_error, sizeof ingest_start_error, "cannot load %s: %s", INGEST_VIPS_LIBRARY, dlerror());
        return -1;
    }
#define INGEST_LOOK_UP(name)                                                                          \
    if (!(ingest_##name = (__typeof__(ingest_##name))dlsym(library, #name))) {                      \
        snprintf(ingest_start_error, sizeof ingest_start_error, "%s has no %s", INGEST_VIPS_LIBRARY, #name); \
        return -1;                                                                                   \
    }
    INGEST_VIPS_FUNCTIONS(INGEST_LOOK_UP)
    return 0;
}

/* libvips passes some loaders' reasons on as warnings, not errors (libpng's "IHDR: CRC error"):
 * the last one on this thread is the reason when the error buffer is empty. */
static _Thread_local char ingest_last_warning[256];

static void ingest_keep_warning(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    snprintf(ingest_last_warning, sizeof ingest_last_warning, "%s", message ? message : "");
}

void ingest_vips_warning_clear(void) { ingest_last_warning[0] = 0; }

int ingest_vips_start(int concurrency) {
    if (ingest_vips_open())
        return -1;
    /* The check VIPS_INIT makes: the library's ABI is the one these headers describe. */
    if (vips_version(3) - vips_version(5) != VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE) {
        snprintf(ingest_start_error, sizeof ingest_start_error, "%s has ABI version %d, ingest was built for %d",
                 INGEST_VIPS_LIBRARY, vips_version(3) - vips_version(5), VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE);
        return -1;
    }
    if (vips_init("ingest"))
        return -1;
    /* Decode problems reach the caller as errors with the file's path; libvips' own warnings
     * about the same problem would only clutter standard error. The last is kept, for the reason. */
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, ingest_keep_warning, NULL);
    vips_block_untrusted_set(TRUE);
    vips_cache_set_max(0);
    if (concurrency > 0)
        vips_concurrency_set(concurrency);
    return 0;
}

char *ingest_vips_error_copy(void) {
    if (ingest_start_error[0])
        return strdup(ingest_start_error);
    char *copy = vips_error_buffer_copy();
    char *result = copy && copy[0] ? strdup(copy) : ingest_last_warning[0] ? strdup(ingest_last_warning) : NULL;
    g_free(copy);
    ingest_last_warning[0] = 0;
    return result;
}

void ingest_unref(void *object) { g_object_unref(object); }
void ingest_vips_free(void *data) { g_free(data); }
int ingest_image_width(const VipsImage *image) { return vips_image_get_width(image); }
int ingest_image_height(const VipsImage *image) { return vips_image_get_height(image); }
int ingest_image_bands(const VipsImage *image) { return vips_image_get_bands(image); }
int ingest_image_is_uchar(const VipsImage *image) { return vips_image_get_format(image) == VIPS_FORMAT_UCHAR; }
int ingest_image_is_cmyk(VipsImage *image) {
    return vips_image_guess_interpretation(image) == VIPS_INTERPRETATION_CMYK;
}
int ingest_image_int(VipsImage *image, const char *name, int *value) {
    if (!vips_image_get_typeof(image, name))
        return -1;
    return vips_image_get_int(image, name, value);
}
int ingest_image_blob(VipsImage *image, const char *name, const void **data, size_t *length) {
    if (!vips_image_get_typeof(image, name))
        return -1;
    return vips_image_get_blob(image, name, data, length);
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
    VipsInterpretation space = colour ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W;
    /* vips_colourspace's own test for nothing to convert (RGB counts as sRGB): it would add a stage
     * that copies every strip (an sRGB JPEG's, a grey PNG's) through a buffer of its own. */
    VipsInterpretation interpretation = vips_image_guess_interpretation(image);
    if (interpretation == VIPS_INTERPRETATION_RGB)
        interpretation = VIPS_INTERPRETATION_sRGB;
    if (image->Coding != VIPS_CODING_NONE || interpretation != space) {
        if (vips_colourspace(image, &next, space, NULL))
            goto failed;
        ingest_replace(&image, next);
    }
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

/* Rows asked of the pipeline at a time: a few of libjpeg's 8- or 16-line strips. */
#define INGEST_STRIP_ROWS 64

/* The image's pixels, computed on the calling thread strip by strip from the top, each strip
 * handed to `take`. Not vips_sink_disc: its worker and write-behind threads handed every strip of
 * every photo over with semaphores, ~670 futex calls a 12 MP photo, for no parallelism (the
 * pipeline runs one photo per worker, and libvips' concurrency is 1). */
int ingest_image_rows(VipsImage *image, IngestTakeRows take, void *context) {
    if (image->BandFmt != VIPS_FORMAT_UCHAR) {
        vips_error("ingest", "the rows are not 8-bit");
        return -1;
    }
    VipsRegion *region = vips_region_new(image);
    if (!region)
        return -1;
    int result = 0;
    for (int top = 0; top < image->Ysize && result == 0; top += INGEST_STRIP_ROWS) {
        VipsRect strip = {0, top, image->Xsize, VIPS_MIN(INGEST_STRIP_ROWS, image->Ysize - top)};
        if (vips_region_prepare(region, &strip)) {
            result = -1;
        } else if (region->valid.left != 0 || region->valid.top > top ||
                   take((const uint8_t *)region->data + (size_t)(top - region->valid.top) * VIPS_REGION_LSKIP(region),
                        VIPS_REGION_LSKIP(region), top, strip.height, context)) {
            vips_error("ingest", "rows %d to %d could not be taken", top, top + strip.height - 1);
            result = -1;
        }
    }
    g_object_unref(region);
    return result;
}

int ingest_jpeg_save(VipsImage *in, int quality, void **data, size_t *length) {
    return vips_jpegsave_buffer(in, data, length, "Q", quality, "strip", TRUE, NULL);
}

int ingest_thumbnail_buffer(const void *data, size_t length, int width, VipsImage **out) {
    return vips_thumbnail_buffer((void *)data, length, out, width, "height", VIPS_MAX_COORD, "size", VIPS_SIZE_DOWN,
                                 "fail_on", VIPS_FAIL_ON_ERROR, NULL);
}

int ingest_fitted_copy_buffer(const void *data, size_t length, int edge, VipsImage **out) {
    return vips_thumbnail_buffer((void *)data, length, out, edge, "height", edge, "size", VIPS_SIZE_BOTH,
                                 "fail_on", VIPS_FAIL_ON_ERROR, NULL);
}
