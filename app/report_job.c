/* report_job.c -- the report's steps: prepare (analyse, doctor,
 * trade-off), then the folder: charts, workbook, summary (report_job.h). */
#include "report_job.h"
#include "report_doc.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "app.h"
#include "doctor.h"
#include "facts.h"
#include "fleet.h"
#include "mem.h"
#include "outfile.h"
#include "report_answers.h"
#include "report_book.h"
#include "report_html.h"
#include "report_summary.h"
#include "xlsx.h"

/* 1 when dir holds anything but "." and "..", 0 when empty, -1 on error. */
static int dir_has_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int any = 0;

    if (d == NULL)
        return -1;
    while (!any && (de = readdir(d)) != NULL)
        any = strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
    closedir(d);
    return any;
}

int app_report_check_dir(const char *dir, int force, cow_err *e)
{
    char *marker;
    struct stat sb;
    int any, marked;

    if (stat(dir, &sb) != 0)
        return COW_OK;          /* made when the report is written */
    if (!S_ISDIR(sb.st_mode))
        return COW_FAIL(e, COW_EUSAGE, "%s: exists and is not a folder: choose another --out",
                        dir);
    marker = outfile_join(dir, APP_REPORT_MARKER);
    marked = access(marker, F_OK) == 0;
    free(marker);
    if (marked)
        return COW_OK;
    if ((any = dir_has_entries(dir)) < 0)
        return COW_FAIL(e, COW_EIO, "%s: cannot read the folder: %s", dir, strerror(errno));
    if (any && !force)
        return COW_FAIL(e, COW_EUSAGE, "%s: folder is not empty and was not written by "
                        "cowtail report (no %s in it): choose another --out, or pass "
                        "--force to write into it", dir, APP_REPORT_MARKER);
    return COW_OK;
}

static const char marker_head[] =
    "This folder was written by cowtail report, which may write it again.\n"
    "It wrote the files below, and removes them before it writes again:\n";

/* A name the marker may list: a file of this folder, of a kind the
 * report writes (a marker is a file anyone could edit). */
static int removable(const char *name)
{
    static const char *const ext[] = {".png", ".md", ".xlsx", ".html", NULL};
    size_t n = strlen(name), k;

    if (n == 0 || name[0] == '.' || strchr(name, '/') != NULL)
        return 0;
    for (k = 0; ext[k]; k++)
        if (n > strlen(ext[k]) && strcmp(name + n - strlen(ext[k]), ext[k]) == 0)
            return 1;
    return 0;
}

/* The marker: who wrote the folder, and the files it wrote so far. */
static int write_marker(app_report *j, cow_err *e)
{
    char *marker = outfile_join(j->dir, APP_REPORT_MARKER);
    cow_outfile o;
    size_t i;
    int rc, bad;

    rc = outfile_open(&o, marker, e);
    free(marker);
    if (rc != COW_OK)
        return rc;
    bad = fputs(marker_head, o.fp) < 0;
    for (i = 0; i < j->nwrote && !bad; i++)
        bad = fprintf(o.fp, "%s\n", j->wrote[i]) < 0;
    if (bad) {
        char *at = xstrdup(o.path);
        outfile_abort(&o);
        cow_err_at(e, at, 0, 0);
        free(at);
        return COW_FAIL(e, COW_EIO, "cannot write: %s", strerror(errno));
    }
    return outfile_commit(&o, e);
}

/* Note that the report wrote name into its folder. */
static void wrote(app_report *j, const char *name)
{
    j->wrote = xgrow(j->wrote, sizeof(*j->wrote), j->nwrote + 1, &j->capwrote);
    j->wrote[j->nwrote++] = xstrdup(name);
}

/* Remove what the marker of dir says an earlier report wrote there: a
 * chart that this report does not draw must not stay beside a summary
 * that says it was not drawn. Links are removed, never followed. */
static void remove_earlier(const char *dir)
{
    char *marker = outfile_join(dir, APP_REPORT_MARKER), *line = NULL;
    size_t cap = 0;
    ssize_t n;
    FILE *f;

    /* reading, and only a regular file: never a device or fifo planted */
    struct stat sb;
    if (lstat(marker, &sb) != 0 || !S_ISREG(sb.st_mode) || (f = fopen(marker, "r")) == NULL) {
        free(marker);
        return;
    }
    while ((n = getline(&line, &cap, f)) > 0) {
        char *path;
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        if (!removable(line))
            continue;
        path = outfile_join(dir, line);
        unlink(path);
        free(path);
    }
    free(line);
    fclose(f);
    free(marker);
}

/* Create dir (and its parents), remove what an earlier report wrote in
 * it, and mark it as the report's. */
static int claim_dir(app_report *j, cow_err *e)
{
    int rc;

    if ((rc = outfile_make_dir(j->dir, 1, e)) != COW_OK)
        return rc;
    remove_earlier(j->dir);
    return write_marker(j, e);
}

/* Analyse every run, run the doctor and the trade-off. */
static int prepare(app_report *j, cow_err *e)
{
    cow_trial *trials;
    size_t i, nt = 0;
    int64_t newest = 0;
    int rc = COW_OK;

    {   /* the thresholds file's materiality margin (check.h) */
        app_thresholds th;
        if (j->thresholds != NULL && (rc = app_load_thresholds(j->thresholds, &th, e)) != COW_OK)
            return rc;
        if ((rc = app_analyze_all(j->st, j->rows, j->n, 0, j->seed, j->resamples, j->jobs,
                                  j->thresholds != NULL ? &th.margin : NULL, e)) != COW_OK)
            return rc;
    }
    for (i = 0; i < j->n; i++)
        if (j->rows[i].t_last_us > newest)
            newest = j->rows[i].t_last_us;
    if (j->created < 0)
        j->created = newest / 1000000;
    store_free_runs(j->rows, j->n);
    j->rows = NULL;
    j->n = 0;
    if ((rc = store_list_runs(j->st, &j->rows, &j->n, e)) != COW_OK ||
        (rc = app_doctor(j->st, j->rows, j->n, &j->fs, &j->facts, e)) != COW_OK)
        return rc;
    if (facts_tradeoff_group(j->rows, j->n, &j->trade_host, &j->trade_scenario) != 0)
        return COW_OK;
    trials = xcalloc(j->n, sizeof(*trials));
    for (i = 0; i < j->n && rc == COW_OK; i++)
        if (facts_in_group(&j->rows[i], j->trade_host, j->trade_scenario))
            rc = facts_trial(j->st, &j->rows[i], &trials[nt++], e);
    if (rc == COW_OK && nt > 0 &&
        (rc = tradeoff_compute(trials, nt, j->seed, &j->trade, e)) == COW_OK)
        j->has_trade = 1;
    free(trials);
    return rc;
}

/* The inputs of every page: the report's results and its document. */
static void summary_in(const app_report *j, report_summary_in *in)
{
    memset(in, 0, sizeof(*in));
    in->db = j->db;
    in->rows = j->rows;
    in->nrows = j->n;
    in->trade = j->has_trade ? &j->trade : NULL;
    in->trade_host = j->trade_host;
    in->trade_scenario = j->trade_scenario;
    in->charts = j->charts;
    in->ncharts = j->nch;
    in->seed = j->seed;
    in->resamples = j->resamples;
    in->answers = &j->answers;
    in->inputs = &j->inputs;
    if (j->has_fleet) {
        in->fleet = &j->fleet;
        in->th = &j->th;
        in->fleet_path = j->thresholds;
    }
}

/* summary.md, then index.html from the same inputs and document. */
static int write_summary(app_report *j, const report_summary_in *in, cow_err *e)
{
    char *path = outfile_join(j->dir, "summary.md");
    cow_outfile o;
    int rc;

    rc = outfile_open(&o, path, e);
    free(path);
    if (rc != COW_OK)
        return rc;
    rc = report_summary_write(j->st, in, o.fp, e);
    if (rc != COW_OK) {
        outfile_abort(&o);
        return rc;
    }
    if ((rc = outfile_commit(&o, e)) != COW_OK)
        return rc;
    wrote(j, "summary.md");
    path = outfile_join(j->dir, "index.html");
    rc = outfile_open(&o, path, e);
    free(path);
    if (rc != COW_OK)
        return rc;
    rc = report_html_write(j->st, in, (int)(1600 * j->co.scale), (int)(900 * j->co.scale),
                           o.fp, e);
    if (rc != COW_OK) {
        outfile_abort(&o);
        return rc;
    }
    if ((rc = outfile_commit(&o, e)) == COW_OK)
        wrote(j, "index.html");
    return rc;
}

/* The folder: charts first (the workbook embeds them), then the
 * workbook, then the summary. */
static int write_outputs(app_report *j, cow_err *e)
{
    cow_workbook *wb = NULL;
    char *path = NULL;
    report_summary_in in;
    cow_doc doc;
    size_t i;
    int rc;

    j->co.group_host = j->trade_host;
    j->co.group_scenario = j->trade_scenario;
    j->co.answers = &j->answers;
    if ((rc = claim_dir(j, e)) != COW_OK)
        return rc;
    if ((rc = report_charts_write(j->st, j->rows, j->n, j->has_trade ? &j->trade : NULL,
                                  &j->co, &j->charts, &j->nch, e)) != COW_OK ||
        (rc = report_book_build(j->st, j->rows, j->n, j->has_trade ? &j->trade : NULL,
                                j->created, j->charts, j->nch, &j->answers, j->dir, &wb, e)) !=
            COW_OK ||
        (rc = report_answers_sheets(wb, &j->answers, &j->inputs, e)) != COW_OK)
        goto done;
    /* the document, decided once: the workbook's first sheet, summary.md
     * and index.html render it */
    summary_in(j, &in);
    if ((rc = report_doc_build(j->st, &in, &doc, NULL, e)) != COW_OK)
        goto done;
    in.doc = &doc;
    if ((rc = doc_sheet_answer(&doc, wb, e)) == COW_OK) {
        path = outfile_join(j->dir, "report.xlsx");
        if ((rc = xlsx_write(wb, path, e)) == COW_OK) {
            wrote(j, "report.xlsx");
            rc = write_summary(j, &in, e);
        }
    }
    doc_release(&doc);
done:
    /* what was written, also after an error: the next report removes it */
    for (i = 0; i < j->nch; i++)
        if (j->charts[i].file[0])
            wrote(j, j->charts[i].file);
    if (rc == COW_OK)
        rc = write_marker(j, e);
    else
        write_marker(j, &(cow_err)COW_ERR_INIT);
    free(path);
    table_book_free(wb);
    return rc;
}

/* List the runs, analyse them, run the doctor and the trade-off, and
 * write the folder. */
int app_report_write(app_report *j, cow_err *e)
{
    int rc;
    if ((rc = store_list_runs(j->st, &j->rows, &j->n, e)) != COW_OK)
        return rc;
    if (j->n == 0)
        return COW_OK;
    if ((rc = prepare(j, e)) != COW_OK)
        return rc;
    /* a fleet: the check's verdicts and what the failing runs share */
    if (j->thresholds != NULL && j->n >= 2) {
        if ((rc = app_load_thresholds(j->thresholds, &j->th, e)) != COW_OK)
            return rc;
        j->has_fleet = 1; /* released with the report, also after an error */
        if ((rc = app_check_fleet(j->st, j->rows, j->n, &j->th, COW_FLEET_HOLM, 0, NULL,
                                  &j->fleet, e)) != COW_OK)
            return rc;
        /* kept as check keeps them: the checks table, which export sends */
        if ((rc = app_check_save(j->st, j->rows, &j->th, &j->fleet, e)) != COW_OK)
            return rc;
    }
    if ((rc = app_answers_build(j->st, j->rows, j->n, j->facts, &j->fs,
                                j->has_fleet ? &j->fleet : NULL, j->has_fleet ? &j->th : NULL,
                                &j->answers, e)) != COW_OK ||
        (rc = app_inputs_load(j->st, 0, &j->inputs, e)) != COW_OK)
        return rc;
    return write_outputs(j, e);
}

void app_report_release(app_report *j)
{
    diag_release(&j->fs);
    free(j->facts);
    j->facts = NULL;
    app_answers_release(&j->answers);
    app_inputs_release(&j->inputs);
    if (j->has_fleet)
        app_check_fleet_release(&j->fleet);
    j->has_fleet = 0;
    report_charts_free(j->charts, j->nch);
    j->charts = NULL;
    j->nch = 0;
    for (size_t i = 0; i < j->nwrote; i++)
        free(j->wrote[i]);
    free(j->wrote);
    j->wrote = NULL;
    j->nwrote = j->capwrote = 0;
    store_free_runs(j->rows, j->n);
    j->fs.v = NULL;
    j->charts = NULL;
    j->rows = NULL;
    j->n = j->nch = 0;
}
