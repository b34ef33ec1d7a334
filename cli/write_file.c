/* Writing a report or a trace to a path the user named: whole or not at all where the path is
 * (or will be) a regular file, straight through where it is a device, a FIFO or a socket, and
 * through symbolic links to what they name, never replacing the link or the node. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "sim/utf8.h"

/* The temporary file being written, removed if a signal that ends the process arrives
 * meanwhile (unlink and raise are async-signal-safe): Ctrl-C and Ctrl-\ (SIGINT, SIGQUIT), kill
 * and a closed terminal (SIGTERM, SIGHUP), and SIGPIPE, which a reader that went away sends to
 * a writer of the same process's standard output. */
static char *volatile pending;

static void drop_pending(int sig)
{
    char *p = pending;
    if (p)
        unlink(p);
    signal(sig, SIG_DFL);
    raise(sig);
}

static const int caught[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
#define N_CAUGHT (sizeof caught / sizeof caught[0])

static int ignored(const struct sigaction *a)
{
    return !(a->sa_flags & SA_SIGINFO) && a->sa_handler == SIG_IGN;
}

static void guard(char *tmp, struct sigaction *old)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = drop_pending;
    sigemptyset(&sa.sa_mask);
    pending = tmp;
    /* A signal the process ignores stays ignored (nohup's SIGHUP; SIGINT and SIGQUIT of a job
     * a shell started in the background): catching it would end a process meant to live on. */
    for (size_t i = 0; i < N_CAUGHT; i++)
        if (sigaction(caught[i], NULL, &old[i]) == 0 && !ignored(&old[i]))
            sigaction(caught[i], &sa, NULL);
}

static void unguard(const struct sigaction *old)
{
    for (size_t i = 0; i < N_CAUGHT; i++)
        sigaction(caught[i], &old[i], NULL);
    pending = NULL;
}

/* Write all of data to fd, retrying short writes and EINTR. 0, or -1 with errno set. */
static int write_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t k = write(fd, data, len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        data += k;
        len -= (size_t)k;
    }
    return 0;
}

/* Through a temporary file next to path, fsync'd before the rename so that a crash leaves the
 * old file or the new one, never an empty one. */
static int write_renamed(const char *path, const char *data, size_t len, char *why, size_t n)
{
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 16);
    if (!tmp) {
        st_snprintf(why, n, "out of memory");
        return -1;
    }
    /* mkstemp's template beside it: PATH.tmp. and six random characters, or, where that name
     * would pass the longest a file's name may be (NAME_MAX: 255 on Linux) and PATH's does
     * not, .strata. and the six in its folder */
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    if (strlen(base) + 11 <= 255)
        snprintf(tmp, plen + 16, "%s.tmp.XXXXXX", path);
    else
        snprintf(tmp, plen + 16, "%.*s.strata.XXXXXX", (int)(base - path), path);
    /* Signals are held while the temporary file is made, so the handler never sees the name
     * before mkstemp has filled it in (it would unlink a file named by the unfilled template). */
    sigset_t all, prev;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &prev);
    int fd = mkstemp(tmp);
    struct sigaction old[N_CAUGHT];
    if (fd >= 0)
        guard(tmp, old);
    sigprocmask(SIG_SETMASK, &prev, NULL);
    if (fd < 0) {
        st_snprintf(why, n, "cannot create a temporary file next to '%s': %s", path,
                    strerror(errno));
        free(tmp);
        return -1;
    }
    /* mkstemp makes the file 0600; give the report the mode the file it replaces had, or the
     * one a plain fopen would give a new file. */
    mode_t mask = umask(0);
    umask(mask);
    struct stat st;
    mode_t mode = stat(path, &st) == 0 ? st.st_mode & 07777 : 0666 & ~mask;
    int ok = fchmod(fd, mode) == 0 && write_all(fd, data, len) == 0 && fsync(fd) == 0;
    int err = errno;
    ok = (close(fd) == 0) && ok;
    if (ok && rename(tmp, path) == 0) {
        unguard(old);
        free(tmp);
        return 0;
    }
    st_snprintf(why, n, "cannot write '%s': %s", path, strerror(ok ? errno : err));
    unlink(tmp);
    unguard(old);
    free(tmp);
    return -1;
}

/* Straight into what is there: a terminal, /dev/null, a FIFO a reader holds open. */
static int write_through(const char *path, const char *data, size_t len, char *why, size_t n)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0) {
        st_snprintf(why, n, "cannot open '%s': %s", path, strerror(errno));
        return -1;
    }
    int ok = write_all(fd, data, len) == 0;
    int err = errno;
    if (close(fd) != 0 && ok) {
        ok = 0;
        err = errno;
    }
    if (!ok)
        st_snprintf(why, n, "cannot write '%s': %s", path, strerror(err));
    return ok ? 0 : -1;
}

int st_cli_write_atomic(const char *path, const char *data, size_t len, char *why, size_t n)
{
    struct stat st;
    if (lstat(path, &st) != 0) /* a new path */
        return write_renamed(path, data, len, why, n);
    if (S_ISDIR(st.st_mode)) {
        st_snprintf(why, n, "cannot write '%s': it is a directory", path);
        return -1;
    }
    if (S_ISREG(st.st_mode))
        return write_renamed(path, data, len, why, n);
    if (!S_ISLNK(st.st_mode))
        return write_through(path, data, len, why, n);
    /* A link: write what it names, renaming over it only when that is a regular file. */
    char *target = realpath(path, NULL);
    if (!target || stat(target, &st) != 0 || !S_ISREG(st.st_mode)) {
        free(target);
        return write_through(path, data, len, why, n);
    }
    int rc = write_renamed(target, data, len, why, n);
    free(target);
    return rc;
}
