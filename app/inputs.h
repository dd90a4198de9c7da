/* inputs.h -- every input that did not land whole, with why and what to
 * do: files refused, files no parser recognised, files with rejected
 * lines. Decided here once; `ingest` prints the list, summary.md writes
 * it, `rejects` lists the lines themselves.
 *
 *     app_inputs in;
 *     app_inputs_load(st, 0, &in, e);        0: all; else since (epoch s)
 *     for (i = 0; i < in.n; i++) { char *l = app_input_line(&in.v[i], APP_ANSWER_MD); ... }
 *     app_inputs_release(&in); */
#ifndef COW_APP_INPUTS_H
#define COW_APP_INPUTS_H

#include <stddef.h>
#include <stdint.h>

#include "answer.h"
#include "err.h"
#include "store.h"

enum app_input_kind {
    APP_INPUT_REFUSED = 0,   /* refused whole: nothing of it landed */
    APP_INPUT_UNRECOGNISED,  /* no parser recognised it: not read */
    APP_INPUT_REJECTED,      /* landed, some lines rejected */
    APP_INPUT_YEAR_GUESSED   /* landed, its year taken from the file's date */
};
#define APP_INPUT_KINDS 4

typedef struct app_input {
    char *run;            /* run label (owned) */
    char *path;           /* file (owned) */
    int kind;             /* enum app_input_kind */
    char *code;           /* refusal code (owned), NULL for rejected lines */
    char *reason;         /* why (owned) */
    int64_t line;         /* where (0: unknown) */
    int64_t rejected;     /* rejected lines (APP_INPUT_REJECTED) */
    int64_t rows;         /* records that landed (APP_INPUT_REJECTED) */
} app_input;

typedef struct app_inputs {
    app_input *v;
    size_t n;
    size_t count[APP_INPUT_KINDS]; /* per kind */
} app_inputs;

/* Every recorded input that did not land whole, at or after since_s
 * (epoch seconds, 0: all), by run and path. */
int app_inputs_load(cow_store *st, int64_t since_s, app_inputs *out, cow_err *e);
/* The same for one ingest of paths[0..npaths) begun at since_s: the
 * files under those paths recorded or ingested since then. */
int app_inputs_of_ingest(cow_store *st, char **paths, int npaths, int64_t since_s,
                         app_inputs *out, cow_err *e);
void app_inputs_release(app_inputs *in);

/* One line (caller frees): "steady: probe-first-try.csv:1 refused: latency
 * column ... Do: ..." for a sink of answer.h. */
char *app_input_line(const app_input *in, int sink);
/* The kind in a table's "what" cell: "refused", "not recognised",
 * "rejected lines", "year guessed". */
const char *app_input_kind_word(int kind);
/* "1 file refused, 1 not recognised, 0 with rejected lines" (caller frees). */
char *app_inputs_count_line(const app_inputs *in);

#endif
