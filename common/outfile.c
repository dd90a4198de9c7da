/* outfile.c -- temporary file beside the target, then rename (outfile.h). */
#define _GNU_SOURCE /* mkostemp */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mem.h"

char *outfile_join(const char *dir, const char *name)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    return xasprintf("%.*s/%s", (int)n, dir, name);
}

int outfile_make_dir(const char *dir, int parents, cow_err *e)
{
    char *tmp = xstrdup(dir);
    size_t i;
    int err = 0;

    for (i = 1; parents && tmp[i] && err == 0; i++)
        if (tmp[i] == '/') {
            tmp[i] = '\0';
            if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
                err = errno;
            tmp[i] = '/';
        }
    if (err == 0 && mkdir(tmp, 0777) != 0 && errno != EEXIST)
        err = errno;
    free(tmp);
    if (err != 0)
        return COW_FAIL(e, COW_EIO, "%s: cannot create the folder: %s", dir, strerror(err));
    return COW_OK;
}

int outfile_open(cow_outfile *o, const char *path, cow_err *e)
{
    mode_t mask;
    int fd, err;

    memset(o, 0, sizeof(*o));
    /* mkostemp opens with O_CREAT | O_EXCL: a new file, never a link's
     * target, in the target's own folder (so the rename stays there) */
    o->tmp = xasprintf("%s.tmp-XXXXXX", path);
    if ((fd = mkostemp(o->tmp, O_CLOEXEC)) < 0) {
        err = errno;
        free(o->tmp);
        o->tmp = NULL;
        cow_err_at(e, path, 0, 0);
        return COW_FAIL(e, COW_EIO, "cannot create: %s (check that the folder "
                        "exists and is writable)", strerror(err));
    }
    mask = umask(0); /* reading the umask means setting it: restore */
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0 || (o->fp = fdopen(fd, "w")) == NULL) {
        err = errno;
        close(fd);
        unlink(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
        cow_err_at(e, path, 0, 0);
        return COW_FAIL(e, COW_EIO, "cannot create: %s", strerror(err));
    }
    o->path = xstrdup(path);
    return COW_OK;
}

static void release(cow_outfile *o)
{
    free(o->tmp);
    free(o->path);
    memset(o, 0, sizeof(*o));
}

int outfile_commit(cow_outfile *o, cow_err *e)
{
    int err = 0;
    if (o->fp != NULL && fclose(o->fp) != 0)
        err = errno;
    o->fp = NULL;
    if (err == 0 && rename(o->tmp, o->path) != 0)
        err = errno;
    if (err != 0) {
        unlink(o->tmp);
        cow_err_at(e, o->path, 0, 0);
        COW_FAIL(e, COW_EIO, "cannot write: %s", strerror(err));
        release(o);
        return COW_EIO;
    }
    release(o);
    return COW_OK;
}

void outfile_abort(cow_outfile *o)
{
    if (o->fp != NULL)
        fclose(o->fp);
    if (o->tmp != NULL)
        unlink(o->tmp);
    release(o);
}
