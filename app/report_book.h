/* report_book.h -- the report's workbook: store results -> table model
 * (report/table.h) -> xlsx (report/xlsx.h). */
#ifndef COW_APP_REPORT_BOOK_H
#define COW_APP_REPORT_BOOK_H

#include <stdint.h>

#include "answer.h"
#include "report_summary.h"
#include "store.h"
#include "table.h"
#include "tradeoff.h"

/* Build the workbook of every run in rows[0..n): summary, runs, phases,
 * percentiles, deltas, trade-off (when t is not NULL), findings, events,
 * and a Charts sheet with the PNGs written in dir (charts[0..ncharts)):
 * the charts across runs and the timelines of the runs the answer lists
 * (answers, may be NULL: every run's), one across so they print legibly.
 * created_s pins the document date. Caller frees with table_book_free;
 * the PNG files must exist until xlsx_write. */
int report_book_build(cow_store *st, const cow_run_row *rows, size_t n,
                      const cow_tradeoff *t, int64_t created_s,
                      const report_chart *charts, size_t ncharts,
                      const app_answers *answers, const char *dir, cow_workbook **out,
                      cow_err *e);

#endif
