/* report_doc.h -- the report's document (report/doc.h), decided once from
 * the store and the answers: summary.md, index.html and the workbook's
 * first sheet render it and decide nothing of their own.
 *
 *     cow_doc d;
 *     report_doc_build(st, &in, &d, e);     in: report_summary.h's inputs
 *     doc_md_answer(&d, fp); ... doc_release(&d);
 *
 * The answer table holds one row per run that has something to say, in
 * answer.h's order (failed gates, critical findings, the largest p99.9
 * rise): the run, its window and when, p99 and p99.9 before -> during
 * (the estimate, with its bound where there is one), the verdict with its
 * delta, the longest stall, the throughput before -> during, the requests
 * slower than the p99 shown before, the cause, the gate and what to do. */
#ifndef COW_APP_REPORT_DOC_H
#define COW_APP_REPORT_DOC_H

#include "answer.h"
#include "doc.h"
#include "report_summary.h"
#include "store.h"

/* The answer table's columns, in order. */
enum report_doc_col {
    RDOC_RUN = 0,   /* the run's label, linked to its section */
    RDOC_EVENT,     /* "bgsave#1 at 2026-11-30T08:37:36Z, 1.7 s" */
    RDOC_P99,       /* "3.903 \u2192 12.100 (>= 4.000)" */
    RDOC_P999,      /* the delta's own reference before the arrow */
    RDOC_VERDICT,   /* "lift +59.598 (>= +0.529)" */
    RDOC_STALL,     /* "75.1 ms" */
    RDOC_TPUT,      /* "20000 \u2192 4354/s (-78%)" */
    RDOC_SLOW,      /* "457 of 3000 beyond 3.903" */
    RDOC_CAUSE,
    RDOC_GATE,
    RDOC_DO,
    RDOC_NCOLS
};

/* One row's facts as measured (what the cells print): the answer's own
 * (answer.h app_impact), kept beside the document for the tests. */
typedef app_impact report_doc_impact;

/* Build the document of in (answers required; NULL answers give an empty
 * table). The document's run anchors are in d->answer's RDOC_RUN links;
 * report_doc_anchor gives every run's. *imp (may be NULL) receives one
 * impact per answer-table row (caller frees). */
int report_doc_build(cow_store *st, const report_summary_in *in, cow_doc *d,
                     report_doc_impact **imp, cow_err *e);

/* The anchor of run i of in->rows in index.html, unique among them
 * ("run-bgsave-t2", "run-a_b-2"); the caller frees it. */
char *report_doc_anchor(const report_summary_in *in, size_t i);
/* A chart's file name without its ".png" (an anchor's stem); the caller
 * frees it. */
char *report_png_stem(const char *file);

#endif
