/* The readers of scenarios/calib_in.h: nccl-tests logs and GEMM CSVs, line by line through the
 * CSV layer's one open of a regular file (scenarios/csv_in.h: a size cap, no NUL byte). */
#include "scenarios/calib_in.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/csv_in.h"
#include "sim/strfmt.h"
#include "sim/xalloc.h"

/* nccl-tests' binaries (the src folder of NVIDIA/nccl-tests) and the collective each times. */
static const struct {
    const char *name;
    st_coll_op op;
} binaries[] = {
    {"all_reduce", ST_COLL_ALL_REDUCE},         {"all_gather", ST_COLL_ALL_GATHER},
    {"reduce_scatter", ST_COLL_REDUCE_SCATTER}, {"alltoall", ST_COLL_ALL_TO_ALL},
    {"broadcast", ST_COLL_BROADCAST},
};
#define N_BINARIES (sizeof binaries / sizeof binaries[0])

static int ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* The one collective s names, into *op (and where its name starts into *at, if at): with perf,
 * only a whole NAME_perf token counts (a binary's name: not my_all_reduce_perf_x); without, any
 * binary's name in s. 0 where s names none, or two (all_gather_vs_all_reduce.log says nothing:
 * the table's order picked one). */
static int op_named(const char *s, int perf, st_coll_op *op, const char **at)
{
    int found = 0;
    st_coll_op one = ST_COLL_ALL_REDUCE;
    const char *where = NULL;
    for (size_t i = 0; s && i < N_BINARIES; i++) {
        size_t n = strlen(binaries[i].name);
        for (const char *q = s; (q = strstr(q, binaries[i].name)) != NULL; q++) {
            if (perf && ((q > s && ident_char(q[-1])) || strncmp(q + n, "_perf", 5) != 0 ||
                         ident_char(q[n + 5])))
                continue;
            if (found && one != binaries[i].op)
                return 0;
            found = 1;
            one = binaries[i].op;
            where = q;
            break;
        }
    }
    if (found) {
        *op = one;
        if (at)
            *at = where;
    }
    return found;
}

const char *st_cal_nccl_binary(st_coll_op op)
{
    for (size_t i = 0; i < N_BINARIES; i++)
        if (binaries[i].op == op)
            return binaries[i].name;
    return "?";
}

/* A whole name, not one inside another (my_all_reduce_x is none). */
int st_cal_nccl_op(const char *s, st_coll_op *op)
{
    for (size_t i = 0; i < N_BINARIES; i++) {
        size_t n = strlen(binaries[i].name);
        if (strncmp(s, binaries[i].name, n) == 0 && (!s[n] || strcmp(s + n, "_perf") == 0)) {
            *op = binaries[i].op;
            return 1;
        }
    }
    return 0;
}

/* The whitespace-separated token k (from 0) of line [p, p + len) into buf; its column from 1
 * into *col. 0 when the line has fewer. */
static int token(const char *p, size_t len, int k, char *buf, size_t n, unsigned *col)
{
    size_t i = 0;
    for (int t = 0;; t++) {
        while (i < len && isspace((unsigned char)p[i]))
            i++;
        if (i >= len)
            return 0;
        size_t s = i;
        while (i < len && !isspace((unsigned char)p[i]))
            i++;
        if (t == k) {
            size_t m = i - s < n - 1 ? i - s : n - 1;
            memcpy(buf, p + s, m);
            buf[m] = '\0';
            *col = (unsigned)s + 1;
            return 1;
        }
    }
}

/* A decimal number: strtod's hexadecimal, infinity and nan forms are no timing a tool prints. */
static int number(const char *s, double *v)
{
    char *end;
    if (!*s || s[strspn(s, "0123456789.eE+-")])
        return 0;
    *v = strtod(s, &end);
    return !*end && isfinite(*v);
}

/* A "#  Rank  0 Group  0 Pid 123 on host device 0 [0x1b] NVIDIA H100" line: its host, and its
 * rank's number into *rank (-1 when it is not a whole number); *col its column. */
static int rank_host(const char *p, size_t len, char *host, size_t n, double *rank, unsigned *col)
{
    char t[64];
    if (!token(p, len, 0, t, sizeof t, col) || strcmp(t, "#") != 0 ||
        !token(p, len, 1, t, sizeof t, col) || strcmp(t, "Rank") != 0)
        return 0;
    double v;
    *rank = token(p, len, 2, t, sizeof t, col) && number(t, &v) && v == floor(v) ? v : -1;
    unsigned c;
    for (int k = 3; token(p, len, k, t, sizeof t, &c); k++)
        if (strcmp(t, "on") == 0)
            return token(p, len, k + 1, host, n, &c);
    return 0;
}

/* The most ranks a log may list: 2^24, more GPUs than any cluster the loader admits in one
 * collective's group (and a bitmap of 2 MB). */
#define ST_CAL_MAX_RANKS (1 << 24)

/* The distinct hosts of the rank lines, a set by open addressing (FNV-1a; a log of 10^5 hosts
 * read them one compare each, where a list was quadratic), and the ranks seen, a bitmap. */
/* A host of the log and how many of its ranks it runs. */
typedef struct host {
    int64_t ranks;
    char name[];
} host;

typedef struct hosts {
    host **slot; /* cap slots, NULL where empty */
    size_t n, cap;
    int64_t most;        /* the most ranks one host runs */
    unsigned char *seen; /* bit r: rank r listed */
    size_t seen_bytes;
} hosts;

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 1469598103934665603u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

static void host_put(host **slot, size_t cap, host *x)
{
    size_t i = (size_t)(fnv1a(x->name) & (cap - 1));
    while (slot[i])
        i = (i + 1) & (cap - 1);
    slot[i] = x;
}

/* One more rank on the host named `name`. */
static void host_add(hosts *h, const char *name)
{
    if (2 * (h->n + 1) > h->cap) { /* at most half full */
        size_t cap = h->cap ? 2 * h->cap : 64;
        host **slot = st_xcalloc(cap, sizeof *slot);
        for (size_t i = 0; i < h->cap; i++)
            if (h->slot[i])
                host_put(slot, cap, h->slot[i]);
        free(h->slot);
        h->slot = slot;
        h->cap = cap;
    }
    host *x = NULL;
    for (size_t i = (size_t)(fnv1a(name) & (h->cap - 1)); h->slot[i] && !x;
         i = (i + 1) & (h->cap - 1))
        if (strcmp(h->slot[i]->name, name) == 0)
            x = h->slot[i];
    if (!x) {
        size_t len = strlen(name);
        x = st_xcalloc(1, sizeof *x + len + 1);
        memcpy(x->name, name, len + 1);
        host_put(h->slot, h->cap, x);
        h->n++;
    }
    if (++x->ranks > h->most)
        h->most = x->ranks;
}

/* Note rank r; 0 when it was listed before. */
static int rank_add(hosts *h, size_t r)
{
    if (r / 8 >= h->seen_bytes) {
        size_t b = h->seen_bytes ? h->seen_bytes : 64;
        while (r / 8 >= b)
            b *= 2;
        h->seen = st_xrealloc(h->seen, b);
        memset(h->seen + h->seen_bytes, 0, b - h->seen_bytes);
        h->seen_bytes = b;
    }
    unsigned char bit = (unsigned char)(1u << (r % 8));
    if (h->seen[r / 8] & bit)
        return 0;
    h->seen[r / 8] |= bit;
    return 1;
}

static void hosts_free(hosts *h)
{
    for (size_t i = 0; i < h->cap; i++)
        free(h->slot[i]);
    free(h->slot);
    free(h->seen);
}

/* The largest message a row may time: 1 TiB, past any GPU's memory. */
#define ST_CAL_MAX_BYTES 1099511627776.0

/* Where a data row's fields are: how many, and which hold #wrong. nccl-tests prints size count
 * type redop root, then time algbw busbw #wrong out of place and again in place: 13. Its options
 * add columns (-R's timestamp, the per-iteration statistics), which its column header names, so
 * the header, where the log has one, sets the layout. */
typedef struct layout {
    int fields, wrong[2], n_wrong;
    unsigned line; /* the column header's line; 0: none seen yet, the 13 fields */
} layout;

static const layout plain_layout = {13, {8, 12}, 2, 0};

/* A "#  size  count  type ..." column header: its layout into *l; 0 when the line is none. */
static int column_header(const char *p, size_t len, unsigned line, layout *l)
{
    char t[64];
    unsigned col;
    if (!token(p, len, 0, t, sizeof t, &col) || strcmp(t, "#") != 0 ||
        !token(p, len, 1, t, sizeof t, &col) || strcmp(t, "size") != 0)
        return 0;
    layout h = {.line = line};
    for (int k = 1; token(p, len, k, t, sizeof t, &col); k++) {
        if (strcmp(t, "#wrong") == 0 && h.n_wrong < 2)
            h.wrong[h.n_wrong++] = h.fields;
        h.fields += strcmp(t, "timestamp") == 0 ? 2 : 1; /* printed as a date and a time */
    }
    *l = h;
    return 1;
}

/* Whether the row has the layout's fields: one more or less shifts every column after it, so
 * a time would be read from algbw or #wrong from the next group's time. The error is at the
 * first field past the layout's, or at the end of a short row. */
static int nccl_width(const char *path, unsigned line, const char *p, size_t len, const layout *l,
                      st_err *err)
{
    int n = 0;
    for (size_t i = 0; i < len; n++) {
        while (i < len && isspace((unsigned char)p[i]))
            i++;
        if (i == len)
            break;
        while (i < len && !isspace((unsigned char)p[i]))
            i++;
    }
    if (n == l->fields)
        return 0;
    char t[64];
    unsigned col = (unsigned)len + 1;
    if (n > l->fields)
        token(p, len, l->fields, t, sizeof t, &col);
    if (l->line)
        return st_err_set(err, ST_EINVAL, (st_loc){path, line, col},
                          "expected %d fields, as the column header on line %u names, found %d",
                          l->fields, l->line, n);
    return st_err_set(err, ST_EINVAL, (st_loc){path, line, col},
                      "expected %d fields (size count type redop root, then time algbw busbw "
                      "#wrong out of place and again in place), found %d",
                      l->fields, n);
}

/* The data types nccl-tests names in its rows (test_typenames in its src/common.cu: NCCL 2's,
 * its FP8 types, and NCCL 1's char and int). */
static const char *const nccl_types[] = {"int8",   "uint8",  "int32", "uint32", "int64",
                                         "uint64", "half",   "float", "double", "bfloat16",
                                         "f8e4m3", "f8e5m2", "char",  "int"};
#define N_NCCL_TYPES (sizeof nccl_types / sizeof nccl_types[0])

/* A row's count (elements, at most its size in bytes: an element is a byte or more) and type
 * (one nccl-tests prints): a negative count or an unknown type is no row nccl-tests wrote, so its
 * time is of nothing known. */
static int count_type(const char *path, unsigned line, const char *p, size_t len, double size,
                      st_err *err)
{
    char t[64];
    unsigned col;
    double count;
    token(p, len, 1, t, sizeof t, &col);
    if (!number(t, &count) || count < 0 || count != floor(count) || count > size)
        return st_err_set(err, ST_EINVAL, (st_loc){path, line, col},
                          "expected the row's count, a whole number of elements from 0 to its "
                          "size in bytes, found '%s'",
                          t);
    token(p, len, 2, t, sizeof t, &col);
    for (size_t i = 0; i < N_NCCL_TYPES; i++)
        if (strcmp(t, nccl_types[i]) == 0)
            return 0;
    return st_err_set(err, ST_EINVAL, (st_loc){path, line, col},
                      "expected the row's data type as nccl-tests names it (int8, uint8, int32, "
                      "uint32, int64, uint64, half, float, double, bfloat16, f8e4m3, f8e5m2), "
                      "found '%s'",
                      t);
}

/* A data row: "size count type redop root time algbw busbw #wrong ..." (out-of-place first). */
static int data_row(const char *path, const st_csv *c, const layout *l, const char *p, size_t len,
                    st_cal_nccl *out, size_t *cap, st_err *err)
{
    char t[64];
    unsigned col;
    double size, time_us;
    token(p, len, 0, t, sizeof t, &col);
    if (!number(t, &size) || size < 1)
        return st_err_set(err, ST_EINVAL, (st_loc){path, c->line, col},
                          "expected an nccl-tests row's size in bytes, found '%s'", t);
    if (size > ST_CAL_MAX_BYTES)
        return st_err_set(err, ST_EINVAL, (st_loc){path, c->line, col},
                          "a size of '%s' bytes is beyond 1 TiB, more than a GPU holds", t);
    if (nccl_width(path, c->line, p, len, l, err))
        return err->code;
    if (!token(p, len, 5, t, sizeof t, &col) || !number(t, &time_us) || !(time_us > 0))
        return st_err_set(err, ST_EINVAL, (st_loc){path, c->line, col},
                          "expected an nccl-tests row (size count type redop root time algbw "
                          "busbw #wrong ...), its out-of-place time in microseconds 6th, found "
                          "'%s'",
                          token(p, len, 5, t, sizeof t, &col) ? t : "the end of the line");
    double wrong; /* "#wrong", out of place and in place (9th and 13th of the 13): results the
                     run checked and found wrong ("N/A": unchecked) */
    for (int w = 0; w < l->n_wrong; w++)
        if (token(p, len, l->wrong[w], t, sizeof t, &col) && number(t, &wrong) && wrong != 0)
            return st_err_set(err, ST_EINVAL, (st_loc){path, c->line, col},
                              "nccl-tests found %s wrong results in this row (#wrong): a broken "
                              "run's timing fits nothing",
                              t);
    if (count_type(path, c->line, p, len, size, err))
        return err->code;
    out->bytes = st_xgrow(out->bytes, sizeof *out->bytes, out->n + 1, cap);
    size_t cap2 = *cap;
    out->time_s = st_xrealloc(out->time_s, cap2 * sizeof *out->time_s);
    out->bytes[out->n] = size;
    out->time_s[out->n++] = time_us * 1e-6;
    return 0;
}

int st_cal_nccl_read(const char *path, const char *op_name, st_cal_nccl *out, st_err *err)
{
    memset(out, 0, sizeof *out);
    out->file = path;
    st_csv c;
    char why[160];
    int rc = st_csv_open(&c, path, why, sizeof why), said = 0; /* the file names its binary */
    st_coll_op own = ST_COLL_ALL_REDUCE;                       /* the one it names */
    unsigned said_line = 0, said_col = 0;
    if (rc) {
        st_csv_close(&c);
        return st_err_set(err, rc, (st_loc){path, 0, 0}, "%s", why);
    }
    if (op_name && !st_cal_nccl_op(op_name, &out->op)) {
        st_csv_close(&c);
        return st_err_set(err, ST_EINVAL, (st_loc){0},
                          "--nccl-tests %s:%s: expected all_reduce, all_gather, reduce_scatter, "
                          "alltoall or broadcast before the ':'",
                          op_name, path);
    }
    hosts h = {0};
    layout lay = plain_layout;
    size_t cap = 0;
    const char *p;
    size_t len;
    while (!rc && (rc = st_csv_next(&c, &p, &len, why, sizeof why)) == 1) {
        rc = 0;
        /* a NUL ends a token early: a time of "14\07.1" was read as 14 us, and the fit changed */
        const char *nul = memchr(p, '\0', len);
        if (nul) {
            rc = st_err_set(err, ST_EINVAL, (st_loc){path, c.line, st_csv_col(p, nul)},
                            "expected a line of text, as nccl-tests prints, found a NUL byte");
            break;
        }
        if (c.overlong) { /* cut at 64 KiB, its rest skipped: refused, as the CSV readers do */
            rc = st_err_set(err, ST_EINVAL, (st_loc){path, c.line, 1},
                            "expected a line of text, as nccl-tests prints, found a line longer "
                            "than %d bytes",
                            ST_CSV_MAX_LINE);
            break;
        }
        char line[256], t[64], host[128];
        unsigned col;
        snprintf(line, sizeof line, "%.*s", (int)(len < 255 ? len : 255), p);
        const char *at;
        if (!said && (said = op_named(line, 1, &own, &at))) {
            said_line = c.line;
            said_col = (unsigned)(at - line) + 1;
        }
        double rank;
        if (rank_host(p, len, host, sizeof host, &rank, &col)) {
            if (!(rank >= 0 && rank < ST_CAL_MAX_RANKS)) {
                rc = st_err_set(err, ST_EINVAL, (st_loc){path, c.line, col},
                                "expected a rank number from 0 to %d after 'Rank'",
                                ST_CAL_MAX_RANKS - 1);
                break;
            }
            if (!rank_add(&h, (size_t)rank)) {
                rc = st_err_set(err, ST_EINVAL, (st_loc){path, c.line, col},
                                "rank %.0f is listed twice: one log is one run", rank);
                break;
            }
            host_add(&h, host);
            out->ranks++;
        } else if (column_header(p, len, c.line, &lay)) {
            continue;
        } else if (token(p, len, 0, t, sizeof t, &col) && isdigit((unsigned char)t[0])) {
            rc = data_row(path, &c, &lay, p, len, out, &cap, err);
        }
    }
    if (rc > 1 || rc < 0)
        rc = err->code ? err->code : st_err_set(err, rc, (st_loc){path, c.line, 0}, "%s", why);
    st_csv_close(&c);
    out->nodes = (int64_t)h.n;
    out->most_per_host = h.most;
    hosts_free(&h);
    /* what the log says it times: the binary it names, else its file's name (the base name
     * first: a folder's name is the file's only where the base name says nothing, and never
     * against an OP:, which names the log in a folder of logs of other collectives) */
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    int by_name =
        !said && (op_named(base, 0, &own, NULL) || (!op_name && op_named(path, 0, &own, NULL)));
    if (!rc && op_name && (said || by_name) && own != out->op) {
        /* an OP: is for a log that does not say; one that contradicts it would fit the
         * rows as another collective's, to a factor of nothing measured */
        if (said)
            rc = st_err_set(err, ST_EINVAL, (st_loc){path, said_line, said_col},
                            "--nccl-tests %s: says %s, but the log names %s_perf (%s): drop "
                            "the '%s:', or give %s_perf's log",
                            op_name, st_coll_op_name(out->op), st_cal_nccl_binary(own),
                            st_coll_op_name(own), op_name, st_cal_nccl_binary(out->op));
        else
            rc = st_err_set(err, ST_EINVAL, (st_loc){path, 0, 0},
                            "--nccl-tests %s: says %s, but the file's name says %s (%s): drop "
                            "the '%s:' if the name is right, else rename the file",
                            op_name, st_coll_op_name(out->op), st_cal_nccl_binary(own),
                            st_coll_op_name(own), op_name);
    }
    if (!op_name && (said || by_name))
        out->op = own;
    if (!rc && !op_name && !said && !by_name)
        rc = st_err_set(err, ST_EINVAL, (st_loc){path, 0, 0},
                        "which collective does this log time? neither the file nor its name "
                        "says (all_reduce_perf, ...): name it, --nccl-tests all_reduce:%s",
                        path);
    if (!rc && out->n == 0)
        rc = st_err_set(err, ST_EINVAL, (st_loc){path, 0, 0},
                        "no nccl-tests rows (size count type redop root time ...) in the file");
    if (!rc && out->ranks < 2)
        rc = st_err_set(err, ST_EINVAL, (st_loc){path, 0, 0},
                        "expected the '#  Rank N Group G Pid P on HOST device ...' lines "
                        "nccl-tests prints, one a rank; found %lld",
                        (long long)out->ranks);
    if (rc)
        st_cal_nccl_free(out);
    return rc;
}

void st_cal_nccl_free(st_cal_nccl *l)
{
    free(l->bytes);
    free(l->time_s);
    l->bytes = l->time_s = NULL;
    l->n = 0;
}

/* ---- GEMM timings ------------------------------------------------------------------------ */

enum { COL_M, COL_N, COL_K, COL_PREC, COL_TIME, COL_TFLOPS, N_COLS };
static const char *const col_names[N_COLS] = {"m", "n", "k", "precision", "time_us", "tflops"};

/* Field i of [p, p + len) as the job traces split a row (st_csv_split: RFC 4180 quoting, so a
 * spreadsheet's "m","n" header is read; it was "'m' is missing") into buf, trimmed, its column
 * into *col: 0 past the end, -1 when it does not fit buf (a longer field is no name or number of
 * this file's, and a cut one would be read as another). */
static int field(const char *p, size_t len, int i, char *buf, size_t n, unsigned *col)
{
    const char *f[ST_CSV_MAX_COLS];
    size_t fl[ST_CSV_MAX_COLS];
    int nf = st_csv_split(p, len, f, fl, ST_CSV_MAX_COLS);
    if (i >= nf || i >= ST_CSV_MAX_COLS)
        return 0;
    const char *s = f[i];
    size_t m = fl[i];
    while (m && isspace((unsigned char)*s))
        s++, m--;
    while (m && isspace((unsigned char)s[m - 1]))
        m--;
    *col = (unsigned)(s - p) + 1;
    if (m >= n)
        return -1;
    memcpy(buf, s, m);
    buf[m] = '\0';
    return 1;
}

/* The fields of a row, as field() splits it. */
static int field_count(const char *p, size_t len)
{
    return st_csv_split(p, len, NULL, NULL, 0);
}

/* The header: the field each column is at into at (-1: absent). */
static int header(const char *path, const char *p, size_t len, int *at, st_err *err)
{
    char f[64];
    unsigned col;
    for (int k = 0; k < N_COLS; k++)
        at[k] = -1;
    int got;
    for (int i = 0; (got = field(p, len, i, f, sizeof f, &col)) != 0; i++)
        for (int k = 0; got > 0 && k < N_COLS; k++)
            if (strcmp(f, col_names[k]) == 0) {
                if (at[k] >= 0)
                    return st_err_set(err, ST_EINVAL, (st_loc){path, 1, col},
                                      "column '%s' is named twice in the header", f);
                at[k] = i;
            }
    for (int k = 0; k < COL_TIME; k++)
        if (at[k] < 0) {     /* said as a trace's header is: at the cause, with what was found */
            st_diag d = {0}; /* the path whole, however long: the message cuts it between
                                characters if it must */
            char *what =
                st_xasprintf("GEMM sweep '%s' (m, n, k, precision and time_us or tflops)", path);
            st_csv_no_column(&d, path, 1, p, len, what, col_names[k], col_names, N_COLS);
            free(what);
            if (err)
                *err = d.items[0];
            return d.items[0].code;
        }
    if (at[COL_TIME] < 0 && at[COL_TFLOPS] < 0)
        return st_err_set(err, ST_EINVAL, (st_loc){path, 1, 1},
                          "expected a time_us or a tflops column in the header");
    return 0;
}

/* The largest m, n or k a row may give: 2^24, a GEMM past any GPU's memory (two BF16 operands
 * of 2^24 x 2^24 are a petabyte). */
#define ST_CAL_MAX_DIM (1 << 24)

/* Whether the row has the header's n fields: a field more or less would put each value after
 * it under another column's name, or leave a column read as nothing. The error is at the first
 * field past n, or at the end of a short row. */
static int row_width(const char *path, unsigned line, const char *p, size_t len, int n, st_err *err)
{
    int got = field_count(p, len);
    if (got == n)
        return 0;
    char f[64];
    unsigned col = (unsigned)len + 1;
    if (got > n)
        field(p, len, n, f, sizeof f, &col);
    return st_err_set(err, ST_EINVAL, (st_loc){path, line, col},
                      "expected %d fields, as the header has, found %d", n, got);
}

static int gemm_row(const char *path, unsigned line, const char *p, size_t len, const int *at,
                    int width, st_cal_gemm *r, st_err *err)
{
    char f[64];
    unsigned col = 1;
    double v[N_COLS] = {0};
    if (memchr(p, '\0', len))
        return st_err_set(err, ST_EINVAL, (st_loc){path, line, 1}, "a NUL byte in the row");
    if (row_width(path, line, p, len, width, err))
        return err->code;
    for (int k = 0; k < N_COLS; k++) {
        if (at[k] < 0 || k == COL_PREC)
            continue;
        int got = field(p, len, at[k], f, sizeof f, &col);
        if (got <= 0 || !number(f, &v[k]) || !(v[k] > 0))
            return st_err_set(err, ST_EINVAL, (st_loc){path, line, col},
                              "%s: expected a number above 0, found %s%s%s", col_names[k],
                              got > 0 ? "'" : "",
                              got > 0   ? f
                              : got < 0 ? "a longer field"
                                        : "nothing",
                              got > 0 ? "'" : "");
        if (k <= COL_K && v[k] > ST_CAL_MAX_DIM)
            return st_err_set(err, ST_EINVAL, (st_loc){path, line, col},
                              "%s: '%s' is beyond %d, larger than any GEMM a GPU holds",
                              col_names[k], f, ST_CAL_MAX_DIM);
    }
    int got = field(p, len, at[COL_PREC], f, sizeof f, &col);
    if (got <= 0 || (strcmp(f, "bf16") != 0 && strcmp(f, "fp8") != 0))
        return st_err_set(err, ST_EINVAL, (st_loc){path, line, col},
                          "precision: expected bf16 or fp8, found %s%s%s", got > 0 ? "'" : "",
                          got > 0   ? f
                          : got < 0 ? "a longer field"
                                    : "nothing",
                          got > 0 ? "'" : "");
    *r = (st_cal_gemm){.prec = strcmp(f, "fp8") == 0 ? ST_PREC_FP8 : ST_PREC_BF16,
                       .m = v[COL_M],
                       .n = v[COL_N],
                       .k = v[COL_K]};
    r->time_s =
        at[COL_TIME] >= 0 ? v[COL_TIME] * 1e-6 : 2 * r->m * r->n * r->k / (v[COL_TFLOPS] * 1e12);
    if (at[COL_TIME] >= 0 && at[COL_TFLOPS] >= 0) {
        /* both given: they must say one speed (to the rounding of a printed TFLOP/s), else the
         * fit took time_us silently and a wrong one read "no BF16 compute factor fits" */
        double implied = 2 * r->m * r->n * r->k / r->time_s / 1e12;
        if (fabs(implied - v[COL_TFLOPS]) > 0.01 * v[COL_TFLOPS] + 0.005) {
            field(p, len, at[COL_TFLOPS], f, sizeof f, &col);
            return st_err_set(err, ST_EINVAL, (st_loc){path, line, col},
                              "time_us and tflops disagree: the %.0fx%.0fx%.0f GEMM in %g us is "
                              "%.4g TFLOP/s, but tflops says %g; give one of them, or both alike "
                              "(within 1%%)",
                              r->m, r->n, r->k, v[COL_TIME], implied, v[COL_TFLOPS]);
        }
    }
    field(p, len, at[COL_TIME] >= 0 ? at[COL_TIME] : at[COL_TFLOPS], f, sizeof f, &col);
    r->at = (st_loc){path, line, col};
    return 0;
}

int st_cal_gemm_read(const char *path, st_cal_gemm **rows, size_t *n, st_err *err)
{
    st_csv c;
    char why[160];
    int rc = st_csv_open(&c, path, why, sizeof why), at[N_COLS], width = 0;
    if (rc) {
        st_csv_close(&c);
        return st_err_set(err, rc, (st_loc){path, 0, 0}, "%s", why);
    }
    const char *p;
    size_t len, cap = *n, before = *n;
    int first = 1;
    while (!rc && (rc = st_csv_next(&c, &p, &len, why, sizeof why)) == 1) {
        rc = 0;
        if (len == 0)
            continue;
        /* A line past 64 KiB comes back cut there (scenarios/csv_in.h): its time read short, or a
         * header's column missed, it was a GEMM read silently. Refused as the job traces refuse
         * it, at its start. */
        if (c.overlong) {
            rc = st_err_set(err, first ? ST_ELIMIT : ST_EINVAL, (st_loc){path, c.line, 1},
                            "malformed %s row: a row longer than %d bytes",
                            first ? "header" : "GEMM", ST_CSV_MAX_LINE);
            break;
        }
        if (first) {
            if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) /* a spreadsheet's byte-order mark */
                p += 3, len -= 3;
            rc = header(path, p, len, at, err);
            width = field_count(p, len);
            first = 0;
            continue;
        }
        *rows = st_xgrow(*rows, sizeof **rows, *n + 1, &cap);
        rc = gemm_row(path, c.line, p, len, at, width, &(*rows)[*n], err);
        *n += !rc;
    }
    if (rc > 1 || rc < 0)
        rc = err->code ? err->code : st_err_set(err, rc, (st_loc){path, c.line, 0}, "%s", why);
    st_csv_close(&c);
    if (!rc && (first || *n == before))
        rc = st_err_set(err, ST_EINVAL, (st_loc){path, 0, 0},
                        "no GEMM rows (m, n, k, precision, time_us or tflops) in the file");
    return rc;
}
