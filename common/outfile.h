/* outfile.h -- write an output file without ever writing through a link
 * planted where it goes, and without leaving a half-written file behind.
 *
 *     cow_outfile o;
 *     if (outfile_open(&o, "out/summary.md", &e)) ...;   o.fp is open
 *     fprintf(o.fp, ...);
 *     rc = ok ? outfile_commit(&o, &e) : (outfile_abort(&o), rc);
 *
 * The bytes go to a new temporary file beside the target (created with
 * O_EXCL, so never through an existing link), with the permissions a plain
 * fopen would give; commit renames it over the target, which replaces a
 * link itself rather than what it points to.
 *
 * This is the one way cowtail writes a file: report files, charts, the
 * workbook and export files all come through here (a test greps the tree
 * for any other fopen for writing). Their paths are built with
 * outfile_join, never in a fixed buffer that a long --out would cut. */
#ifndef COW_COMMON_OUTFILE_H
#define COW_COMMON_OUTFILE_H

#include <stdio.h>

#include "err.h"

typedef struct cow_outfile {
    FILE *fp;     /* the temporary file, open for writing (may be closed and
                     set NULL by a caller that writes it by name) */
    char *tmp;    /* its name */
    char *path;   /* the target */
} cow_outfile;

int outfile_open(cow_outfile *o, const char *path, cow_err *e);
/* "dir/name" in a new string (free it): as long as it needs to be. */
char *outfile_join(const char *dir, const char *name);
/* Create the folder dir and, with parents, the folders above it. */
int outfile_make_dir(const char *dir, int parents, cow_err *e);
/* Close (if open) and rename over the target; frees o. */
int outfile_commit(cow_outfile *o, cow_err *e);
/* Close and remove the temporary file; frees o. */
void outfile_abort(cow_outfile *o);

#endif
