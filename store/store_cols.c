/* store_cols.c -- row structs bound by their column tables (store_int.h). */
#include <stdint.h>

#include "store_int.h"

static size_t col_size(enum col_type t)
{
    switch (t) {
    case COL_INT: return sizeof(int);
    case COL_I64:
    case COL_T:
    case COL_STEP: return sizeof(int64_t);
    case COL_DBL:
    case COL_NUM: return sizeof(double);
    case COL_TEXT:
    case COL_STR0: return sizeof(const char *);
    case COL_NZ: return sizeof(long);
    }
    return 0;
}

size_t store_cols_bad(const col_desc *c, size_t n)
{
    size_t i;
    for (i = 0; i < n && c[i].size == col_size(c[i].type); i++)
        ;
    return i;
}

int store_bind_cols(sqlite3_stmt *q, int first, const void *row, const col_desc *c, size_t n,
                    const char *what, cow_err *e)
{
    const char *base = row;
    size_t i;

    if ((i = store_cols_bad(c, n)) < n)
        return COW_FAIL(e, COW_EINTERNAL, "%s: column %zu: field of %zu bytes read "
                        "as %zu", what, i + (size_t)first, c[i].size, col_size(c[i].type));
    for (i = 0; i < n; i++) {
        const void *f = base + c[i].off;
        int k = (int)i + first;
        switch (c[i].type) {
        case COL_INT: sqlite3_bind_int(q, k, *(const int *)f); break;
        case COL_I64: sqlite3_bind_int64(q, k, *(const int64_t *)f); break;
        case COL_DBL: sqlite3_bind_double(q, k, *(const double *)f); break;
        case COL_NUM: bind_num(q, k, *(const double *)f); break;
        case COL_TEXT: bind_text(q, k, *(const char *const *)f); break;
        case COL_STR0: {
            const char *t = *(const char *const *)f;
            bind_text(q, k, t ? t : "");
            break;
        }
        case COL_T: bind_t(q, k, *(const int64_t *)f); break;
        case COL_STEP: {
            int64_t t = *(const int64_t *)f;
            bind_t(q, k, t == INT64_MIN ? 0 : t);
            break;
        }
        case COL_NZ:
            if (*(const long *)f)
                sqlite3_bind_int64(q, k, *(const long *)f);
            else
                sqlite3_bind_null(q, k);
            break;
        }
    }
    return COW_OK;
}
