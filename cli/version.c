/* version.c -- `cowtail --version`: cowtail's version (and the git
 * revision it was built from, when built from a checkout) and the versions
 * of the libraries it runs with, asked of the libraries themselves. */
#include <cjson/cJSON.h>
#include <stdio.h>

#include "cli.h"
#include "cow_gitrev.h"
#include "png.h"
#include "store.h"
#include "xlsx.h"

void cli_print_version(FILE *fp)
{
    if (COW_GIT_REV[0])
        fprintf(fp, "cowtail %s (git %s)\n", COW_VERSION, COW_GIT_REV);
    else
        fprintf(fp, "cowtail %s\n", COW_VERSION);
    fprintf(fp, "SQLite %s\n", store_sqlite_version());
    fprintf(fp, "cJSON %s\n", cJSON_Version());
    fprintf(fp, "cairo %s\n", png_cairo_version());
    fprintf(fp, "libxlsxwriter %s\n", xlsx_lib_version());
}
