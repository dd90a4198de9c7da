/* formats.h -- one cow_parser per supported format (see parser.h). */
#ifndef COW_INGEST_FORMATS_H
#define COW_INGEST_FORMATS_H

#include "parser.h"

extern const cow_parser cow_parser_latency_csv;  /* latcsv.c */
extern const cow_parser cow_parser_latency_json; /* latjson.c */

#endif
