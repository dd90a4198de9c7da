/* servers.h -- which server each server-side file of a run came from.
 *
 * A capture may hold several servers (a primary and its replicas). After
 * a run's files landed, every server-side file (server log, INFO dumps,
 * CONFIG GET output and redis.conf, LATENCY output, smaps and status
 * snapshots) is attributed to a server, and the run's servers are stored
 * (servers, server_files):
 *  1. From content: what identifies a server (INFO run_id, process_id,
 *     tcp_port; a log's pid with its startup banner's port; CONFIG port)
 *     joins the files that share any of it into one server. A log is
 *     split per pid: a fork child's pid (from "started by pid N", or a
 *     pid whose lines are all C) belongs to the server that forked it.
 *  2. A server is a replica when run.json's "files" roles say so for one
 *     of its files; else when its content does (INFO role:slave, a log's
 *     S lines or MASTER <-> REPLICA sync lines); else when every file of
 *     it is named replica* (or lies in a replica*\/ folder); else primary.
 *  3. A server-side file that names no server (smaps_rollup, LATENCY
 *     replies, a config without a port) goes by run.json's role, then its
 *     name (replica*), to the first server of that role; otherwise to the
 *     first primary. When there is none of that role, one is made, known
 *     only by its files.
 * Host files (sysctl, THP, meminfo, loadavg) and client files (latency
 * samples, memory and throughput series) belong to no server. */
#ifndef COW_APP_SERVERS_H
#define COW_APP_SERVERS_H

#include <stddef.h>

#include "store.h"

/* The attribution (1-3) of files f[0..nf) (in id order) from what they
 * say, o[0..no); declared[i] and named[i] are f[i]'s role from run.json
 * and from its name ("primary", "replica" or NULL; the arrays may be
 * NULL). Fills *sv (seq 1.., primary first) and *lk (caller frees both). */
void servers_attribute(const cow_srv_file *f, size_t nf, const cow_srv_obs *o,
                       size_t no, const char *const *declared,
                       const char *const *named, cow_server_row **sv, size_t *ns,
                       cow_server_link **lk, size_t *nl);

/* Attribute the files of run `run` and store its servers (one
 * transaction), saying which unless quiet; r (may be NULL) gives
 * run.json's roles and the folder that names are taken relative to. */
struct cow_capture_run;
int app_settle_servers(cow_store *st, int64_t run, const struct cow_capture_run *r,
                       int quiet, cow_err *e);

/* 1 when a file of this parser (or with per-process kernel values) is a
 * server's file. */
int servers_is_server_file(const cow_srv_file *f);

#endif
