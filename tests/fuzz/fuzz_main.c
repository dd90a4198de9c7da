/* fuzz_main.c -- replay a fuzz corpus without libFuzzer (cJSON fuzz_main.c).
 *
 *     fuzz_replay DIR|FILE...   run LLVMFuzzerTestOneInput on every file,
 *                               walking folders recursively in name order
 *     fuzz_replay --list        print the parser names, one a line (the
 *                               fuzz run script loops over them)
 *
 * ctest runs it on tests/fuzz/corpus in every build, so under
 * COW_SANITIZE=ON every crash that ever joined the corpus is replayed under
 * ASan+UBSan. Each input is copied into a buffer of exactly its size, so a
 * parser reading one byte past the end is caught. Exit 0 when every input
 * passed, 1 when no input was found, 2 on misuse; a broken invariant or a
 * sanitizer report aborts and names the input. */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "fuzz_meta.h"
#include "mem.h"
#include "parser.h"

/* Present only in sanitizer builds: lets us name the input ASan killed us on. */
void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));

/* Deeper than any corpus layout; stops a symlink loop. */
#define REPLAY_MAX_DEPTH 8

static char replay_current[4096]; /* path of the input being replayed */
static long replay_inputs;        /* inputs replayed so far */

static void replay_say_current(void)
{
    static const char pre[] = "fuzz_replay: died on input ";
    ssize_t w = write(2, pre, sizeof(pre) - 1);
    w += write(2, replay_current, strlen(replay_current));
    w += write(2, "\n", 1);
    (void)w;
}

static void replay_on_signal(int sig)
{
    replay_say_current();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Name the input on any death; sanitizers keep their own SEGV handlers. */
static void replay_install_handlers(void)
{
    signal(SIGABRT, replay_on_signal);
    if (__sanitizer_set_death_callback != NULL) {
        __sanitizer_set_death_callback(replay_say_current);
        return;
    }
    signal(SIGSEGV, replay_on_signal);
    signal(SIGBUS, replay_on_signal);
    signal(SIGFPE, replay_on_signal);
    signal(SIGILL, replay_on_signal);
}

/* Read a whole file into an exactly sized buffer (1 byte for an empty
 * file, so the pointer is never NULL). Returns 0 or -1 with errno. */
static int replay_read(const char *path, uint8_t **out, size_t *n)
{
    FILE *fp = fopen(path, "rb");
    uint8_t *buf;
    long len;

    if (fp == NULL)
        return -1;
    if (fseek(fp, 0, SEEK_END) != 0 || (len = ftell(fp)) < 0 ||
        fseek(fp, 0, SEEK_SET) != 0) {
        fclose(fp);
        return -1;
    }
    buf = xmalloc(len > 0 ? (size_t)len : 1);
    if (len > 0 && fread(buf, 1, (size_t)len, fp) != (size_t)len) {
        free(buf);
        fclose(fp);
        return -1;
    }
    fclose(fp);
    *out = buf;
    *n = (size_t)len;
    return 0;
}

static int replay_file(const char *path)
{
    uint8_t *buf;
    size_t n;

    if (replay_read(path, &buf, &n) != 0) {
        fprintf(stderr, "fuzz_replay: cannot read %s\n", path);
        return -1;
    }
    snprintf(replay_current, sizeof(replay_current), "%s", path);
    cow_fuzz_input_name = replay_current;
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    replay_inputs++;
    return 0;
}

static int replay_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_path(const char *path, int depth);

/* Every entry of a folder except dot files, in name order. */
static int replay_dir(const char *path, int depth)
{
    DIR *d = opendir(path);
    struct dirent *de;
    char **names = NULL;
    size_t n = 0, cap = 0, i;
    int rc = 0;

    if (d == NULL) {
        fprintf(stderr, "fuzz_replay: cannot open folder %s\n", path);
        return -1;
    }
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        names = xgrow(names, sizeof(char *), n + 1, &cap);
        names[n++] = xstrdup(de->d_name);
    }
    closedir(d);
    if (n > 0)
        qsort(names, n, sizeof(char *), replay_cmp);
    for (i = 0; i < n; i++) {
        char sub[4096];
        snprintf(sub, sizeof(sub), "%s/%s", path, names[i]);
        if (rc == 0)
            rc = replay_path(sub, depth + 1);
        free(names[i]);
    }
    free(names);
    return rc;
}

static int replay_path(const char *path, int depth)
{
    struct stat st;

    if (stat(path, &st) != 0) {
        fprintf(stderr, "fuzz_replay: no such file or folder: %s\n", path);
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        if (depth >= REPLAY_MAX_DEPTH) {
            fprintf(stderr, "fuzz_replay: %s: folders nested too deep\n", path);
            return -1;
        }
        return replay_dir(path, depth);
    }
    return S_ISREG(st.st_mode) ? replay_file(path) : 0;
}

int main(int argc, char **argv)
{
    int i;

    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        const cow_parser *const *list = parser_list();
        const char *const *m;
        for (i = 0; list[i] != NULL; i++)
            printf("%s\n", list[i]->name);
        for (m = fz_meta_names(); *m; m++)
            printf("%s\n", *m);
        return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
    }
    if (argc < 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: fuzz_replay DIR|FILE...\n"
                        "       fuzz_replay --list\n");
        return 2;
    }
    replay_install_handlers();
    for (i = 1; i < argc; i++)
        if (replay_path(argv[i], 0) != 0)
            return 1;
    if (replay_inputs == 0) {
        fprintf(stderr, "fuzz_replay: no inputs under the given paths\n");
        return 1;
    }
    printf("fuzz_replay: %ld inputs passed every parser\n", replay_inputs);
    return 0;
}
