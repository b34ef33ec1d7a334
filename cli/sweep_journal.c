/* The resume journal of `strata sweep -o FILE`: FILE.journal, one line per finished point, each
 * appended with one write() and fsync'd, so after any interrupt the journal holds whole rows
 * (and at worst a torn last line, which is skipped). Keyed by st_sweep_key, so a rerun of the
 * same scenario by the same build finds the points it already has, whatever grid they came
 * from. Opened once, never through a symbolic link, and only when it is a regular file. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/sweep.h"
#include "sim/xalloc.h"

char *st_sweep_cells_line(char **cells, size_t n_cols)
{
    size_t len = 1;
    for (size_t c = 0; c < n_cols; c++)
        len += strlen(cells[c]) + 1;
    char *line = st_xmalloc(len + 1), *at = line;
    for (size_t c = 0; c < n_cols; c++) {
        size_t l = strlen(cells[c]);
        memcpy(at, cells[c], l);
        at += l;
        *at++ = c + 1 < n_cols ? '\t' : '\n';
    }
    *at = '\0';
    return line;
}

char **st_sweep_cells_parse(char *line, size_t n_cols)
{
    char **cells = st_xcalloc(n_cols ? n_cols : 1, sizeof *cells);
    size_t c = 0;
    for (char *p = line;; c++) {
        char *tab = strchr(p, '\t');
        if (c >= n_cols || (!tab && c + 1 != n_cols)) {
            st_sweep_cells_free(cells, c < n_cols ? c : n_cols);
            return NULL;
        }
        if (tab)
            *tab = '\0';
        cells[c] = st_xstrdup(p);
        if (!tab)
            return cells;
        p = tab + 1;
    }
}

void st_sweep_cells_free(char **cells, size_t n_cols)
{
    for (size_t c = 0; cells && c < n_cols; c++)
        free(cells[c]);
    free(cells);
}

typedef struct keyed {
    char key[17];
    size_t p;
} keyed;

static int by_key(const void *a, const void *b)
{
    return strcmp(((const keyed *)a)->key, ((const keyed *)b)->key);
}

/* The journal's lines for the points of sw into rows (keys: sw's points' keys, sorted). */
static size_t read_rows(FILE *f, const st_sweep *sw, const keyed *keys, char ***rows, int *torn)
{
    size_t n = sw->grid->n_points, filled = 0, cap = 0;
    char *line = NULL;
    ssize_t len;
    *torn = 0;
    while ((len = getline(&line, &cap, f)) > 0) {
        *torn = line[len - 1] != '\n'; /* only the last line can be */
        if (*torn || len < 18 || line[16] != '\t')
            continue; /* torn by an interrupt, or not a row */
        line[len - 1] = '\0';
        line[16] = '\0';
        keyed want;
        memcpy(want.key, line, 17);
        keyed *hit = bsearch(&want, keys, n, sizeof *keys, by_key);
        if (!hit || rows[hit->p])
            continue;
        rows[hit->p] = st_sweep_cells_parse(line + 17, sw->n_cols);
        filled += rows[hit->p] != NULL;
    }
    free(line);
    return filled;
}

int st_sweep_journal_read(int fd, const st_sweep *sw, char ***rows, size_t *filled, char *why,
                          size_t n)
{
    int copy = dup(fd), torn = 0;
    FILE *f = copy >= 0 ? fdopen(copy, "r") : NULL;
    if (!f || fseek(f, 0, SEEK_SET) != 0) {
        snprintf(why, n, "cannot read the journal: %s", strerror(errno));
        if (f)
            fclose(f);
        else if (copy >= 0)
            close(copy);
        return -1;
    }
    size_t np = sw->grid->n_points;
    keyed *keys = st_xmalloc((np ? np : 1) * sizeof *keys);
    for (size_t p = 0; p < np; p++) {
        st_sweep_key(sw, p, keys[p].key);
        keys[p].p = p;
    }
    qsort(keys, np, sizeof *keys, by_key);
    *filled = read_rows(f, sw, keys, rows, &torn);
    int bad = ferror(f);
    free(keys);
    fclose(f);
    if (bad) {
        snprintf(why, n, "cannot read the journal: read error");
        return -1;
    }
    /* A line torn by a kill gets its end, so the next row starts a line of its own. */
    if (torn && write(fd, "\n", 1) != 1) {
        snprintf(why, n, "cannot end the journal's last line: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* Whether the file at fd, st_size bytes, is empty or starts with a journal row: 16 hex digits
 * of a point's key, then a tab (or, shorter than that, hex digits alone: a first row torn). A file
 * that does not (the results of `-o RESULTS.journal`, any file of the user's) is never appended to:
 * the journal would corrupt it. */
static int journal_like(int fd, off_t size)
{
    char head[17];
    size_t n = size < 17 ? (size_t)size : sizeof head; /* shorter: a first row torn by a kill */
    if (size == 0)
        return 1;
    if (pread(fd, head, n, 0) != (ssize_t)n || (n == sizeof head && head[16] != '\t'))
        return 0;
    for (size_t i = 0; i < n && i < 16; i++)
        if (!isxdigit((unsigned char)head[i]))
            return 0;
    return 1;
}

int st_sweep_journal_is(const char *path)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK); /* never blocks: a FIFO is refused before */
    if (fd < 0)
        return 0;
    struct stat st;
    int is = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
             journal_like(fd, st.st_size);
    close(fd);
    return is;
}

int st_sweep_journal_open(const char *path, char *why, size_t n)
{
    int fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK, 0644);
    if (fd < 0) {
        if (errno == ELOOP)
            snprintf(why, n,
                     "%s: the journal is a symbolic link; a journal is never written through "
                     "one (remove it)",
                     path);
        else
            snprintf(why, n, "%s: cannot open the journal: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    int flags = fcntl(fd, F_GETFL);
    const char *bad = fstat(fd, &st) != 0    ? strerror(errno)
                      : !S_ISREG(st.st_mode) ? "not a regular file; a journal is a file"
                      : flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 ? strerror(errno)
                      : !journal_like(fd, st.st_size)
                          ? "not a sweep journal (its first line is no journal row), and a sweep "
                            "appends to nothing else: move it, or choose another -o"
                          : NULL;
    if (bad) {
        snprintf(why, n, "%s: %s", path, bad);
        close(fd);
        return -1;
    }
    return fd;
}

int st_sweep_journal_add(int fd, const st_sweep *sw, size_t p, char **cells, char *why, size_t n)
{
    char key[17];
    st_sweep_key(sw, p, key);
    char *cl = st_sweep_cells_line(cells, sw->n_cols);
    size_t len = strlen(cl) + 17;
    char *line = st_xmalloc(len + 1);
    snprintf(line, len + 1, "%s\t%s", key, cl);
    free(cl);
    ssize_t w = write(fd, line, len); /* one write: O_APPEND puts it whole at the end */
    free(line);
    if (w != (ssize_t)len || fsync(fd)) {
        snprintf(why, n, "cannot write the journal: %s",
                 w < 0 || w == (ssize_t)len ? strerror(errno) : "short write");
        return -1;
    }
    return 0;
}
