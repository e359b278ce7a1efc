#include "CJPEGShim.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
/* jpeglib.h needs FILE declared first. */
#include <jpeglib.h>

struct ingest_error_manager {
    struct jpeg_error_mgr base;
    jmp_buf escape;
    char message[JMSG_LENGTH_MAX];
};

static void ingest_error_exit(j_common_ptr info) {
    struct ingest_error_manager *manager = (struct ingest_error_manager *)info->err;
    (*info->err->format_message)(info, manager->message);
    longjmp(manager->escape, 1);
}

/* Corrupt-data warnings count as errors: a region of garbage must not be read as a barcode. */
static void ingest_emit_message(j_common_ptr info, int level) {
    if (level < 0)
        ingest_error_exit(info);
}

int ingest_jpeg_grey_region(const void *data, size_t length, int left, int top, int width, int height,
                            ingest_grey_region *out, char *error, size_t error_size) {
    struct jpeg_decompress_struct info;
    struct ingest_error_manager manager;
    unsigned char *volatile pixels = NULL;

    info.err = jpeg_std_error(&manager.base);
    manager.base.error_exit = ingest_error_exit;
    manager.base.emit_message = ingest_emit_message;
    manager.message[0] = 0;
    if (setjmp(manager.escape)) {
        snprintf(error, error_size, "%s", manager.message);
        jpeg_destroy_decompress(&info);
        free(pixels);
        return -1;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, (const unsigned char *)data, (unsigned long)length);
    jpeg_read_header(&info, TRUE);
    info.out_color_space = JCS_GRAYSCALE;
    jpeg_start_decompress(&info);

    if (left < 0) left = 0;
    if (top < 0) top = 0;
    if (left >= (int)info.output_width || top >= (int)info.output_height || width <= 0 || height <= 0) {
        snprintf(error, error_size, "region outside the image");
        jpeg_destroy_decompress(&info);
        return -1;
    }
    if (left + width > (int)info.output_width) width = (int)info.output_width - left;
    if (top + height > (int)info.output_height) height = (int)info.output_height - top;

    JDIMENSION x = (JDIMENSION)left, w = (JDIMENSION)width;
    jpeg_crop_scanline(&info, &x, &w);
    if (top > 0)
        jpeg_skip_scanlines(&info, (JDIMENSION)top);
    pixels = calloc((size_t)w, (size_t)height);
    if (!pixels) {
        snprintf(error, error_size, "out of memory");
        jpeg_destroy_decompress(&info);
        return -1;
    }
    for (int row = 0; row < height;) {
        JSAMPROW line = pixels + (size_t)row * w;
        JDIMENSION read = jpeg_read_scanlines(&info, &line, 1);
        if (read == 0)
            break;
        row += (int)read;
    }
    jpeg_abort_decompress(&info);
    jpeg_destroy_decompress(&info);
    out->pixels = pixels;
    out->left = (int)x;
    out->top = top;
    out->width = (int)w;
    out->height = height;
    return 0;
}
