/* The resume journal of `strata sweep -o FILE`: FILE.journal, one line per finished point, each
 * appended with one write() and fsync'd, so after any interrupt the journal holds whole rows
 * (and at worst a torn last line, which is skipped and cut off). Keyed by st_sweep_key, so a rerun
 * of the same scenario by the same build finds the points it already has, whatever grid they came
 * from. Opened once, never through a symbolic link, and only when it is a regular file. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/sweep.h"
#include "sim/utf8.h"
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

/* Whether a reason's cell is text a sweep writes: one line of UTF-8 (st_utf8_one_line leaves it
 * as it is; a CR from a file's line ends is damage). */
static int text_cell(const char *cell)
{
    char *line = st_utf8_one_line(cell);
    int same = strcmp(line, cell) == 0;
    free(line);
    return same;
}

/* A journal cell as a message quotes it: at most 40 bytes, cut on a character boundary, and only
 * when it is text (an edited journal's bytes reach a terminal). */
static void quoted(const char *cell, char *buf, size_t n)
{
    size_t len = strlen(cell), fit = st_utf8_fit(cell, len, 40);
    if (!text_cell(cell))
        snprintf(buf, n, "(a value with control characters or bytes that are not UTF-8)");
    else
        snprintf(buf, n, "'%.*s%s'", (int)fit, cell, fit < len ? ST_UTF8_CUT_MARK : "");
}

/* Whether a figure's cell is one a sweep writes (st_fig_sweep_cell): a finite number as JSON
 * writes it, true, false, or nothing. */
static int figure_cell(const char *cell)
{
    if (!*cell || strcmp(cell, "true") == 0 || strcmp(cell, "false") == 0)
        return 1;
    char *end;
    errno = 0;
    double v = strtod(cell, &end);
    return *end == '\0' && errno != ERANGE && isfinite(v) && !isspace((unsigned char)*cell) &&
           strpbrk(cell, "xXnN") == NULL; /* no hex, no inf or nan spelled out */
}

/* Whether the cells a journal row holds for point p can be its row: its values the point's, its
 * status one a sweep writes, its figures numbers (or true, false, nothing) and an ok row's reason
 * empty, every cell text. A row whose key is p's and whose cells are not was edited or
 * damaged: its figures are not p's. 0, or -1 with what is wrong in why. */
static int row_fits(const st_sweep *sw, size_t p, char **cells, char *why, size_t n)
{
    static const char *const statuses[] = {ST_SWEEP_OK, ST_SWEEP_NOFIT, ST_SWEEP_INVALID,
                                           ST_SWEEP_ERROR};
    size_t n_ax = sw->grid->n_ax;
    char **want = st_xcalloc(n_ax + 1, sizeof *want), got[96], has[96];
    st_sweep_point_values(sw, p, want);
    int rc = 0;
    for (size_t a = 0; a < n_ax && !rc; a++)
        if (strcmp(cells[a], want[a]) != 0) {
            quoted(cells[a], got, sizeof got);
            quoted(want[a], has, sizeof has);
            st_snprintf(why, n, "its %s is %s, where the point its key names has %s", sw->cols[a],
                        got, has);
            rc = -1;
        }
    int known = 0;
    for (size_t k = 0; k < sizeof statuses / sizeof statuses[0]; k++)
        known |= strcmp(cells[n_ax], statuses[k]) == 0;
    if (!rc && !known) {
        quoted(cells[n_ax], got, sizeof got);
        st_snprintf(why, n, "its status %s is none a sweep writes (%s, %s, %s or %s)", got,
                    ST_SWEEP_OK, ST_SWEEP_NOFIT, ST_SWEEP_INVALID, ST_SWEEP_ERROR);
        rc = -1;
    }
    for (size_t c = n_ax + 1; !rc && c + 1 < sw->n_cols; c++)
        if (!figure_cell(cells[c])) {
            quoted(cells[c], got, sizeof got);
            st_snprintf(why, n,
                        "its %s is %s, where a sweep writes a number, true, false or "
                        "nothing",
                        sw->cols[c], got);
            rc = -1;
        }
    const char *reason = cells[sw->n_cols - 1];
    if (!rc && strcmp(cells[n_ax], ST_SWEEP_OK) == 0 && *reason) {
        quoted(reason, got, sizeof got);
        st_snprintf(why, n, "it is %s with a reason, %s", ST_SWEEP_OK, got);
        rc = -1;
    }
    if (!rc && !text_cell(reason)) {
        quoted(reason, got, sizeof got);
        st_snprintf(why, n, "its reason is %s", got);
        rc = -1;
    }
    st_sweep_cells_free(want, n_ax);
    return rc;
}

/* Where read_rows is in the journal, and what it refused. */
typedef struct reading {
    const char *path;
    size_t line;
    char *why;
    size_t n;
} reading;

/* The journal's line (its key cut off) for point p into rows[p]: 0, or -1 when its cells are not
 * p's row (why says where and what). A line of too few cells is a torn one that an older build
 * ended with a newline: it is skipped, and the row computed again after it is taken. */
static int take_row(const st_sweep *sw, size_t p, char *cells_text, char ***rows, reading *at)
{
    char **cells = st_sweep_cells_parse(cells_text, sw->n_cols), what[400];
    if (!cells)
        return 0;
    if (row_fits(sw, p, cells, what, sizeof what)) {
        st_snprintf(at->why, at->n, /* a long path is cut at a character, not inside one */
                    "%s:%zu: a row that is not its point's: %s; the journal was edited or damaged: "
                    "delete the line (or the journal) and the point is computed again",
                    at->path, at->line, what);
        st_sweep_cells_free(cells, sw->n_cols);
        return -1;
    }
    rows[p] = cells;
    return 0;
}

/* The journal's lines for the points of sw into rows (keys: sw's points' keys, sorted). -1 after
 * a row refused (at->why). */
static int read_rows(FILE *f, const st_sweep *sw, const keyed *keys, char ***rows, off_t *torn,
                     reading *at)
{
    size_t n = sw->grid->n_points, cap = 0;
    char *line = NULL;
    ssize_t len;
    off_t off = 0; /* where the line read starts */
    int rc = 0;
    *torn = -1;
    for (; !rc && (len = getline(&line, &cap, f)) > 0; off += len) {
        at->line++;
        if (line[len - 1] != '\n') /* only the last line can be */
            *torn = off;
        if (*torn >= 0 || len < 18 || line[16] != '\t')
            continue; /* torn by an interrupt, or not a row */
        line[len - 1] = '\0';
        line[16] = '\0';
        keyed want;
        memcpy(want.key, line, 17);
        keyed *hit = bsearch(&want, keys, n, sizeof *keys, by_key);
        if (hit && !rows[hit->p])
            rc = take_row(sw, hit->p, line + 17, rows, at);
    }
    free(line);
    return rc;
}

int st_sweep_journal_read(int fd, const char *path, const st_sweep *sw, char ***rows,
                          size_t *filled, char *why, size_t n)
{
    int copy = dup(fd);
    off_t torn = -1;
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
    reading at = {path, 0, why, n};
    int refused = read_rows(f, sw, keys, rows, &torn, &at);
    int bad = ferror(f);
    free(keys);
    fclose(f);
    *filled = 0;
    for (size_t p = 0; p < np; p++)
        *filled += rows[p] != NULL;
    if (refused)
        return -2;
    if (bad) {
        snprintf(why, n, "cannot read the journal: read error");
        return -1;
    }
    /* A line torn by a kill is cut off, so the next row starts a line of its own. Ending it
       with a newline instead kept it: torn inside its last cell (the reason), it had all its
       cells and a later run took it, its reason cut short. Its point is computed again. */
    if (torn >= 0 && ftruncate(fd, torn) != 0) {
        snprintf(why, n, "cannot cut the journal's torn last line: %s", strerror(errno));
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
            st_snprintf(why, n, /* the path first, cut at a character if it is long */
                        "%s: the journal is a symbolic link; a journal is never written through "
                        "one (remove it)",
                        path);
        else
            st_snprintf(why, n, "%s: cannot open the journal: %s", path, strerror(errno));
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
        st_snprintf(why, n, "%s: %s", path, bad);
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
