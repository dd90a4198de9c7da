/* report_answers.c -- the Answers and Inputs sheets (report_answers.h). */
#include "report_answers.h"

#include <math.h>
#include <stdlib.h>

#include "boot.h"
#include "mem.h"

#define TRY(x) do { int rc_ = (x); if (rc_ != COW_OK) return rc_; } while (0)

static int num(cow_sheet *s, size_t r, size_t c, double v, cow_err *e)
{
    return isnan(v) || isinf(v) ? table_set_empty(s, r, c, e) : table_set_num(s, r, c, v, e);
}

static int txt(cow_sheet *s, size_t r, size_t c, const char *v, cow_err *e)
{
    return v ? table_set_text(s, r, c, v, e) : table_set_empty(s, r, c, e);
}

static const char *thp_word(int thp)
{
    return thp == APP_THP_BACKING ? "backing the heap"
           : thp == APP_THP_NOT_BACKING ? "not backing the heap"
           : thp == APP_THP_OFF ? "never" : NULL;
}

static int answers_sheet(cow_workbook *wb, const app_answers *a, cow_err *e)
{
    static const struct { const char *name, *unit; cow_colfmt fmt; } cols[] = {
        {"run", NULL, COW_COLFMT_TEXT}, {"listed", NULL, COW_COLFMT_TEXT},
        {"window", NULL, COW_COLFMT_TEXT}, {"start", "UTC", COW_COLFMT_TIME_US},
        {"length", "s", COW_COLFMT_MS3}, {"baseline p99.9", "ms", COW_COLFMT_TEXT},
        {"window p99.9", "ms", COW_COLFMT_TEXT}, {"p99.9 delta", "ms", COW_COLFMT_TEXT},
        {"verdict", NULL, COW_COLFMT_TEXT}, {"fork", "ms", COW_COLFMT_MS3},
        {"COW", "MB", COW_COLFMT_INT}, {"COW/used", "%", COW_COLFMT_INT},
        {"THP", NULL, COW_COLFMT_TEXT}, {"child killed", NULL, COW_COLFMT_TEXT},
        {"shown below p99.9", NULL, COW_COLFMT_TEXT}};
    /* the cause, the gate and what to do are the Answer sheet's (one
     * document, report_doc.c); this sheet is every run's numbers beside
     * them, narrow enough to print one page wide at 8 pt or more */
    cow_sheet *s = table_add_sheet(wb, "Answers", "Every run's numbers: the window, p99.9 "
                                   "against its baseline (estimate with its bound beside it "
                                   "where only one side is known), and the evidence; why a "
                                   "? could not tell, the cause, gate and what to do are on "
                                   "the Answer sheet");
    size_t i, c, k;
    for (c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
        TRY(table_add_column(s, cols[c].name, cols[c].unit, cols[c].fmt, e));
    for (k = 0; k < a->n; k++) {
        /* the listed runs first, in the summary's order, then the others */
        const app_answer *x;
        char q1[COW_QUANT_FMT_MAX], q2[COW_QUANT_FMT_MAX], q3[COW_QUANT_FMT_MAX];
        size_t r = table_add_row(s);
        if (k < a->nsay) {
            i = a->order[k];
        } else {
            size_t skip = k - a->nsay, j;
            for (i = 0, j = 0; i < a->n; i++)
                if (!a->v[i].say && j++ == skip)
                    break;
        }
        x = &a->v[i];
        if (app_answer_badge(x) != NULL) { /* the mark beside the name, as on the Answer sheet */
            char *name = xasprintf("%s %s", x->run, app_answer_badge(x));
            int rc = txt(s, r, 0, name, e);
            free(name);
            TRY(rc);
        } else {
            TRY(txt(s, r, 0, x->run, e));
        }
        TRY(txt(s, r, 1, x->say ? "yes" : "", e));
        TRY(txt(s, r, 2, x->window, e));
        if (x->has_window) {
            TRY(table_set_int(s, r, 3, x->t0_us, e));
            TRY(num(s, r, 4, (double)x->len_us / 1e6, e));
        }
        if (x->has_window && !x->log_only) {
            /* the delta's own reference, as the Answer sheet; a ?'s reason
             * is the Answer sheet's (here it wrapped a narrow column into
             * rows of 30 lines: half this sheet's printed pages) */
            cow_quant dq = x->delta;
            dq.why[0] = '\0';
            TRY(txt(s, r, 5, app_answer_base_cell(x, q1, sizeof(q1)), e));
            TRY(txt(s, r, 6, quant_format(&x->win, 0, q2, sizeof(q2)), e));
            TRY(txt(s, r, 7, quant_format(&dq, COW_QF_SIGNED | COW_QF_INTERVAL, q3, sizeof(q3)),
                    e));
            TRY(txt(s, r, 8, boot_verdict_symbol(x->verdict), e));
        }
        TRY(num(s, r, 9, x->fork_ms, e));
        TRY(num(s, r, 10, isnan(x->cow_mb) ? NAN : round(x->cow_mb), e));
        TRY(num(s, r, 11, isnan(x->cow_pct_used) ? NAN : round(x->cow_pct_used), e));
        TRY(txt(s, r, 12, thp_word(x->thp), e));
        TRY(txt(s, r, 13, x->child_killed ? "yes" : "", e));
        {
            char *sh = app_answer_shown(x);
            int rc = txt(s, r, 14, sh, e);
            free(sh);
            TRY(rc);
        }
    }
    table_move_sheet(wb, wb->nsheets - 1, 0);
    return COW_OK;
}

static int inputs_sheet(cow_workbook *wb, const app_inputs *in, cow_err *e)
{
    cow_sheet *s;
    size_t i;
    if (in == NULL || in->n == 0)
        return COW_OK;
    s = table_add_sheet(wb, "Inputs", "Files that did not land whole: refused, not "
                        "recognised, or with rejected lines (cowtail rejects lists them)");
    TRY(table_add_column(s, "run", NULL, COW_COLFMT_TEXT, e));
    TRY(table_add_column(s, "file", NULL, COW_COLFMT_TEXT, e));
    TRY(table_add_column(s, "line", NULL, COW_COLFMT_INT, e));
    TRY(table_add_column(s, "what", NULL, COW_COLFMT_TEXT, e));
    TRY(table_add_column(s, "rejected lines", NULL, COW_COLFMT_INT, e));
    TRY(table_add_column(s, "reason", NULL, COW_COLFMT_TEXT, e));
    for (i = 0; i < in->n; i++) {
        const app_input *x = &in->v[i];
        size_t r = table_add_row(s);
        TRY(txt(s, r, 0, x->run, e));
        TRY(txt(s, r, 1, x->path, e));
        if (x->line > 0)
            TRY(table_set_int(s, r, 2, x->line, e));
        TRY(txt(s, r, 3, app_input_kind_word(x->kind), e));
        if (x->kind == APP_INPUT_REJECTED)
            TRY(table_set_int(s, r, 4, x->rejected, e));
        TRY(txt(s, r, 5, x->reason, e));
    }
    table_move_sheet(wb, wb->nsheets - 1, 1);
    return COW_OK;
}

int report_answers_sheets(cow_workbook *wb, const app_answers *a, const app_inputs *in,
                          cow_err *e)
{
    TRY(answers_sheet(wb, a, e));
    return inputs_sheet(wb, in, e);
}
