/* Sweep points on forked worker processes, each point isolated: the parent hands a worker one
 * point at a time ("POINT\n") on the worker's own socket and the worker sends its row back
 * ("POINT\tCELL\t...\n") before it gets the next, so the parent knows which point each worker is
 * on. A worker that dies (a crash, the OOM killer, a kill from outside) loses that point alone:
 * it becomes a failed row naming the signal, a new worker takes the slot, and the rest goes on. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/sweep.h"
#include "sim/progress.h"
#include "sim/xalloc.h"

typedef struct worker {
    pid_t pid; /* 0: no process in this slot */
    int fd;    /* the parent's end of its socket; -1: none */
    int busy;  /* computing `point` */
    int shut;  /* told there is no more work */
    size_t point;
    char *buf; /* what it sent that is not yet a whole line */
    size_t n, cap;
} worker;

typedef struct pool {
    const st_sweep *sw;
    const size_t *left;
    size_t n_left, next; /* left[next..] is not yet handed out */
    worker *ws;
    int n_ws;
    const st_sweep_sink *sink;
    int stop;           /* the sink stopped the sweep */
    int bad;            /* a worker sent a malformed row */
    int err;            /* errno of a failed socketpair or fork */
    size_t idle_deaths; /* workers that died holding no point */
} pool;

/* Workers that die before taking a point lose nothing, but a worker that cannot live long
 * enough to take one would be forked again forever: past this many such deaths per slot, no
 * more are forked. */
#define MAX_IDLE_DEATHS 16

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

/* The next point the parent hands over, or -1 at the end of its work (or of the parent). */
static long long next_point(int fd)
{
    char cmd[32];
    size_t n = 0;
    while (n + 1 < sizeof cmd) {
        ssize_t got = read(fd, cmd + n, 1); /* a byte at a time: the parent sends one line */
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        if (cmd[n] == '\n') {
            cmd[n] = '\0';
            return strtoll(cmd, NULL, 10);
        }
        n++;
    }
    return -1;
}

static struct sigaction child_act[2];
static int child_act_set;

void st_sweep_workers_signals(const struct sigaction *sigint, const struct sigaction *sigterm)
{
    child_act_set = sigint && sigterm;
    if (child_act_set) {
        child_act[0] = *sigint;
        child_act[1] = *sigterm;
    }
}

/* The child's SIGINT and SIGTERM as they were before the parent's handler (which says where the
 * sweep stands, once), then let through: spawn held them across fork, so that a Ctrl-C before
 * this never runs the parent's handler in the child. */
static void child_signals(const sigset_t *mask)
{
    static const int sigs[] = {SIGINT, SIGTERM};
    for (int i = 0; i < 2; i++) {
        struct sigaction sa;
        if (child_act_set) {
            sa = child_act[i];
        } else if (sigaction(sigs[i], NULL, &sa) || sa.sa_handler != SIG_IGN) {
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = SIG_DFL;
            sigemptyset(&sa.sa_mask);
        }
        sigaction(sigs[i], &sa, NULL);
    }
    sigprocmask(SIG_SETMASK, mask, NULL);
}

/* The child: the points it is handed, a row a line; exits without returning. */
static void child(const st_sweep *sw, int fd, const sigset_t *mask)
{
    st_progress_set(NULL, NULL); /* its models' long loops never draw on the parent's terminal */
    child_signals(mask);
    char **cells = st_xcalloc(sw->n_cols, sizeof *cells);
    long long p;
    int bad = 0;
    while (!bad && (p = next_point(fd)) >= 0) {
        st_sweep_point(sw, (size_t)p, cells);
        char *line = st_sweep_cells_line(cells, sw->n_cols), head[32];
        int hl = snprintf(head, sizeof head, "%lld\t", p);
        bad = write_all(fd, head, (size_t)hl) || write_all(fd, line, strlen(line));
        free(line);
        for (size_t c = 0; c < sw->n_cols; c++)
            free(cells[c]);
    }
    free(cells);
    _exit(bad); /* 1: the parent is gone */
}

/* Fork a worker into slot w. Returns 0, or -1 with the reason in pl->err. */
static int spawn(pool *pl, worker *w)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
        pl->err = errno;
        return -1;
    }
    fflush(NULL); /* nothing buffered is written twice */
    sigset_t held, mask;
    sigemptyset(&held);
    sigaddset(&held, SIGINT);
    sigaddset(&held, SIGTERM);
    sigprocmask(SIG_BLOCK, &held, &mask); /* until the child has its own actions */
    pid_t pid = fork();
    if (pid != 0)
        sigprocmask(SIG_SETMASK, &mask, NULL);
    if (pid < 0) {
        pl->err = errno;
        close(sv[0]);
        close(sv[1]);
        return -1;
    }
    if (pid == 0) {
        /* Only its own socket: a copy of another worker's would keep that worker from ever
         * seeing its end. */
        close(sv[0]);
        for (int o = 0; o < pl->n_ws; o++)
            if (pl->ws[o].fd >= 0)
                close(pl->ws[o].fd);
        child(pl->sw, sv[1], &mask);
    }
    close(sv[1]);
    *w = (worker){.pid = pid, .fd = sv[0], .buf = w->buf, .cap = w->cap};
    return 0;
}

/* What ended a worker, as a failed row's reason (malloc'd). */
static char *death(int status)
{
    static const struct {
        int sig;
        const char *name;
    } names[] = {{SIGKILL, "SIGKILL"}, {SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"},
                 {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},   {SIGILL, "SIGILL"},
                 {SIGTERM, "SIGTERM"}, {SIGINT, "SIGINT"},   {SIGHUP, "SIGHUP"},
                 {SIGQUIT, "SIGQUIT"}, {SIGPIPE, "SIGPIPE"}, {SIGXCPU, "SIGXCPU"},
                 {SIGXFSZ, "SIGXFSZ"}, {SIGSYS, "SIGSYS"},   {SIGTRAP, "SIGTRAP"},
                 {SIGUSR1, "SIGUSR1"}, {SIGUSR2, "SIGUSR2"}, {SIGALRM, "SIGALRM"}};
    char buf[160];
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        const char *name = "";
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (names[i].sig == sig)
                name = names[i].name;
        snprintf(buf, sizeof buf,
                 "the worker process computing this point was killed by signal %d%s%s%s", sig,
                 *name ? " (" : "", name, *name ? ")" : "");
    } else if (WIFEXITED(status) && WEXITSTATUS(status)) {
        snprintf(buf, sizeof buf,
                 "the worker process computing this point exited with status %d before its row",
                 WEXITSTATUS(status));
    } else {
        snprintf(buf, sizeof buf, "the worker process computing this point ended before its row");
    }
    return st_xstrdup(buf);
}

/* Slot w's process has ended (its socket is at its end) or is to end: reap it, and hand the
 * point it was on to the sink as a failed row. */
static void reap(pool *pl, worker *w)
{
    int status = 0;
    close(w->fd);
    w->fd = -1;
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
        ;
    w->pid = 0;
    w->n = 0; /* a row cut short by its death is not a row */
    if (!w->busy)
        return;
    w->busy = 0;
    char *why = death(status), **cells = st_xcalloc(pl->sw->n_cols, sizeof *cells);
    st_sweep_point_failed(pl->sw, w->point, why, cells);
    free(why);
    if (!pl->stop && pl->sink->row(pl->sink->ctx, w->point, cells, 1))
        pl->stop = 1;
}

/* Give idle worker w its next point, or tell it there is none. A worker that died while idle
 * leaves the point to the others: it never had it. */
static void hand_out(pool *pl, worker *w)
{
    if (w->fd < 0 || w->busy || w->shut)
        return;
    if (pl->next >= pl->n_left || pl->stop || pl->bad) {
        shutdown(w->fd, SHUT_WR); /* it reads its end and exits */
        w->shut = 1;
        return;
    }
    char cmd[32];
    int len = snprintf(cmd, sizeof cmd, "%zu\n", pl->left[pl->next]);
    if (send(w->fd, cmd, (size_t)len, MSG_NOSIGNAL) != len) { /* never SIGPIPE on a dead one */
        reap(pl, w);
        if (++pl->idle_deaths > MAX_IDLE_DEATHS * (size_t)pl->n_ws)
            pl->err = ECHILD;
        return;
    }
    w->point = pl->left[pl->next++];
    w->busy = 1;
}

/* Hand every whole line in w's buffer to the sink: the row of the point it was given. */
static void drain(pool *pl, worker *w)
{
    char *start = w->buf, *nl;
    while (!pl->bad && (nl = memchr(start, '\n', w->n - (size_t)(start - w->buf)))) {
        *nl = '\0';
        char *tab = strchr(start, '\t'), *end = NULL;
        unsigned long long p = strtoull(start, &end, 10);
        char **cells = tab && end == tab && w->busy && p == w->point
                           ? st_sweep_cells_parse(tab + 1, pl->sw->n_cols)
                           : NULL;
        if (!cells) {
            pl->bad = 1;
            break;
        }
        w->busy = 0;
        if (pl->stop || pl->sink->row(pl->sink->ctx, (size_t)p, cells, 0))
            pl->stop = 1;
        start = nl + 1;
    }
    w->n -= (size_t)(start - w->buf);
    memmove(w->buf, start, w->n);
}

/* Read what worker w sent; at its end, reap it. */
static void take(pool *pl, worker *w)
{
    w->buf = st_xgrow(w->buf, 1, w->n + 65536, &w->cap);
    ssize_t got = read(w->fd, w->buf + w->n, w->cap - w->n);
    if (got < 0 && errno == EINTR)
        return;
    if (got <= 0) {
        reap(pl, w);
        return;
    }
    w->n += (size_t)got;
    drain(pl, w);
}

/* Fill the empty slots while there are points to hand out. Returns the number of workers. */
static int staff(pool *pl)
{
    int live = 0;
    for (int i = 0; i < pl->n_ws; i++) {
        worker *w = &pl->ws[i];
        if (w->fd < 0 && pl->next < pl->n_left && !pl->stop && !pl->bad && !pl->err)
            spawn(pl, w); /* a failure leaves the slot empty; the others go on */
        hand_out(pl, w);
        live += w->fd >= 0;
    }
    return live;
}

/* Until every point has its row and every worker has ended. Returns 0, or -1. */
static int run(pool *pl)
{
    struct pollfd *pf = st_xcalloc((size_t)pl->n_ws, sizeof *pf);
    int live;
    while ((live = staff(pl)) > 0) {
        for (int i = 0; i < pl->n_ws; i++)
            pf[i] = (struct pollfd){.fd = pl->ws[i].fd, .events = POLLIN};
        int got = poll(pf, (nfds_t)pl->n_ws, pl->sink->tick ? 250 : -1);
        if (got < 0 && errno != EINTR)
            break;
        for (int i = 0; got > 0 && i < pl->n_ws; i++)
            if (pl->ws[i].fd >= 0 && (pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
                take(pl, &pl->ws[i]);
        if (pl->sink->tick)
            pl->sink->tick(pl->sink->ctx);
        if (pl->stop || pl->bad)
            break;
    }
    free(pf);
    return live || pl->stop || pl->bad || pl->next < pl->n_left ? -1 : 0;
}

int st_sweep_workers(const st_sweep *sw, const size_t *left, size_t n_left, int workers,
                     const st_sweep_sink *sink, char *why, size_t n)
{
    if ((size_t)workers > n_left)
        workers = n_left ? (int)n_left : 1;
    pool pl = {.sw = sw, .left = left, .n_left = n_left, .n_ws = workers, .sink = sink};
    pl.ws = st_xcalloc((size_t)workers, sizeof *pl.ws);
    for (int w = 0; w < workers; w++)
        pl.ws[w].fd = -1;
    int rc = n_left ? run(&pl) : 0;
    if (rc && pl.bad)
        snprintf(why, n, "a worker sent a malformed row");
    else if (rc && !pl.stop) /* a stop's reason is the sink's */
        snprintf(why, n, "cannot start a worker process: %s",
                 pl.err == ECHILD ? "they keep ending before they take a point"
                                  : strerror(pl.err ? pl.err : EAGAIN));
    for (int w = 0; w < workers; w++) {
        worker *k = &pl.ws[w];
        if (k->fd >= 0) { /* only after a stop: the others have ended */
            kill(k->pid, SIGTERM);
            k->busy = 0; /* its point is not a failure of the point */
            reap(&pl, k);
        }
        free(k->buf);
    }
    free(pl.ws);
    return rc;
}
