/* opts.c -- option parsing shared by every command: getopt_long with the
 * house messages for misuse, and option values read by the one strict
 * parser (common/optval.h). Every message names the help to read:
 *
 *     cowtail: report: unknown option '--colour' (see 'cowtail help report')
 *     cowtail: --seed: 'abc' is not an integer (see 'cowtail help report')
 *
 * and the caller returns EXIT_USAGE (2). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot.h"
#include "cli.h"
#include "optval.h"
#include "strbuf.h"

/* The long options opts has whose names start with name[0..n), as
 * "--a, --b" appended to out; their count. */
static int prefixed(const struct option *opts, const char *name, size_t n, cow_sbuf *out)
{
    int k = 0;

    for (; opts->name; opts++)
        if (strncmp(opts->name, name, n) == 0) {
            sbuf_add(out, "%s--%s", k ? ", " : "", opts->name);
            k++;
        }
    return k;
}

/* An option error of getopt_long ('?' or ':') as one line. */
static void misuse(const char *cmd, int c, const char *arg, const struct option *opts)
{
    cow_sbuf names = {NULL, 0, 0};
    size_t n;

    if (arg == NULL || strncmp(arg, "--", 2) != 0) {
        if (c == ':')
            cli_errorf("%s: option '-%c' needs a value (see 'cowtail help %s')", cmd,
                       optopt, cmd);
        else
            cli_errorf("%s: unknown option '-%c' (see 'cowtail help %s')", cmd, optopt,
                       cmd);
        return;
    }
    n = strcspn(arg + 2, "=");
    if (c == ':')
        cli_errorf("%s: option '%.*s' needs a value (see 'cowtail help %s')", cmd,
                   (int)n + 2, arg, cmd);
    else if (optopt != 0 && arg[2 + n] == '=')
        cli_errorf("%s: option '%.*s' takes no value (see 'cowtail help %s')", cmd,
                   (int)n + 2, arg, cmd);
    else if (prefixed(opts, arg + 2, n, &names) > 1)
        cli_errorf("%s: ambiguous option '%.*s' (%s) (see 'cowtail help %s')", cmd,
                   (int)n + 2, arg, names.s, cmd);
    else
        cli_errorf("%s: unknown option '%.*s' (see 'cowtail help %s')", cmd,
                   (int)n + 2, arg, cmd);
    free(sbuf_take(&names));
}

int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *opts)
{
    char spec[32];
    int c;

    snprintf(spec, sizeof(spec), ":%s", shortopts);
    opterr = 0;
    c = getopt_long(argc, argv, spec, opts, NULL);
    if (c == '?' || c == ':') {
        misuse(argv[0], c, optind > 0 && optind <= argc ? argv[optind - 1] : NULL, opts);
        return '?';
    }
    return c;
}

static int bad_value(const char *cmd, const cow_err *e)
{
    cli_errorf("%s (see 'cowtail help %s')", e->msg, cmd);
    return EXIT_USAGE;
}

int cli_opt_int(const char *cmd, const char *opt, const char *arg, int64_t lo, int64_t hi,
                int64_t *out)
{
    cow_err e = COW_ERR_INIT;
    return optval_int(opt, arg, lo, hi, out, &e) == COW_OK ? EXIT_OK : bad_value(cmd, &e);
}

int cli_opt_double(const char *cmd, const char *opt, const char *arg, double lo,
                   double hi, double *out)
{
    cow_err e = COW_ERR_INIT;
    return optval_double(opt, arg, lo, hi, out, &e) == COW_OK ? EXIT_OK : bad_value(cmd, &e);
}

int cli_opt_seed(const char *cmd, const char *arg, uint64_t *seed)
{
    cow_err e = COW_ERR_INIT;
    return optval_u64("--seed", arg, seed, &e) == COW_OK ? EXIT_OK : bad_value(cmd, &e);
}

int cli_opt_resamples(const char *cmd, const char *arg, int *resamples)
{
    int64_t v;
    int code = cli_opt_int(cmd, "--resamples", arg, 99, COW_BOOT_MAX_RESAMPLES, &v);
    if (code == EXIT_OK)
        *resamples = (int)v;
    return code;
}

int cli_opt_jobs(const char *cmd, const char *arg, int *jobs)
{
    int64_t v;
    int code = cli_opt_int(cmd, "--jobs", arg, 1, COW_MAX_JOBS, &v);
    if (code == EXIT_OK)
        *jobs = (int)v;
    return code;
}

int cli_opt_instant(const char *cmd, const char *opt, const char *arg, int64_t *us)
{
    cow_err e = COW_ERR_INIT;
    return optval_instant_us(opt, arg, us, &e) == COW_OK ? EXIT_OK : bad_value(cmd, &e);
}

int cli_opt_offset(const char *cmd, const char *opt, const char *arg, int *off_s)
{
    cow_err e = COW_ERR_INIT;
    return optval_utc_offset(opt, arg, off_s, &e) == COW_OK ? EXIT_OK : bad_value(cmd, &e);
}

int cli_opt_latency_from(const char *cmd, const char *arg, int *from)
{
    if (strcmp(arg, "intended") == 0)
        *from = COW_FROM_INTENDED;
    else if (strcmp(arg, "sent") == 0 || strcmp(arg, "send") == 0)
        *from = COW_FROM_SENT;
    else {
        cli_errorf("%s: --latency-from: '%s' is neither intended nor sent (see 'cowtail "
                   "help %s')", cmd, arg, cmd);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int cli_shared_opt(int c, const char *cmd, const char *const *usage, cli_shared *s)
{
    switch (c) {
    case 'I':
        return cli_opt_latency_from(cmd, optarg, &s->latency_from) == EXIT_OK ? CLI_OPT_NEXT
                                                                              : EXIT_USAGE;
    case 'd': s->db = optarg; return CLI_OPT_NEXT;
    case 't': s->thresholds = optarg; return CLI_OPT_NEXT;
    case 'j': s->json = 1; return CLI_OPT_NEXT;
    case 'J': return cli_opt_jobs(cmd, optarg, &s->jobs) == EXIT_OK ? CLI_OPT_NEXT : EXIT_USAGE;
    case 'h': cli_print_usage(stdout, usage); return EXIT_OK;
    default: return EXIT_USAGE; /* '?': cli_getopt said what was wrong */
    }
}

int cli_opt_time_unit(const char *cmd, const char *opt, const char *arg)
{
    cow_err e = COW_ERR_INIT;
    double us;
    return optval_time_unit(opt, arg, &us, &e) == COW_OK ? EXIT_OK : bad_value(cmd, &e);
}

int cli_opt_mem_unit(const char *cmd, const char *opt, const char *arg)
{
    cow_err e = COW_ERR_INIT;
    double bytes;
    return optval_mem_unit(opt, arg, &bytes, &e) == COW_OK ? EXIT_OK : bad_value(cmd, &e);
}
