/* store_lock.c -- which process holds the database's write lock (store.h).
 *
 * SQLite's unix VFS locks with POSIX advisory record locks (fcntl F_SETLK):
 * in WAL mode the write lock is byte 120 of the -shm file (the first of the
 * eight wal-index lock slots, UNIX_SHM_BASE in os_unix.c); in rollback
 * mode it is the RESERVED byte 0x40000001 of the database file, with
 * PENDING at 0x40000000 and the 510 SHARED bytes after RESERVED (an
 * EXCLUSIVE holder has them all). fcntl(F_GETLK) on those bytes names a
 * process holding a conflicting lock.
 *
 * The query runs in a child process. A process's POSIX locks are released
 * when it closes *any* descriptor of the file, so opening and closing the
 * database here would drop the locks SQLite holds for this connection;
 * the child's descriptors and locks are its own. The child sees this
 * process's locks as another's: its parent's pid is never reported. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mem.h"
#include "store.h"

#define WAL_WRITE_LOCK_BYTE 120
#define PENDING_BYTE 0x40000000L
#define RESERVED_BYTE (PENDING_BYTE + 1)
#define SHARED_FIRST (PENDING_BYTE + 2)
#define SHARED_SIZE 510

/* The pid of a process other than `self` holding a lock on [start,
 * start+len) of fd that a write lock would conflict with; 0 when none. */
static pid_t holder_of(int fd, off_t start, off_t len, pid_t self)
{
    struct flock fl;
    memset(&fl, 0, sizeof(fl));
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    fl.l_start = start;
    fl.l_len = len;
    if (fd < 0 || fcntl(fd, F_GETLK, &fl) != 0 || fl.l_type == F_UNLCK ||
        fl.l_pid == self)
        return 0;
    return fl.l_pid;
}

/* In the child: only async-signal-safe calls (the parent may have threads). */
static pid_t child_query(const char *shm, const char *db, pid_t parent)
{
    pid_t p = 0;
    int fd = open(shm, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
        p = holder_of(fd, WAL_WRITE_LOCK_BYTE, 1, parent);
        close(fd);
    }
    if (p == 0 && (fd = open(db, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) >= 0) {
        p = holder_of(fd, RESERVED_BYTE, 1, parent);
        if (p == 0)
            p = holder_of(fd, PENDING_BYTE, 1, parent);
        if (p == 0)
            p = holder_of(fd, SHARED_FIRST, SHARED_SIZE, parent);
        close(fd);
    }
    return p;
}

/* /proc/PID/<what> into buf (NUL-terminated); its length, or -1. */
static long read_proc(pid_t pid, const char *what, char *buf, size_t cap)
{
    char *path = xasprintf("/proc/%ld/%s", (long)pid, what);
    FILE *f = fopen(path, "r");
    size_t n;

    free(path);
    if (f == NULL)
        return -1;
    n = fread(buf, 1, cap - 1, f);
    fclose(f);
    buf[n] = '\0';
    return (long)n;
}

/* What the process calls itself: its comm, and for cowtail its command
 * ("cowtail ingest"). */
static void process_name(pid_t pid, char *out, size_t cap)
{
    char buf[256];
    size_t n;

    out[0] = '\0';
    if (read_proc(pid, "comm", buf, sizeof(buf)) < 0)
        return;
    buf[strcspn(buf, "\n")] = '\0';
    snprintf(out, cap, "%.20s", buf); /* comm is at most 15 bytes */
    if (strcmp(buf, "cowtail") != 0 || read_proc(pid, "cmdline", buf, sizeof(buf)) < 0)
        return;
    /* argv[0] NUL argv[1] NUL ...: the command is argv[1] */
    n = strlen(buf) + 1;
    if (n < sizeof(buf) && buf[n] != '\0' && buf[n] != '-')
        snprintf(out, cap, "cowtail %.40s", buf + n);
}

int store_lock_holder(const char *path, char *out, size_t cap)
{
    char *shm, *db, name[80]; /* name: "cowtail CMD", CMD cut at 40 (process_name) */
    int fds[2], status;
    pid_t child, self = getpid(), holder = 0;
    ssize_t got;

    out[0] = '\0';
    if (strcmp(path, ":memory:") == 0 || path[0] == '\0')
        return 0;
    if (pipe(fds) != 0)
        return 0;
    shm = xasprintf("%s-shm", path);
    db = xstrdup(path);
    if ((child = fork()) < 0) {
        close(fds[0]);
        close(fds[1]);
        free(shm);
        free(db);
        return 0;
    }
    if (child == 0) {
        pid_t p;
        close(fds[0]);
        p = child_query(shm, db, self);
        if (write(fds[1], &p, sizeof(p)) != (ssize_t)sizeof(p))
            _exit(1);
        _exit(0);
    }
    free(shm);
    free(db);
    close(fds[1]);
    do
        got = read(fds[0], &holder, sizeof(holder));
    while (got < 0 && errno == EINTR);
    close(fds[0]);
    while (waitpid(child, &status, 0) < 0 && errno == EINTR)
        ;
    if (got != (ssize_t)sizeof(holder) || holder <= 0)
        return 0;
    process_name(holder, name, sizeof(name));
    if (name[0])
        snprintf(out, cap, "pid %ld (%s)", (long)holder, name);
    else
        snprintf(out, cap, "pid %ld", (long)holder);
    return 1;
}
