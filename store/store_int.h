/* store_int.h -- what the store's own files share, not for other modules:
 * the connection behind a cow_store (merge.c and export.c run their own
 * statements on it). */
#ifndef COW_STORE_STORE_INT_H
#define COW_STORE_STORE_INT_H

#include <sqlite3.h>

#include "store.h"

sqlite3 *store_db(cow_store *st);

#endif
