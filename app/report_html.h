/* report_html.h -- index.html: the report as one page a person reads in a
 * browser. It opens with each run's answer, then one section per run (its
 * answer, its charts, its findings each linked to the chart that shows it
 * with the evidence as file:line, its phases, deltas and replica syncs),
 * then the fleet (check, triage, trade-off, the charts across runs) and
 * the inputs that were not used. The markup is report/html.h's. */
#ifndef COW_APP_REPORT_HTML_H
#define COW_APP_REPORT_HTML_H

#include <stdio.h>

#include "report_summary.h"
#include "store.h"

/* Write the page for in (the same inputs as summary.md) to fp; chart_w and
 * chart_h are the PNGs' size in pixels. COW_EIO on a write failure. */
int report_html_write(cow_store *st, const report_summary_in *in, int chart_w, int chart_h,
                      FILE *fp, cow_err *e);

/* The chart of run `run` (0: across runs) that shows a finding of rule
 * `rule`, among charts[0..n): the window-against-baseline chart for a
 * latency lift, the memory chart for copy-on-write, the replica sync chart
 * for a resync, the timeline otherwise when the rule is about time; NULL
 * when the rule is about configuration (no chart shows it) or the chart
 * was not drawn. */
const report_chart *report_html_chart_for(const char *rule, int64_t run,
                                          const report_chart *charts, size_t n);

#endif
