/* memtier_int.h -- what memtier.c (the JSON file) and memtier_text.c (the
 * stdout report) share. Private to ingest/. */
#ifndef COW_INGEST_MEMTIER_INT_H
#define COW_INGEST_MEMTIER_INT_H

#include <stddef.h>

/* A stats block's title as the prefix of its ops: "ALL STATS" -> "",
 * "BEST RUN RESULTS" -> "best:", "WORST RUN RESULTS" -> "worst:",
 * "AGGREGATED AVERAGE RESULTS (N runs)" -> "avg:", "RUN #2 RESULTS" ->
 * "run2:" (in buf); NULL when name is none of them. */
const char *memtier_stats_prefix(const char *name, char *buf, size_t n);

#endif
