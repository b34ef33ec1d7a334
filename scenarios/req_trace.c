/* Reading a service's request trace (`requests: {mode: trace, file, format}`): each row a request
 * with its arrival and its prompt and output lengths, under the rules the job traces keep
 * (scenarios/trace.c, scenarios/csv_in.h): one open of a regular file within the size cap, a
 * header whose columns are unique, every number through st_limit_parse, a malformed row
 * skipped with a warning or refused as `malformed:` says, a value past a model's bound an error
 * either way. Two formats:
 *   csv    a header naming `arrival` (seconds, or a time with its unit), `input_tokens` and
 *          `output_tokens`, in any order;
 *   azure  Azure's LLM inference traces (Azure/AzurePublicDataset, AzureLLMInferenceTrace_code
 *          and _conv, 2023; the 2024 week-long ones alike; CC-BY, not copied here): `TIMESTAMP`
 *          as "2023-11-16 18:15:46.6805900", `ContextTokens`, `GeneratedTokens`.
 * The rows are sorted by arrival (stably) and timed from the first. Internal to scenarios/. */
#define _POSIX_C_SOURCE 200809L
#include "scenarios/req_trace.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/csv_in.h"
#include "sim/utf8.h"
#include "sim/xalloc.h"

static const char *const columns[][3] = {
    [ST_REQ_CSV] = {"arrival", "input_tokens", "output_tokens"},
    [ST_REQ_AZURE] = {"TIMESTAMP", "ContextTokens", "GeneratedTokens"},
};

/* A request's lengths: what the serving model holds (the scenario's own length bound). */
static const st_limit lim_tokens = {1, 1e7, "a request's tokens the serving model holds",
                                    "the scenario's input_tokens and output_tokens bound"};

typedef struct rreader {
    st_ld *ld;
    st_inference_cfg *ic;
    int col[3];
    int n_header; /* the header row's fields: a row with more is shifted or joined, not read */
    st_req_row *rows;
    size_t n, cap;
    st_csv_report rep; /* its rows' warnings and errors (csv_in.h) */
    int has_base;      /* azure: the first row's time, whole seconds and fraction, is the origin */
    int64_t base_s;
    double base_frac;
} rreader;

/* Field k under rule rl into *v: 1, or 0 after reporting the row. */
static int field(rreader *r, const char *const *f, const size_t *len, int k,
                 const st_value_rule *rl, const char *want, double *v)
{
    const char *name = columns[r->ic->trace_format][k];
    int c = r->col[k];
    char why[256];
    int rc = st_limit_parse(name, f[c], len[c], rl, v, why, sizeof why);
    if (rc == ST_ELIMIT)
        st_csv_row_error(&r->rep, f[c], rc, why);
    else if (rc)
        st_csv_malformed(&r->rep, f[c], "%s '%.*s' is not %s", name,
                         (int)st_utf8_fit(f[c], len[c], 40), f[c], want);
    return rc == 0;
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar (H. Hinnant,
 * "chrono-Compatible Low-Level Date Algorithms", days_from_civil). */
static int64_t days_from_civil(int64_t y, int64_t m, int64_t d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* "YYYY-MM-DD HH:MM:SS[.fraction]" into whole seconds and a fraction: 1, or 0 when the text is
 * not such a time (or names no such day). */
static int parse_stamp(const char *p, size_t n, int64_t *whole, double *frac)
{
    char buf[64];
    if (n >= sizeof buf)
        return 0;
    memcpy(buf, p, n);
    buf[n] = 0;
    static const char form[] = "dddd-dd-dd dd:dd:dd"; /* digits where 'd': no sign, no space */
    for (size_t i = 0; i < sizeof form - 1; i++)
        if (form[i] == 'd' ? !isdigit((unsigned char)buf[i]) : buf[i] != form[i])
            return 0;
    int y, mo, d, h, mi, s, used = 0;
    if (sscanf(buf, "%4d-%2d-%2d %2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &s, &used) != 6 ||
        used != 19)
        return 0;
    static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || (mo == 2 && d == 29 && !leap) ||
        h > 23 || mi > 59 || s > 59) /* second 60 (a leap second) was taken: no trace has one */
        return 0;
    *frac = 0;
    if (buf[19] == '.') {
        double scale = 0.1;
        size_t i = 20;
        for (; buf[i] >= '0' && buf[i] <= '9'; i++, scale *= 0.1)
            *frac += (buf[i] - '0') * scale;
        if (i == 20 || buf[i])
            return 0;
    } else if (buf[19]) {
        return 0;
    }
    *whole = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
    return 1;
}

/* The row's arrival, seconds after the origin: 1, or 0 after reporting the row. */
static int arrival(rreader *r, const char *const *f, const size_t *len, double *t)
{
    if (r->ic->trace_format == ST_REQ_CSV) {
        st_value_rule rt = {.dim = ST_DIM_TIME,
                            .range = ST_R_NONNEG,
                            .lim = &st_lim_run,
                            .unit_flags = ST_UNIT_BARE_SI,
                            .scale = 1};
        return field(r, f, len, 0, &rt, "a time >= 0", t);
    }
    int c = r->col[0];
    int64_t whole;
    double frac;
    if (!parse_stamp(f[c], len[c], &whole, &frac)) {
        st_csv_malformed(&r->rep, f[c],
                         "TIMESTAMP '%.*s' is not a time such as 2023-11-16 18:15:46.68",
                         (int)st_utf8_fit(f[c], len[c], 40), f[c]);
        return 0;
    }
    if (!r->has_base) {
        r->has_base = 1;
        r->base_s = whole;
        r->base_frac = frac;
    }
    *t = (double)(whole - r->base_s) + (frac - r->base_frac);
    if (fabs(*t) > st_lim_run.max) { /* as a CSV's arrival is held (st_lim_run) */
        /* a bound, not a malformed row: an error whatever `malformed:` says, as the job traces
         * and a CSV's arrival refuse one (it was skipped with a warning) */
        char why[256];
        st_snprintf(why, sizeof why,
                    "TIMESTAMP '%.*s' is %.4g years from the first row's, beyond %s (%.4g years)",
                    (int)st_utf8_fit(f[c], len[c], 40), f[c], fabs(*t) / (365 * 86400.0),
                    st_lim_run.what, st_lim_run.max / (365 * 86400.0));
        st_csv_row_error(&r->rep, f[c], ST_ELIMIT, why);
        return 0;
    }
    return 1;
}

static void row(rreader *r, const char *p, size_t n)
{
    const char *f[ST_CSV_MAX_COLS];
    size_t len[ST_CSV_MAX_COLS];
    if (st_csv_row_bytes(&r->rep, p, n))
        return;
    int nf = st_csv_split(p, n, f, len, ST_CSV_MAX_COLS);
    if (nf > r->n_header) { /* which field is which is no longer known */
        st_csv_malformed(&r->rep, NULL, "%d fields where the header row has %d", nf, r->n_header);
        return;
    }
    for (int k = 0; k < 3; k++)
        if (r->col[k] >= nf) {
            st_csv_malformed(&r->rep, NULL, "%d fields, but column '%s' is field %d", nf,
                             columns[r->ic->trace_format][k], r->col[k] + 1);
            return;
        }
    st_value_rule tok = {.dim = ST_DIM_COUNT,
                         .range = ST_R_MIN1,
                         .whole = 1,
                         .lim = &lim_tokens,
                         .unit_flags = ST_UNIT_PLAIN};
    double t, in, out;
    if (!arrival(r, f, len, &t) || !field(r, f, len, 1, &tok, "a whole number >= 1", &in) ||
        !field(r, f, len, 2, &tok, "a whole number >= 1", &out))
        return;
    r->rows = st_xgrow(r->rows, sizeof *r->rows, r->n + 1, &r->cap);
    r->rows[r->n++] = (st_req_row){t, (int64_t)in, (int64_t)out};
}

static void row_of(void *r, const char *p, size_t n)
{
    row(r, p, n);
}

static int rows(rreader *r, st_csv *c, char *why, size_t wn)
{
    char msg[96];
    snprintf(msg, sizeof msg, "the request trace has more than %u rows, the limit",
             (unsigned)ST_REQ_TRACE_MAX_ROWS);
    return st_csv_each_row(c, &r->rep, ST_REQ_TRACE_MAX_ROWS, msg, row_of, r, why, wn);
}

static int header(rreader *r, st_csv *c, const st_ynode *at, const char *p, size_t n)
{
    const char *const *want = columns[r->ic->trace_format];
    if (st_csv_read_header(r->ld->rd.diag, r->ic->trace_file, c, p, n, want, 3, r->col))
        return -1;
    const char *hf[ST_CSV_MAX_COLS];
    size_t hl[ST_CSV_MAX_COLS];
    r->n_header = st_csv_split(p, n, hf, hl, ST_CSV_MAX_COLS);
    char what[160];
    st_snprintf(what, sizeof what, "request trace '%s' (format %s)", at->text,
                st_req_format_names[r->ic->trace_format]);
    for (int k = 0; k < 3; k++)
        if (r->col[k] < 0)
            return st_csv_no_column(r->ld->rd.diag, r->ic->trace_file, c->line, p, n, what, want[k],
                                    want, 3);
    return 0;
}

/* By arrival, then lengths: rows that tie on all three are alike, so the order qsort leaves
 * them in changes nothing, and the result is the same on every libc. */
static int cmp_row(const void *a, const void *b)
{
    const st_req_row *x = a, *y = b;
    if (x->arrival_s != y->arrival_s)
        return x->arrival_s < y->arrival_s ? -1 : 1;
    if (x->in != y->in)
        return x->in < y->in ? -1 : 1;
    return (x->out > y->out) - (x->out < y->out);
}

/* A trace left with no request: its header alone, or every row malformed, said with each row's
 * reason (csv_in.h), since a scenario that does not load prints no warning. */
static int no_request(rreader *r, const st_ynode *at)
{
    if (!r->rep.skipped)
        return st_rd_fail(&r->ld->rd, at, ST_EINVAL, "request trace '%s' has no request", at->text);
    char why[96];
    int rc = st_rd_fail(&r->ld->rd, at, ST_EINVAL,
                        "request trace '%s' has no request that could be read: %s", at->text,
                        st_csv_skipped_reason(&r->rep, why, sizeof why));
    st_csv_skipped_as_errors(&r->rep);
    return rc;
}

/* The rows as the service's requests: from the first arrival, their means and the longest. */
static int keep(rreader *r, const st_ynode *at)
{
    st_inference_cfg *ic = r->ic;
    if (r->n == 0)
        return no_request(r, at);
    qsort(r->rows, r->n, sizeof *r->rows, cmp_row);
    double t0 = r->rows[0].arrival_s, in = 0, out = 0;
    int64_t longest = 0;
    for (size_t i = 0; i < r->n; i++) {
        st_req_row *q = &r->rows[i];
        q->arrival_s -= t0;
        in += (double)q->in;
        out += (double)q->out;
        longest = q->in + q->out > longest ? q->in + q->out : longest;
    }
    st_req_row *kept = st_rd_alloc(&r->ld->rd, r->n * sizeof *kept);
    memcpy(kept, r->rows, r->n * sizeof *kept);
    ic->trace = kept;
    ic->n_trace = (int64_t)r->n;
    ic->count = (int64_t)r->n;
    ic->input_tokens = (int64_t)(in / (double)r->n + 0.5);
    ic->output_tokens = (int64_t)(out / (double)r->n + 0.5);
    ic->longest = longest;
    double span = kept[r->n - 1].arrival_s;
    ic->rate = span > 0 ? (double)(r->n - 1) / span : 0; /* 0: none (st_inference_has_rate) */
    return 0;
}

int st__req_trace_read(st_ld *ld, const st_ynode *at, st_inference_cfg *ic)
{
    st_csv c;
    char why[160] = "";
    int rc = st_csv_open(&c, ic->trace_file, why, sizeof why);
    if (rc) {
        st_csv_close(&c);
        if (rc == ST_ENOTFOUND)
            return st_rd_fail(&ld->rd, at, rc,
                              "request trace '%s' not found (looked for '%s'; relative paths "
                              "start at the scenario's folder)",
                              at->text, ic->trace_file);
        return st_rd_fail(&ld->rd, at, rc, "request trace '%s' %s", at->text, why);
    }
    rreader r = {.ld = ld,
                 .ic = ic,
                 .rep = {.errors = ld->rd.diag,
                         .warnings = &ld->s->warnings,
                         .file = ic->trace_file,
                         .noun = "request row",
                         .refuse = ic->refuse_malformed}};
    const char *p = "";
    size_t n = 0;
    rc = st_csv_header_line(&c, &p, &n, why, sizeof why);
    if (rc == 0) { /* not "no column 'x' in its header row": there is no header row */
        const char *const *want = columns[ic->trace_format];
        st_rd_fail(&ld->rd, at, ST_EINVAL,
                   "request trace '%s' is empty: expected a header row naming its columns "
                   "(format %s: %s, %s, %s), then one row per request",
                   at->text, st_req_format_names[ic->trace_format], want[0], want[1], want[2]);
        rc = 1;
    } else if (rc > 0) {
        rc = header(&r, &c, at, p, n) ? 1 : rows(&r, &c, why, sizeof why);
    }
    if (rc < 0)
        st_rd_fail(&ld->rd, at, rc, "request trace '%s' %s", at->text, why);
    st_csv_close(&c);
    st_csv_skipped_summary(&r.rep, at->loc, "request trace", at->text);
    if (!rc && !r.rep.stop)
        rc = keep(&r, at);
    free(r.rows);
    return rc || r.rep.stop ? -1 : 0;
}
