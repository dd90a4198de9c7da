/* cmd_merge.c -- `cowtail merge OUT.db IN.db...`: combine databases made on
 * separate hosts (store/merge.c does the work, one transaction per input). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "commands.h"
#include "store_fleet.h"

const char *const cmd_merge_usage[] = {
    "usage: cowtail merge [--results-only] [-q] OUT.db IN.db...",
    "",
    "Combine databases made on separate hosts into OUT.db (created when",
    "missing): runs, files with their provenance (host, path, SHA-256, the",
    "database they came from), events, INFO, kernel values, results (phases,",
    "quantiles, deltas, exceedance), findings, refusals, and samples.",
    "",
    "A run is the same run when it has the same label and host. A label",
    "already taken by a run of another host comes in as HOST/label (the",
    "input's file name when the host is unknown), and the output says so.",
    "A file already in OUT (same run, name and SHA-256) is skipped, so",
    "merging twice adds nothing. Each input is one transaction: an",
    "interrupted merge leaves OUT as it was before that input.",
    "",
    "  --results-only  leave the samples behind (files are marked partial;",
    "                  a later full merge of the same input brings them)",
    "  -q, --quiet     only the summary line per input",
    "",
    "A file whose run here holds a file of the same name with other bytes",
    "(it grew or changed between the two ingests) is refused, as ingest",
    "refuses it: its rows would count twice.",
    "",
    "An input is read as data only (read-only, its schema untrusted): one",
    "whose tables are not what this cowtail writes (a view, a trigger, other",
    "columns), that is damaged, or whose reading runs past a step budget is",
    "refused, with nothing of it merged.",
    "",
    "Exit codes: 0 merged; 1 a file refused (the rest merged); 2 an input",
    "is not a cowtail database of this version, is damaged or crafted",
    "(nothing of it merged), or is the output itself; 3 database error.",
    NULL
};

/* The same file under another name (./a.db, an absolute path, a link, a
 * hard link): by device and inode, not by the names' bytes. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (strcmp(a, b) == 0)
        return 1;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

typedef struct merge_ctx {
    const char *in;
    int quiet;
} merge_ctx;

static void on_run(void *ctx, const char *src_label, const char *dst_label, int is_new)
{
    const merge_ctx *m = ctx;
    if (strcmp(src_label, dst_label) != 0)
        printf("%s: run '%s': the label is another host's run here: merged as '%s'\n",
               app_tty(m->in), app_tty(src_label), app_tty(dst_label));
    else if (!m->quiet)
        printf("%s: run '%s' %s\n", app_tty(m->in), app_tty(dst_label),
               is_new ? "added" : "already here");
}

static void on_refused(void *ctx, const char *label, const char *path)
{
    const merge_ctx *m = ctx;
    cli_errorf("%s: run '%s': %s refused: the run here holds a file of that name "
               "with other bytes (grown or changed since one of them was ingested), "
               "and both would count: remove the run from the output (or ingest the "
               "newer file there with --replace) and merge again",
               app_tty(m->in), app_tty(label), app_tty(path));
}

int cmd_merge(int argc, char **argv)
{
    static const struct option opts[] = {
        {"results-only", no_argument, NULL, 'r'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    cow_err e = COW_ERR_INIT;
    cow_merge_opts mo = {0, on_run, NULL, on_refused, 0};
    merge_ctx ctx = {NULL, 0};
    cow_store *st = NULL;
    int c, i, code = EXIT_OK;

    optind = 1;
    while ((c = cli_getopt(argc, argv, "qh", opts)) != -1) {
        switch (c) {
        case 'r': mo.results_only = 1; break;
        case 'q': ctx.quiet = 1; break;
        case 'h': cli_print_usage(stdout, cmd_merge_usage); return EXIT_OK;
        default: return EXIT_USAGE;
        }
    }
    if (argc - optind < 2) {
        cli_errorf("merge: give the output database and at least one input");
        cli_print_usage(stderr, cmd_merge_usage);
        return EXIT_USAGE;
    }
    mo.ctx = &ctx;
    if ((code = cli_store_open(argv[optind], &st)) != EXIT_OK)
        return code;
    for (i = optind + 1; i < argc; i++) {
        cow_merge_stats ms;
        ctx.in = argv[i];
        if (same_file(argv[i], argv[optind])) {
            cli_errorf("merge: %s is the output database %s (the same file): name "
                       "another input", argv[i], argv[optind]);
            code = EXIT_USAGE;
            continue;
        }
        if (store_merge(st, argv[i], &mo, &ms, &e) != COW_OK) {
            cli_error(&e);
            fprintf(stderr, "cowtail: %s: nothing of it was merged\n", argv[i]);
            if (cli_exit_for(e.code) > code)
                code = cli_exit_for(e.code);
            e = (cow_err)COW_ERR_INIT;
            continue;
        }
        printf("%s: %ld runs (%ld new, %ld renamed), %ld files new, %ld already here"
               "%s%s, %lld samples, results of %ld runs\n",
               argv[i], ms.runs_new + ms.runs_existing, ms.runs_new, ms.runs_renamed,
               ms.files_new, ms.files_skipped, ms.files_refused ? ", some refused" : "",
               ms.files_completed ? " (some completed with their samples)" : "",
               ms.samples, ms.results);
        if (ms.files_refused && code < EXIT_REJECTED)
            code = EXIT_REJECTED;
        if (ms.stale)
            printf("%s: %ld runs got new files but keep the results already here: run "
                   "cowtail analyze --db %s to refresh them\n",
                   argv[i], ms.stale, argv[optind]);
    }
    store_close(st);
    return code;
}
