/* formats.h -- one cow_parser per supported format (see parser.h). */
#ifndef COW_INGEST_FORMATS_H
#define COW_INGEST_FORMATS_H

#include "parser.h"

extern const cow_parser cow_parser_latency_csv;  /* latcsv.c */
extern const cow_parser cow_parser_latency_json; /* latjson.c */
extern const cow_parser cow_parser_rbench_csv;   /* rbench.c */
extern const cow_parser cow_parser_rbench_text;  /* rbench.c */
extern const cow_parser cow_parser_memtier_json; /* memtier.c */
extern const cow_parser cow_parser_hgrm;         /* hgrm.c */

extern const cow_parser cow_parser_redis_log;    /* redislog.c */
extern const cow_parser cow_parser_smaps;       /* smaps.c */
extern const cow_parser cow_parser_procfs;      /* procfs.c */
extern const cow_parser cow_parser_mem_series;  /* memseries.c */
extern const cow_parser cow_parser_redis_info;     /* info.c */
/* The first INFO server_time_usec in the first 64 KiB of a regular file
 * (us, > 0), or 0 when it holds none (or cannot be read: the file's own
 * parse says why): a time the run lies near, for logs whose lines carry no
 * year. info.c. */
int64_t info_peek_server_time(const char *path);
extern const cow_parser cow_parser_redis_config;   /* config.c */
extern const cow_parser cow_parser_redis_conf;     /* redisconf.c */
extern const cow_parser cow_parser_latency_monitor; /* latmon.c */
extern const cow_parser cow_parser_cli_latency;    /* clilat.c */

extern const cow_parser cow_parser_throughput_csv; /* tput.c */
extern const cow_parser cow_parser_probe_quiet;    /* quiet.c */
extern const cow_parser cow_parser_kstat;          /* kstat.c */
extern const cow_parser cow_parser_memtier_text;   /* memtier_text.c */
extern const cow_parser cow_parser_transcript;     /* transcript.c */

#endif
