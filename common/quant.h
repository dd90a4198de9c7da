/* quant.h -- one quantile as every output shows it: its estimate, its 95%
 * interval or the one bound the samples allow, and how many samples (and
 * effective samples) stand behind it.
 *
 *     cow_quant q = quant_make(0.999, est_us, lo_us, hi_us, n, n_eff);
 *     char buf[COW_QUANT_FMT_MAX];
 *     quant_format(&q, 0, buf, sizeof(buf));      "12.300 (>= 1.563)"
 *     quant_format(&q, COW_QF_INTERVAL, ...)      "12.300 [10.100, 14.200]"
 *
 * One function formats a quantile for the terminal, Markdown and xlsx
 * text alike, so a reader sees the same thing everywhere: the estimate
 * always, and beside it the bound when only one side is known (a bound
 * alone next to a delta of estimates reads as a contradiction: a window
 * ">=1.563" below a baseline ">=2.850" next to a lift of +9.710). JSON
 * keeps the fields apart. Values are microseconds in, milliseconds out
 * (3 decimals). Pure: no allocation, no I/O. */
#ifndef COW_COMMON_QUANT_H
#define COW_COMMON_QUANT_H

#include <stddef.h>
#include <stdint.h>

typedef struct cow_quant {
    double q;         /* level (0.999); NaN for a difference of two */
    double est_us;    /* point estimate; NaN when there are no samples */
    double lo_us;     /* lower 95% bound; NaN when it cannot be finite */
    double hi_us;     /* upper 95% bound; NaN when it cannot be finite */
    int64_t n;        /* samples behind it (-1: not known) */
    double n_eff;     /* effective samples (serial dependence); NaN: n */
    char why[640];    /* a difference that cannot tell: the reason when one
                         is known ("stalls every 0.500 s, locked to the
                         probe"), "" otherwise (quant_make) */
} cow_quant;

/* Flags of quant_format. */
enum {
    COW_QF_INTERVAL = 1, /* show a two-sided interval too ("[lo, hi]");
                            without it a quantile with both bounds shows
                            its estimate alone (the table's footnote says
                            so), one with one bound still shows it */
    COW_QF_SIGNED = 2,   /* a difference: "+9.710 (>= +1.477)", and
                            "cannot tell" where no bound is known */
};

/* Longest text quant_format writes (two 3-decimal numbers of any double,
 * with the words): buffers of this size never truncate. */
#define COW_QUANT_FMT_MAX 1024

/* The struct from its parts; NaN or infinite bounds become NaN; no why. */
cow_quant quant_make(double q, double est_us, double lo_us, double hi_us, int64_t n,
                     double n_eff);

/* 1 when the quantile has both bounds (a two-sided 95% interval). */
int quant_two_sided(const cow_quant *q);

/* Format q into buf (size n, COW_QUANT_FMT_MAX never truncates):
 *   no samples               "-"
 *   both bounds              "12.300"            (COW_QF_INTERVAL: "12.300 [10.100, 14.200]")
 *   only the lower bound     "12.300 (>= 1.563)"
 *   only the upper bound     "0.020 (<= 0.031)"
 *   neither                  "12.300 (not bounded)" (COW_QF_SIGNED: "+2.396 (cannot tell)",
 *                            with a why: "+2.396 (cannot tell: stalls every 0.500 s,
 *                            locked to the probe)")
 * Returns buf. */
const char *quant_format(const cow_quant *q, int flags, char *buf, size_t n);

/* Drop a lower bound that tells nothing: one below floor_us (the run's own
 * median) on a quantile with no upper bound, so it is shown "not bounded"
 * instead of "x (>= b)" with b under the median. Two-sided intervals and
 * NaN floors are left as they are. */
void quant_floor(cow_quant *q, double floor_us);
/* The sentences that explain quant_format's forms, for a footnote, in
 * plain text (no Markdown). */
const char *quant_format_legend(void);

#endif
