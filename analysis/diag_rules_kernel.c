/* diag_rules_kernel.c -- the doctor's rule on the kernel's own account of
 * the latest fork window (capture's kstat.csv, kacct.h): which cost the
 * main thread paid, copy-on-write faults, the run queue or the fork, each
 * with its numbers, the strongest first. Listed in diag_rules.c's table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "diag_rules_int.h"

double diag_kernel_fork_ms(const cow_run_facts *x)
{
    if (x->fork_dur.known && x->fork_dur.num > 0)
        return x->fork_dur.num / 1000;
    if (x->latest_fork_usec.known && x->latest_fork_usec.num > 0)
        return x->latest_fork_usec.num / 1000;
    return NAN;
}

/* The run's worst sample was in flight while the fork ran (diag.h's
 * fork_inflight facts, as fork_is_the_cost reads them). */
static int fork_took_worst(const cow_run_facts *x)
{
    return x->fork_inflight && x->fork_inflight_n > 0 && !isnan(x->run_max_us) &&
           x->fork_inflight_max_us >= x->run_max_us;
}

char *diag_kernel_cause(const cow_run_facts *x)
{
    if (!x->kstat.known)
        return NULL;
    return kacct_cause_text(&x->kacct, diag_kernel_fork_ms(x), fork_took_worst(x));
}

static const char *const advice[KC_COUNT] = {
    /* KC_COW */
    ("cut the pages the save makes the server copy: save on a replica, or when "
     "fewer keys are written, keep huge pages off the heap (a 2 MB page is copied "
     "for one written byte), or use a forkless save where the server has one"),
    /* KC_CPU */
    ("give the server and its fork child a core each: the child competes with the "
     "server's main thread for CPU (pin the server with taskset away from other "
     "work, check CPU steal on a virtual machine, and keep io-threads below the cores)"),
    /* KC_FORK */
    ("keep instances small, or fork where the clients do not see it (a replica, "
     "off-peak): the fork copies the page tables while the server stands still"),
};

int rule_kernel_account(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    const cow_run_facts *x = &r[i];
    const cow_kacct *k = &x->kacct;
    double fork_ms = diag_kernel_fork_ms(x);
    const char *win = x->fork_window[0] ? x->fork_window : "the latest save";
    cow_kcauses c;
    char *cause, *ft, *wt, *ct;
    (void)n;
    if (!x->kstat.known)
        return 0;
    kacct_causes(k, fork_ms, &c);
    cause = diag_kernel_cause(x);
    ft = kacct_faults_text(k);
    wt = kacct_wait_text(k);
    ct = kacct_child_text(k);
    if (cause != NULL)
        diag_title(f, "the kernel's account of %s: %s", win, cause);
    else if (c.n > 0) /* the fork alone */
        diag_title(f, "the kernel's account of %s: the fork (%.1f ms) is the main thread's "
                   "only material cost; no copy-on-write or run-queue wait beyond the "
                   "rates before it", win, fork_ms);
    else {
        f->severity = COW_SEV_INFO;
        diag_title(f, "the kernel's account of %s: no cost beyond the rates before it "
                   "(%s%s%s)", win, ft, wt[0] ? "; " : "", wt);
    }
    diag_evidence(f, "main thread's minor faults", x->kstat.src, "%s", ft);
    if (wt[0])
        diag_evidence(f, "main thread's run-queue wait", x->kstat.src, "%s", wt);
    if (k->majflt > 0)
        diag_evidence(f, "main thread's major faults (from disk)", x->kstat.src, "%.0f",
                      k->majflt);
    if (ct != NULL)
        diag_evidence(f, "fork child", x->kstat.src, "%s", ct);
    if (!isnan(fork_ms))
        diag_evidence(f, "fork time", x->fork_dur.known ? x->fork_dur.src
                      : x->latest_fork_usec.src, "%.1f ms", fork_ms);
    if (c.n > 0)
        diag_advice(f, "%s", advice[c.kind[0]]);
    else
        diag_advice(f, "the kernel's counters show no cost of the save to the main "
                    "thread: look at the other findings (the host, the probe itself)");
    free(cause);
    free(ft);
    free(wt);
    free(ct);
    return 1;
}
