/* fuzz.h -- the one fuzz target shared by libFuzzer and the replay driver.
 *
 *     libFuzzer:  COW_FUZZ_PARSER=latency-csv ./fuzz_parser corpus/latency-csv
 *     replay:     ./fuzz_replay tests/fuzz/corpus      (every parser, every file)
 *
 * LLVMFuzzerTestOneInput runs parser_detect and every sniff function on
 * the input, then each selected parser (all of parser_list(), or the one
 * named by $COW_FUZZ_PARSER or -DCOW_FUZZ_PARSER=name) three times:
 * empty options, full options (units, t0, zone, year, a file name), and
 * with a sink that fails part way. A broken invariant prints what and
 * where on stderr and aborts, so libFuzzer and ctest both see a crash. */
#ifndef COW_TESTS_FUZZ_H
#define COW_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* The libFuzzer entry point; always returns 0. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Name of the input being replayed, shown when an invariant breaks
 * (set by fuzz_main.c; libFuzzer saves the input itself). */
extern const char *cow_fuzz_input_name;

#endif
