/* Sweep points on forked worker processes: each computes a fixed share (every workers-th point
 * of the to-do list) and sends its rows on its own pipe as "POINT\tCELL\t...\n" lines; the parent
 * reads every pipe as rows come, so one slow point never holds the others' rows back. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/sweep.h"
#include "sim/xalloc.h"

typedef struct worker {
    pid_t pid;
    int fd; /* the read end; -1 once at its end */
    char *buf;
    size_t n, cap;
} worker;

static int write_all(int fd, const char *s, size_t len)
{
    while (len) {
        ssize_t w = write(fd, s, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        s += w;
        len -= (size_t)w;
    }
    return 0;
}

/* The child: its share of left, a row a line; exits without returning. */
static void child(const st_sweep *sw, const size_t *left, size_t n_left, int w, int workers, int fd)
{
    char **cells = st_xcalloc(sw->n_cols, sizeof *cells);
    int bad = 0;
    for (size_t k = (size_t)w; k < n_left && !bad; k += (size_t)workers) {
        st_sweep_point(sw, left[k], cells);
        char *line = st_sweep_cells_line(cells, sw->n_cols), head[32];
        snprintf(head, sizeof head, "%zu\t", left[k]);
        bad = write_all(fd, head, strlen(head)) || write_all(fd, line, strlen(line));
        free(line);
        for (size_t c = 0; c < sw->n_cols; c++)
            free(cells[c]);
    }
    free(cells); /* the cells array, whichever way the loop ends */
    _exit(bad);  /* 1: the parent is gone */
}

/* Hand every whole line in w's buffer to done; returns done's stop, or -1 on a bad line. */
static int drain(worker *w, const st_sweep *sw, int (*done)(void *, size_t, char **), void *ctx)
{
    char *start = w->buf, *nl;
    int rc = 0;
    while (!rc && (nl = memchr(start, '\n', w->n - (size_t)(start - w->buf)))) {
        *nl = '\0';
        char *tab = strchr(start, '\t');
        char **cells = tab ? st_sweep_cells_parse(tab + 1, sw->n_cols) : NULL;
        rc = cells ? done(ctx, strtoul(start, NULL, 10), cells) : -1;
        start = nl + 1;
    }
    w->n -= (size_t)(start - w->buf);
    memmove(w->buf, start, w->n);
    return rc;
}

static int spawn(const st_sweep *sw, const size_t *left, size_t n_left, worker *ws, int workers)
{
    fflush(NULL); /* nothing buffered is written twice */
    for (int w = 0; w < workers; w++) {
        int p[2];
        if (pipe(p))
            return -1;
        ws[w].pid = fork();
        if (ws[w].pid < 0)
            return -1;
        if (ws[w].pid == 0) {
            close(p[0]);
            for (int o = 0; o < w; o++)
                close(ws[o].fd);
            child(sw, left, n_left, w, workers, p[1]);
        }
        close(p[1]);
        ws[w].fd = p[0];
    }
    return 0;
}

/* Read every pipe until all are at their end or done stops; returns done's stop or -1. */
static int collect(worker *ws, int workers, const st_sweep *sw,
                   int (*done)(void *, size_t, char **), void *ctx)
{
    struct pollfd *pf = st_xcalloc((size_t)workers, sizeof *pf);
    int open_ = workers, rc = 0;
    while (open_ && !rc) {
        for (int w = 0; w < workers; w++)
            pf[w] = (struct pollfd){.fd = ws[w].fd, .events = POLLIN};
        if (poll(pf, (nfds_t)workers, -1) < 0 && errno != EINTR)
            rc = -1;
        for (int w = 0; w < workers && !rc; w++) {
            if (ws[w].fd < 0 || !(pf[w].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ws[w].buf = st_xgrow(ws[w].buf, 1, ws[w].n + 65536, &ws[w].cap);
            ssize_t got = read(ws[w].fd, ws[w].buf + ws[w].n, ws[w].cap - ws[w].n);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0) {
                close(ws[w].fd);
                ws[w].fd = -1;
                open_--;
                continue;
            }
            ws[w].n += (size_t)got;
            rc = drain(&ws[w], sw, done, ctx);
        }
    }
    free(pf);
    return rc;
}

int st_sweep_workers(const st_sweep *sw, const size_t *left, size_t n_left, int workers,
                     int (*done)(void *ctx, size_t p, char **cells), void *ctx, char *why, size_t n)
{
    if ((size_t)workers > n_left)
        workers = n_left ? (int)n_left : 1;
    worker *ws = st_xcalloc((size_t)workers, sizeof *ws);
    for (int w = 0; w < workers; w++)
        ws[w].fd = -1;
    int rc = spawn(sw, left, n_left, ws, workers);
    if (rc)
        snprintf(why, n, "cannot start a worker process: %s", strerror(errno));
    else if ((rc = collect(ws, workers, sw, done, ctx)))
        snprintf(why, n, "%s", rc < 0 ? "a worker sent a malformed row" : "stopped");
    for (int w = 0; w < workers; w++) {
        if (ws[w].fd >= 0)
            close(ws[w].fd);
        if (rc && ws[w].pid > 0)
            kill(ws[w].pid, SIGTERM);
        if (ws[w].pid > 0)
            waitpid(ws[w].pid, NULL, 0);
        free(ws[w].buf);
    }
    free(ws);
    return rc ? -1 : 0;
}
