/* commands.h -- one entry point and one usage array per subcommand
 * (cli/cmd_<name>.c); main.c lists them in its command table. */
#ifndef COW_CLI_COMMANDS_H
#define COW_CLI_COMMANDS_H

int cmd_ingest(int argc, char **argv);
extern const char *const cmd_ingest_usage[];
int cmd_runs(int argc, char **argv);
extern const char *const cmd_runs_usage[];
int cmd_analyze(int argc, char **argv);
extern const char *const cmd_analyze_usage[];
int cmd_doctor(int argc, char **argv);
extern const char *const cmd_doctor_usage[];
int cmd_tradeoff(int argc, char **argv);
extern const char *const cmd_tradeoff_usage[];
int cmd_diff(int argc, char **argv);
extern const char *const cmd_diff_usage[];
int cmd_check(int argc, char **argv);
extern const char *const cmd_check_usage[];
int cmd_rejects(int argc, char **argv);
extern const char *const cmd_rejects_usage[];
int cmd_report(int argc, char **argv);
extern const char *const cmd_report_usage[];

int cmd_merge(int argc, char **argv);
extern const char *const cmd_merge_usage[];
int cmd_capture(int argc, char **argv);
extern const char *const cmd_capture_usage[];
int cmd_export(int argc, char **argv);
extern const char *const cmd_export_usage[];

#endif
