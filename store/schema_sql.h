/* schema_sql.h -- the schemas/NNN_*.sql migrations, embedded at build time.
 * cow_migrations[i] brings the database from user_version i to i + 1. */
#ifndef COW_STORE_SCHEMA_SQL_H
#define COW_STORE_SCHEMA_SQL_H

extern const char *const cow_migrations[];
extern const int cow_migration_count;

#endif
