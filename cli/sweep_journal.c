/* The resume journal of `strata sweep -o FILE`: FILE.journal, one line per finished point, each
 * appended with one write() and fsync'd, so after any interrupt the journal holds whole rows
 * (and at worst a torn last line, which is skipped). Keyed by st_sweep_key, so a rerun of the
 * same scenario finds the points it already has, whatever grid they came from. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

size_t st_sweep_journal_read(const char *path, const st_sweep *sw, char ***rows)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = sw->grid->n_points, filled = 0;
    keyed *keys = st_xmalloc((n ? n : 1) * sizeof *keys);
    for (size_t p = 0; p < n; p++) {
        st_sweep_key(sw, p, keys[p].key);
        keys[p].p = p;
    }
    qsort(keys, n, sizeof *keys, by_key);
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, f)) > 0) {
        if (line[len - 1] != '\n' || len < 18 || line[16] != '\t')
            continue; /* torn by an interrupt, or not a row */
        line[len - 1] = '\0';
        line[16] = '\0';
        keyed want,
            *hit = (memcpy(want.key, line, 17), bsearch(&want, keys, n, sizeof *keys, by_key));
        if (!hit || rows[hit->p])
            continue;
        rows[hit->p] = st_sweep_cells_parse(line + 17, sw->n_cols);
        filled += rows[hit->p] != NULL;
    }
    free(line);
    free(keys);
    fclose(f);
    return filled;
}

int st_sweep_journal_open(const char *path, char *why, size_t n)
{
    int fd = open(path, O_RDWR | O_CREAT | O_APPEND, 0644);
    if (fd < 0) {
        snprintf(why, n, "%s: cannot open the journal: %s", path, strerror(errno));
        return -1;
    }
    /* A line torn by a kill gets its end, so the next row starts a line of its own. */
    off_t end = lseek(fd, 0, SEEK_END);
    char last = '\n';
    if (end > 0 &&
        (pread(fd, &last, 1, end - 1) != 1 || (last != '\n' && write(fd, "\n", 1) != 1))) {
        snprintf(why, n, "%s: cannot read or end the journal's last line: %s", path,
                 strerror(errno));
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
