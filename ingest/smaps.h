/* smaps.h -- the smaps / smaps_rollup / status line handlers that the
 * kernel-file engine (kfile.c) calls, and the "smaps" parser object
 * (declared in formats.h). */
#ifndef COW_INGEST_SMAPS_H
#define COW_INGEST_SMAPS_H

#include <stdbool.h>
#include <stddef.h>

#include "kfile.h"

/* One line of a KF_SMAPS_ROLLUP, KF_SMAPS or KF_STATUS section. Returns 0
 * (records or a reject emitted) or an error that refuses the file. */
int smaps_line(kfile *f, const cow_line *ln);
/* End of a snapshot: emits the KF_SMAPS sums and resets them (no-op for
 * other kinds or when nothing was summed). */
int smaps_flush(kfile *f);

#endif
