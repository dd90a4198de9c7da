/* infoval.h -- the numeric meaning of a value, shared by the INFO and
 * CONFIG GET parsers (info.c, config.c). */
#ifndef COW_INGEST_INFOVAL_H
#define COW_INGEST_INFOVAL_H

#include <stddef.h>

/* The numeric meaning of an INFO or CONFIG value v[0..n): a plain number,
 * a number with a trailing '%' ("12.5%"), a human size in bytes, powers
 * of 1024 as INFO's bytesToHuman prints them ("361.01M", "0B"); NAN when
 * it has none. */
double info_value_num(const char *v, size_t n);

#endif
