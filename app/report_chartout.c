/* report_chartout.c -- registering the report's charts (report_charts_int.h):
 * which run and kind the next chart belongs to, its file name, and the
 * list entry of each chart, written as a PNG or skipped with the reason. */
#include "report_charts_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "label.h"
#include "mem.h"
#include "outfile.h"
#include "png.h"

/* The next chart emitted or skipped belongs to run (0: across runs). */
void chartout_for(chart_out *o, int64_t run, const char *kind)
{
    o->run = run;
    o->kind = kind;
}

/* "PREFIX-STEM.png" for a run's chart: the stem is label_file_stem's, and
 * a name some chart of this report already has gets "-2", "-3"... (labels
 * "a b", "a/b" and "a_b" share the stem a_b, and must not overwrite each
 * other's charts). */
char *chartout_file(chart_out *o, const char *prefix, const char *label)
{
    char *stem = label_stem_new(label), *file = NULL;
    size_t i;
    unsigned k = 1;
    int taken;

    do {
        free(file);
        if (k == 1)
            file = xasprintf("%s-%s.png", prefix, stem);
        else
            file = xasprintf("%s-%s-%u.png", prefix, stem, k);
        k++;
        taken = 0;
        for (i = 0; i < o->nused && !taken; i++)
            taken = strcmp(o->used[i], file) == 0;
    } while (taken);
    free(stem);
    o->used = xgrow(o->used, sizeof(char *), o->nused + 1, &o->capused);
    o->used[o->nused++] = xstrdup(file);
    return file;
}

/* A new entry of the list: its title, the current run and kind. */
static report_chart *add_chart(chart_out *o, const char *title)
{
    report_chart *r;
    o->v = xgrow(o->v, sizeof(report_chart), o->n + 1, &o->cap);
    r = &o->v[o->n++];
    memset(r, 0, sizeof(*r));
    r->title = xstrdup(title);
    r->file = xstrdup("");
    r->run = o->run;
    snprintf(r->kind, sizeof(r->kind), "%s", o->kind ? o->kind : "");
    return r;
}

/* Write c (consumed) as file, or record why not. */
int chartout_emit(chart_out *o, cow_chart *c, const char *file, const char *title, cow_err *e)
{
    report_chart *r = add_chart(o, title);
    char *path, why[200];
    cow_style st;
    int rc = COW_OK;

    if (!chart_is_drawable(c, why, sizeof(why))) {
        snprintf(r->why, sizeof(r->why), "%s", why);
        chart_free(c);
        return COW_OK;
    }
    chart_style_defaults(&st, o->o->scale);
    path = outfile_join(o->o->dir, file);
    rc = chart_write_png(c, &st, path, (int)(1600 * o->o->scale), (int)(900 * o->o->scale), e);
    free(path);
    if (rc == COW_EUSAGE) {
        snprintf(r->why, sizeof(r->why), "%s", e->msg);
        rc = COW_OK;
    } else if (rc == COW_OK) {
        free(r->file);
        r->file = xstrdup(file);
    }
    chart_free(c);
    return rc;
}

void chartout_skip(chart_out *o, const char *title, const char *why)
{
    report_chart *r = add_chart(o, title);
    snprintf(r->why, sizeof(r->why), "%s", why);
}
