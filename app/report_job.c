/* report_job.c -- the report's steps: prepare (analyse, doctor,
 * trade-off), then the folder: charts, workbook, summary (report_job.h). */
#include "report_job.h"

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

static int make_dir(const char *dir)
{
    char tmp[1024];
    size_t i;
    snprintf(tmp, sizeof(tmp), "%s", dir);
    for (i = 1; tmp[i]; i++)
        if (tmp[i] == '/') {
            tmp[i] = '\0';
            if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
                return -1;
            tmp[i] = '/';
        }
    return mkdir(tmp, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

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
    char marker[1100];
    struct stat sb;
    int any;

    if (stat(dir, &sb) != 0)
        return COW_OK;          /* made when the report is written */
    if (!S_ISDIR(sb.st_mode))
        return COW_FAIL(e, COW_EUSAGE, "%s: exists and is not a folder: choose another --out",
                        dir);
    snprintf(marker, sizeof(marker), "%s/%s", dir, APP_REPORT_MARKER);
    if (access(marker, F_OK) == 0)
        return COW_OK;
    if ((any = dir_has_entries(dir)) < 0)
        return COW_FAIL(e, COW_EIO, "%s: cannot read the folder: %s", dir, strerror(errno));
    if (any && !force)
        return COW_FAIL(e, COW_EUSAGE, "%s: folder is not empty and was not written by "
                        "cowtail report (no %s in it): choose another --out, or pass "
                        "--force to write into it", dir, APP_REPORT_MARKER);
    return COW_OK;
}

/* Create dir (and its parents) and mark it as the report's. */
static int claim_dir(const char *dir, cow_err *e)
{
    char marker[1100];
    cow_outfile o;
    int rc;

    if (make_dir(dir) != 0)
        return COW_FAIL(e, COW_EIO, "%s: cannot create the report folder: %s", dir,
                        strerror(errno));
    snprintf(marker, sizeof(marker), "%s/%s", dir, APP_REPORT_MARKER);
    if ((rc = outfile_open(&o, marker, e)) != COW_OK)
        return rc;
    if (fputs("This folder was written by cowtail report, which may write it again.\n",
              o.fp) < 0) {
        outfile_abort(&o);
        cow_err_at(e, marker, 0, 0);
        return COW_FAIL(e, COW_EIO, "cannot write: %s", strerror(errno));
    }
    return outfile_commit(&o, e);
}

/* Analyse every run, run the doctor and the trade-off. */
static int prepare(app_report *j, cow_err *e)
{
    cow_trial *trials;
    size_t i, nt = 0;
    int64_t newest = 0;
    int rc = COW_OK;

    if ((rc = app_analyze_all(j->st, j->rows, j->n, 0, j->seed, j->resamples, j->jobs,
                              e)) != COW_OK)
        return rc;
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

/* summary.md, then index.html from the same inputs. */
static int write_summary(app_report *j, cow_err *e)
{
    report_summary_in in;
    char path[1100];
    cow_outfile o;
    int rc;

    snprintf(path, sizeof(path), "%s/summary.md", j->dir);
    if ((rc = outfile_open(&o, path, e)) != COW_OK)
        return rc;
    memset(&in, 0, sizeof(in));
    in.db = j->db;
    in.rows = j->rows;
    in.nrows = j->n;
    in.trade = j->has_trade ? &j->trade : NULL;
    in.trade_host = j->trade_host;
    in.trade_scenario = j->trade_scenario;
    in.charts = j->charts;
    in.ncharts = j->nch;
    in.seed = j->seed;
    in.resamples = j->resamples;
    in.answers = &j->answers;
    in.inputs = &j->inputs;
    if (j->has_fleet) {
        in.fleet = &j->fleet;
        in.th = &j->th;
        in.fleet_path = j->thresholds;
    }
    rc = report_summary_write(j->st, &in, o.fp, e);
    if (rc != COW_OK) {
        outfile_abort(&o);
        return rc;
    }
    if ((rc = outfile_commit(&o, e)) != COW_OK)
        return rc;
    snprintf(path, sizeof(path), "%s/index.html", j->dir);
    if ((rc = outfile_open(&o, path, e)) != COW_OK)
        return rc;
    rc = report_html_write(j->st, &in, (int)(1600 * j->co.scale), (int)(900 * j->co.scale),
                           o.fp, e);
    if (rc != COW_OK) {
        outfile_abort(&o);
        return rc;
    }
    return outfile_commit(&o, e);
}

/* The folder: charts first (the workbook embeds them), then the
 * workbook, then the summary. */
static int write_outputs(app_report *j, cow_err *e)
{
    cow_workbook *wb = NULL;
    char path[1100];
    int rc;

    j->co.group_host = j->trade_host;
    j->co.group_scenario = j->trade_scenario;
    j->co.answers = &j->answers;
    if ((rc = claim_dir(j->dir, e)) != COW_OK)
        return rc;
    if ((rc = report_charts_write(j->st, j->rows, j->n, j->has_trade ? &j->trade : NULL,
                                  &j->co, &j->charts, &j->nch, e)) != COW_OK ||
        (rc = report_book_build(j->st, j->rows, j->n, j->has_trade ? &j->trade : NULL,
                                j->created, j->charts, j->nch, j->dir, &wb, e)) != COW_OK ||
        (rc = report_answers_sheets(wb, &j->answers, &j->inputs, e)) != COW_OK)
        goto done;
    snprintf(path, sizeof(path), "%s/report.xlsx", j->dir);
    if ((rc = xlsx_write(wb, path, e)) == COW_OK)
        rc = write_summary(j, e);
done:
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
    free(j->charts);
    store_free_runs(j->rows, j->n);
    j->fs.v = NULL;
    j->charts = NULL;
    j->rows = NULL;
    j->n = j->nch = 0;
}
