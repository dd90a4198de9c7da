/* fuzz_meta.h -- the non-capture fuzz targets (see fuzz_meta.c). */
#ifndef COW_TESTS_FUZZ_META_H
#define COW_TESTS_FUZZ_META_H

#include <stddef.h>
#include <stdint.h>

/* "run-json", "thresholds", "tree-walk", NULL. */
const char *const *fz_meta_names(void);
/* Run the target called name on the input (all of them when name is
 * NULL); returns 0 when name is not one of them. */
int fz_meta_run(const char *name, const uint8_t *data, size_t size);

#endif
