/* CSV input files line by line (csv_in.h): one open, a size cap, a fixed buffer. */
#define _POSIX_C_SOURCE 200809L
#include "scenarios/csv_in.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdarg.h>

#include "scenarios/reader.h"
#include "sim/err.h"
#include "sim/strfmt.h"
#include "sim/utf8.h"
#include "sim/xalloc.h"

/* Bytes asked of read() at a time. */
#define CHUNK 65536

int st_csv_open(st_csv *c, const char *path, char *why, size_t n)
{
    memset(c, 0, sizeof *c);
    c->fd = open(path, O_RDONLY | O_NONBLOCK);
    if (c->fd < 0) {
        int e = errno;
        snprintf(why, n, "%s", strerror(e));
        return e == ENOENT ? ST_ENOTFOUND : ST_EIO;
    }
    struct stat sb;
    if (fstat(c->fd, &sb) != 0) {
        snprintf(why, n, "%s", strerror(errno));
        return ST_EIO;
    }
    if (S_ISDIR(sb.st_mode) || !S_ISREG(sb.st_mode)) {
        snprintf(why, n, "%s",
                 S_ISDIR(sb.st_mode) ? "is a directory"
                                     : "is not a regular file (a FIFO, socket or device)");
        return ST_EIO;
    }
    if ((uint64_t)sb.st_size > ST_CSV_MAX_BYTES) {
        snprintf(why, n, "is %llu bytes, more than the limit of %llu (1 GiB)",
                 (unsigned long long)sb.st_size, (unsigned long long)ST_CSV_MAX_BYTES);
        return ST_ELIMIT;
    }
    c->cap = ST_CSV_MAX_LINE + CHUNK;
    c->buf = st_xmalloc(c->cap);
    return 0;
}

void st_csv_close(st_csv *c)
{
    if (c->fd >= 0)
        close(c->fd);
    free(c->buf);
    memset(c, 0, sizeof *c);
    c->fd = -1;
}

/* More bytes after the kept ones: 1, 0 at the end of the file, or an error code. */
static int fill(st_csv *c, char *why, size_t n)
{
    if (c->start > 0) {
        memmove(c->buf, c->buf + c->start, c->end - c->start);
        c->end -= c->start;
        c->start = 0;
    }
    for (;;) {
        ssize_t got = read(c->fd, c->buf + c->end, c->cap - c->end);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            snprintf(why, n, "read error: %s", strerror(errno));
            return ST_EIO;
        }
        c->end += (size_t)got;
        c->bytes += (uint64_t)got;
        if (c->bytes > ST_CSV_MAX_BYTES) { /* it grew after fstat */
            snprintf(why, n, "is more than the limit of %llu bytes (1 GiB)",
                     (unsigned long long)ST_CSV_MAX_BYTES);
            return ST_ELIMIT;
        }
        return got > 0;
    }
}

/* Drop bytes up to and past the next line end: the rest of an overlong line. */
static int skip_rest(st_csv *c, char *why, size_t n)
{
    for (;;) {
        char *nl = memchr(c->buf + c->start, c->eol ? c->eol : '\n', c->end - c->start);
        if (nl) {
            c->start = (size_t)(nl - c->buf) + 1;
            return 0;
        }
        c->start = c->end;
        int rc = fill(c, why, n);
        if (rc <= 0)
            return rc;
    }
}

/* The file's line end, from its start once the buffer is full or holds the whole file (0 until
 * then): '\r' where lone CRs (no LF after them) outnumber LFs there, as in a file of CR line ends
 * (one LF at its end, as an editor adds, does not change that), else '\n' for LF and CRLF: a
 * stray CR in a file of LF lines is a byte of its line (the header's check names it). A file of
 * CR line ends read as one line before, and was refused. */
static char line_end(const st_csv *c)
{
    if (!c->eof && c->end < c->cap) /* fill: a full buffer reads 0 bytes, not the file's end */
        return 0;
    const char *s = c->buf + c->start, *e = c->buf + c->end;
    size_t lf = 0, cr = 0;
    for (const char *q = s; q < e; q++) {
        lf += *q == '\n';
        cr += *q == '\r' && !(q + 1 < e && q[1] == '\n');
    }
    return cr > lf ? '\r' : '\n';
}

int st_csv_next(st_csv *c, const char **p, size_t *len, char *why, size_t n)
{
    if (c->overlong) {
        c->overlong = 0;
        int rc = skip_rest(c, why, n);
        if (rc < 0)
            return rc;
    }
    for (;;) {
        if (!c->eol && !(c->eol = line_end(c))) {
            int rc = fill(c, why, n);
            if (rc < 0)
                return rc;
            c->eof = rc == 0;
            continue;
        }
        char *s = c->buf + c->start, *nl = memchr(s, c->eol, c->end - c->start);
        size_t have = c->end - c->start, l = nl ? (size_t)(nl - s) : have;
        /* a line's CR before its LF is no part of it: a CRLF line of exactly the limit (its LF
         * maybe not read yet) was cut, where the same line with LF alone was not */
        size_t body = l > 0 && s[l - 1] == '\r' ? l - 1 : l;
        if (body > ST_CSV_MAX_LINE) { /* the buffer holds more than a line may: cut it there */
            c->overlong = 1;
            c->start += ST_CSV_MAX_LINE;
            *p = s;
            *len = ST_CSV_MAX_LINE;
            c->line++;
            return 1;
        }
        if (nl || (c->eof && have)) {
            c->start += nl ? l + 1 : l;
            *p = s;
            *len = l > 0 && s[l - 1] == '\r' ? l - 1 : l;
            if (c->eol == '\r' && *len > 0 && s[0] == '\n') /* a CRLF among CR line ends */
                *p = s + 1, --*len;
            /* the UTF-8 byte-order mark spreadsheets write first (Excel's "CSV UTF-8") is not
             * part of the header's first name: it read "no column 'arrival'" (a fuzzing find) */
            if (c->line == 0 && *len >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3))
                *p = s + 3, *len -= 3;
            c->line++;
            return 1;
        }
        if (c->eof)
            return 0;
        int rc = fill(c, why, n);
        if (rc < 0)
            return rc;
        c->eof = rc == 0;
    }
}

static int blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Whether [p, p + len) holds nothing but spaces and tabs. */
static int blank_line(const char *p, size_t len)
{
    while (len > 0 && blank(p[len - 1]))
        len--;
    return len == 0;
}

int st_csv_header_line(st_csv *c, const char **p, size_t *len, char *why, size_t n)
{
    int rc; /* a line of spaces was taken for the header: "no column 'submit'" */
    while ((rc = st_csv_next(c, p, len, why, n)) > 0 && blank_line(*p, *len) && !c->overlong)
        ;
    return rc;
}

/* The end of the field that starts at p (before end), and in [*fs, *fe) what it holds. A field
 * quoted as RFC 4180 writes it ("...", spaces around allowed) that closes before the next comma
 * is given without its quotes, and commas inside it are its own; one that does not close, or has
 * more after its closing quote, is given whole, quotes and all (an unclosed one to the line's
 * end), for the caller to refuse. A doubled quote inside stays doubled. */
static const char *field(const char *p, const char *end, const char **fs, const char **fe)
{
    const char *s = p;
    while (s < end && blank(*s))
        s++;
    if (s < end && *s == '"') {
        const char *q = s + 1;
        while (q < end && (*q != '"' || (q + 1 < end && q[1] == '"')))
            q += *q == '"' ? 2 : 1;
        if (q >= end) { /* never closed: the rest of the line */
            *fs = p, *fe = end;
            return end;
        }
        const char *a = q + 1;
        while (a < end && blank(*a))
            a++;
        if (a == end || *a == ',') {
            *fs = s + 1, *fe = q;
            return a;
        }
        /* more after the closing quote: the whole field, up to the next comma after it */
        const char *c = memchr(a, ',', (size_t)(end - a));
        *fs = p, *fe = c ? c : end;
        return *fe;
    }
    const char *c = memchr(p, ',', (size_t)(end - p));
    *fs = p, *fe = c ? c : end;
    return *fe;
}

int st_csv_split(const char *p, size_t len, const char **f, size_t *flen, int max)
{
    const char *end = p + len;
    int n = 0;
    for (;;) {
        const char *fs, *fe, *e = field(p, end, &fs, &fe);
        if (n < max) {
            f[n] = fs;
            flen[n] = (size_t)(fe - fs);
        }
        n++;
        if (e == end)
            return n;
        p = e + 1;
    }
}

const char *st_csv_quoted(const char *p, size_t len)
{
    return memchr(p, '"', len);
}

/* A header field without its surrounding spaces. */
static void trimmed(const char **p, size_t *len)
{
    while (*len && (**p == ' ' || **p == '\t'))
        (*p)++, (*len)--;
    while (*len && ((*p)[*len - 1] == ' ' || (*p)[*len - 1] == '\t'))
        (*len)--;
}

/* The length of field [*p, *p + len) without its surrounding spaces, *p moved past the first. */
static size_t flen_trim(const char **p, size_t len)
{
    trimmed(p, &len);
    return len;
}

int st_csv_header(const char *const *f, const size_t *flen, int nf, const char *const *want,
                  int n_want, int *col, int *first)
{
    for (int k = 0; k < n_want; k++)
        col[k] = -1;
    /* Header rows are short (ST_CSV_MAX_COLS at most), so the pairwise check is cheap. */
    for (int i = 0; i < nf; i++) {
        const char *a = f[i];
        size_t la = flen[i];
        trimmed(&a, &la);
        for (int j = 0; la && j < i; j++) {
            const char *b = f[j];
            size_t lb = flen[j];
            trimmed(&b, &lb);
            if (la == lb && memcmp(a, b, la) == 0) {
                *first = j;
                return i;
            }
        }
        for (int k = 0; k < n_want; k++)
            if (want[k] && strlen(want[k]) == la && memcmp(want[k], a, la) == 0)
                col[k] = i;
    }
    return -1;
}

unsigned st_csv_col(const char *p, const char *q)
{
    unsigned col = 1;
    for (; p < q; p++)
        col += ((unsigned char)*p & 0xc0) != 0x80; /* a continuation byte is no new character */
    return col;
}

long st_csv_bad_name(const char *p, size_t len, char *what, size_t n)
{
    const unsigned char *u = (const unsigned char *)p;
    for (size_t i = 0; i < len; i++) {
        unsigned c = u[i], next = i + 1 < len ? u[i + 1] : 0;
        if (c == 0) {
            snprintf(what, n, "a NUL byte");
            return (long)i;
        }
        if ((c < 0x20 && c != '\t') || c == 0x7f || (c == 0xc2 && next >= 0x80 && next <= 0x9f)) {
            snprintf(what, n, "a control character (U+%04X)", c == 0xc2 ? next : c);
            return (long)i;
        }
    }
    size_t bad = st_utf8_check(p, len);
    if (bad < len) {
        snprintf(what, n, "a byte that is not UTF-8 (0x%02X)", u[bad]);
        return (long)bad;
    }
    return -1;
}

/* The end of a skipped row's warning, which its copy as an error leaves out. */
static const char skip_tail[] = "; row skipped";

void st_csv_malformed(st_csv_report *r, const char *at, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    st_vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    st_loc loc = {r->file, r->line_no, at ? st_csv_col(r->line, at) : 1};
    if (r->refuse) {
        st_diag_add(r->errors, ST_EINVAL, loc, "malformed %s: %s", r->noun, what);
        r->stop = 1;
    } else if (r->skipped < ST_CSV_SKIP_WARNINGS) {
        if (!r->skipped)
            r->first_warning = r->warnings->n;
        st_diag_add(r->warnings, 0, loc, "malformed %s: %s%s", r->noun, what, skip_tail);
    }
    if (!r->skipped++)
        r->first_skip = r->line_no;
}

int st_csv_row_bytes(st_csv_report *r, const char *p, size_t n)
{
    const char *nul = memchr(p, '\0', n), *cr = memchr(p, '\r', n);
    if (nul) /* a NUL would end a name early */
        st_csv_malformed(r, nul, "a NUL byte");
    else if (cr) /* "0,1,8\r1,1,8" was "5 fields where the header row has 3", the CR unsaid */
        st_csv_malformed(r, cr,
                         "a carriage return (CR) inside the row: the file's lines end in LF, and "
                         "a CR alone ends none");
    return nul || cr;
}

void st_csv_row_error(st_csv_report *r, const char *at, int code, const char *msg)
{
    st_loc loc = {r->file, r->line_no, at ? st_csv_col(r->line, at) : 1};
    st_diag_add(r->errors, code, loc, "%s", msg);
    r->stop = 1;
}

void st_csv_skipped_summary(const st_csv_report *r, st_loc at, const char *what, const char *name)
{
    if (!r->skipped || r->refuse)
        return;
    st_diag_add(r->warnings, 0, at, "%s '%s': %zu malformed row%s skipped, the first at %s:%u",
                what, name, r->skipped, r->skipped == 1 ? "" : "s", r->file, r->first_skip);
}

const char *st_csv_skipped_reason(const st_csv_report *r, char *buf, size_t n)
{
    const char *which = r->skipped > ST_CSV_SKIP_WARNINGS ? "the first ten are"
                        : r->skipped == 1                 ? "it is"
                                                          : "each is";
    snprintf(buf, n, "its %zu row%s malformed (%s listed below)", r->skipped,
             r->skipped == 1 ? " was" : "s were all", which);
    return buf;
}

void st_csv_skipped_as_errors(const st_csv_report *r)
{
    if (!r->skipped || r->refuse)
        return;
    const st_diag *w = r->warnings;
    size_t shown = r->skipped < ST_CSV_SKIP_WARNINGS ? r->skipped : ST_CSV_SKIP_WARNINGS;
    int end = r->first_warning + (int)shown;
    for (int i = r->first_warning; i < end && i < w->n; i++) { /* a full diag drops some */
        const char *m = w->items[i].msg;
        size_t len = strlen(m), tail = sizeof skip_tail - 1;
        if (len >= tail && strcmp(m + len - tail, skip_tail) == 0)
            len -= tail;
        st_diag_add(r->errors, ST_EINVAL, w->items[i].loc, "%.*s", (int)len, m);
    }
}

/* [p, p + n) quoted into out[0..size) as a message shows it: a tab, a CR and other control
 * characters as \t, \r, \xNN, cut with "..." past about 60 bytes. */
static const char *shown(const char *p, size_t n, char *out, size_t size)
{
    size_t at = 0, cut = st_utf8_fit(p, n, 60);
    for (size_t i = 0; i < cut && at + 8 < size; i++) {
        unsigned char u = (unsigned char)p[i];
        if (u == '\t' || u == '\r')
            at += (size_t)snprintf(out + at, size - at, "\\%c", u == '\t' ? 't' : 'r');
        else if (u < 0x20 || u == 0x7f)
            at += (size_t)snprintf(out + at, size - at, "\\x%02X", u);
        else
            out[at++] = (char)u;
    }
    snprintf(out + at, size - at, "%s", cut < n ? ST_UTF8_CUT_MARK : "");
    return out;
}

/* Whether [p, p + n) is one of names[0..k) (NULL ones skipped). */
static int one_of(const char *p, size_t n, const char *const *names, int k)
{
    for (int i = 0; i < k; i++)
        if (names[i] && strlen(names[i]) == n && memcmp(names[i], p, n) == 0)
            return 1;
    return 0;
}

int st_csv_no_column(st_diag *errors, const char *file, unsigned line_no, const char *p, size_t n,
                     const char *what, const char *want, const char *const *others, int n_others)
{
    char q[256];
    size_t bad = st_utf8_check(p, n);
    if (bad < n)
        return st_diag_add(errors, ST_EINVAL, (st_loc){file, line_no, st_csv_col(p, p + bad)},
                           "%s has no column '%s' in its header row, which holds byte 0x%02X, "
                           "not UTF-8 (a file saved as Latin-1 or Windows-1252?): the file must "
                           "be UTF-8 text",
                           what, want, (unsigned char)p[bad]),
               -1;
    const char *f[ST_CSV_MAX_COLS];
    size_t len[ST_CSV_MAX_COLS];
    int nf = st_csv_split(p, n, f, len, ST_CSV_MAX_COLS);
    nf = nf < ST_CSV_MAX_COLS ? nf : ST_CSV_MAX_COLS;
    const char *sep = nf == 1 && memchr(p, '\t', n)  ? "tabs"
                      : nf == 1 && memchr(p, ';', n) ? "semicolons"
                                                     : NULL;
    if (sep)
        return st_diag_add(errors, ST_EINVAL, (st_loc){file, line_no, 1},
                           "%s has no column '%s' in its header row: it reads '%s' as one "
                           "column; the file's columns are separated by commas, not %s",
                           what, want, shown(p, n, q, sizeof q), sep),
               -1;
    /* the names as strings, for the near-miss search */
    enum { NAMES = 64, NAME_MAX_LEN = 64 };
    char names[NAMES][NAME_MAX_LEN + 1];
    const char *cand[NAMES], *near[ST_NEAR_MAX];
    int idx[NAMES], k = 0;
    for (int i = 0; i < nf && k < NAMES; i++) {
        const char *a = f[i];
        size_t la = flen_trim(&a, len[i]);
        if (la == 0 || la > NAME_MAX_LEN || memchr(a, '\0', la) || one_of(a, la, others, n_others))
            continue;
        memcpy(names[k], a, la);
        names[k][la] = '\0';
        cand[k] = names[k];
        idx[k++] = i;
    }
    if (st_near_names(want, cand, (size_t)k, near) > 0) {
        int j = 0;
        while (j + 1 < k && cand[j] != near[0])
            j++;
        unsigned col = st_csv_col(p, f[idx[j]]);
        if (strlen(near[0]) == strlen(want) && strcasecmp(near[0], want) == 0)
            return st_diag_add(errors, ST_EINVAL, (st_loc){file, line_no, col},
                               "%s has no column '%s' in its header row; it has '%s': column "
                               "names are case-sensitive, so name it '%s'",
                               what, want, shown(near[0], strlen(near[0]), q, sizeof q), want),
                   -1;
        char dym[256];
        st_did_you_mean(want, cand, (size_t)k, dym, sizeof dym);
        return st_diag_add(errors, ST_EINVAL, (st_loc){file, line_no, col},
                           "%s has no column '%s' in its header row%s", what, want, dym),
               -1;
    }
    return st_diag_add(errors, ST_EINVAL, (st_loc){file, line_no, 1},
                       "%s has no column '%s' in its header row, which reads '%s'", what, want,
                       shown(p, n, q, sizeof q)),
           -1;
}

/* Where field f (of the row that starts at line, as st_csv_split gives it) opens a quote that
 * does not close right before its comma, else NULL: the split gives such a field whole, from its
 * first byte (the row's start, or after a comma), where a closed one is given from after its
 * opening quote. Its name, quote and all, would be "no column 'submit'" of '"submit,...'. */
static const char *open_quote(const char *line, const char *f, size_t len)
{
    if (f > line && f[-1] != ',')
        return NULL;
    while (len && blank(*f))
        f++, len--;
    return len && *f == '"' ? f : NULL;
}

int st_csv_read_header(st_diag *errors, const char *file, const st_csv *c, const char *p, size_t n,
                       const char *const *want, int n_want, int *col)
{
    unsigned line_no = c->line;
    /* A cut header was read as its first 64 KiB: "no column 'submit'" of a header that names
     * it past the cut, or "65537 columns" of one of commas. A data row so long is malformed. */
    if (c->overlong)
        return st_diag_add(errors, ST_ELIMIT, (st_loc){file, line_no, 1},
                           "malformed header row: a row longer than %d bytes", ST_CSV_MAX_LINE),
               -1;
    /* A name holding a NUL ("gpus\0") matched no column, and the reader said "has no column
     * 'gpus'" of a header that names it: the NUL is said where it is, as in a row. */
    const char *nul = memchr(p, '\0', n);
    if (nul)
        return st_diag_add(errors, ST_EINVAL, (st_loc){file, line_no, st_csv_col(p, nul)},
                           "malformed header row: a NUL byte"),
               -1;
    /* A lone CR in a line that ends in LF (st_csv_next reads a file of CR line ends as such): the
     * reader said "no column 'gpus'" of "gpus\r0" */
    const char *cr = memchr(p, '\r', n);
    size_t quotes = 0; /* odd before the CR: it is inside a quoted name, not a line's end */
    for (const char *q = p; cr && q < cr; q++)
        quotes += *q == '"';
    if (cr && quotes % 2)
        return st_diag_add(errors, ST_EINVAL, (st_loc){file, line_no, st_csv_col(p, cr)},
                           "malformed header row: a carriage return (CR) inside a quoted column "
                           "name, a control character no column name holds"),
               -1;
    if (cr)
        return st_diag_add(errors, ST_EINVAL, (st_loc){file, line_no, st_csv_col(p, cr)},
                           "malformed header row: a carriage return (CR) inside the row, a control "
                           "character no column name holds"),
               -1;
    const char *f[ST_CSV_MAX_COLS];
    size_t len[ST_CSV_MAX_COLS];
    int nf = st_csv_split(p, n, f, len, ST_CSV_MAX_COLS), first = 0;
    if (nf > ST_CSV_MAX_COLS)
        return st_diag_add(errors, ST_ELIMIT, (st_loc){file, line_no, 1},
                           "the header row has %d columns, more than the limit of %d", nf,
                           ST_CSV_MAX_COLS),
               -1;
    for (int i = 0; i < nf; i++) {
        const char *q = open_quote(p, f[i], len[i]);
        if (q)
            return st_diag_add(errors, ST_EINVAL, (st_loc){file, line_no, st_csv_col(p, q)},
                               "malformed header row: field %d: a quote that %s", i + 1,
                               memchr(q + 1, '"', (size_t)(p + n - q - 1))
                                   ? "does not close its field before the comma"
                                   : "does not close (the row ends inside it)"),
                   -1;
    }
    int dup = st_csv_header(f, len, nf, want, n_want, col, &first);
    if (dup >= 0)
        return st_diag_add(errors, ST_EINVAL, (st_loc){file, line_no, st_csv_col(p, f[dup])},
                           "the header row names column '%.*s' twice (fields %d and %d): "
                           "which one to read is unclear",
                           (int)st_utf8_fit(f[dup], len[dup], 64), f[dup], first + 1, dup + 1),
               -1;
    return 0;
}

int st_csv_each_row(st_csv *c, st_csv_report *rep, unsigned max_rows, const char *too_many,
                    void (*row)(void *ctx, const char *p, size_t n), void *ctx, char *why,
                    size_t wn)
{
    const char *p;
    size_t n;
    int rc;
    while (!rep->stop && (rc = st_csv_next(c, &p, &n, why, wn)) > 0) {
        rep->line = p;
        rep->line_no = c->line;
        if (c->line - 1 > max_rows)
            st_csv_row_error(rep, NULL, ST_ELIMIT, too_many);
        else if (c->overlong)
            st_csv_malformed(rep, NULL, "a row longer than %d bytes", ST_CSV_MAX_LINE);
        else if (n > 0)
            row(ctx, p, n);
    }
    return rep->stop ? 0 : rc;
}
