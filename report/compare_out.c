/* `strata compare`'s writers: the policies' rows as an aligned text table, Markdown, CSV, JSON
 * or an HTML page (compare_html.c), each figure column a compare row of the report's schema
 * (report/figures.h) with its key, heading, unit and the result it reads. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"
#include "report/report.h"
#include "sim/strfmt.h"
#include "sim/units.h"
#include "sim/utf8.h"
#include "sim/xalloc.h"

size_t st_compare_figs(const st_fig **figs)
{
    size_t n = 0;
    for (size_t k = 0; k < st_fig_count; k++)
        if (st_figs[k].doc == ST_DOC_COMPARE && st_figs[k].flags & ST_FIG_SPREAD) {
            if (n == ST_COMPARE_MAX_FIGS)
                ST_BUG("compare has more than %d figure columns", ST_COMPARE_MAX_FIGS);
            figs[n++] = &st_figs[k];
        }
    return n;
}

/* A figure over the finished jobs (their waits, times queued and completion times): a cluster
 * time but the makespan. */
static int over_finished(const st_fig *f)
{
    return f->unit == ST_FU_TIME && strcmp(f->path, "policies[].makespan_s") != 0;
}

void st_compare_fill(st_compare_row *r, const st_cluster_energy *energy,
                     const st_run_serving *serving)
{
    const st_fig *figs[ST_COMPARE_MAX_FIGS];
    size_t n = st_compare_figs(figs);
    int priced = energy && energy->has_cost;
    for (size_t k = 0; k < n; k++) {
        st_fig_src src = figs[k]->src;
        const void *base = src == ST_SRC_CLUSTER                 ? (const void *)&r->st
                           : src == ST_SRC_ENERGY                ? (const void *)energy
                           : src == ST_SRC_ENERGY_COST && priced ? (const void *)energy
                           : src == ST_SRC_SERVING               ? (const void *)serving
                           : src == ST_SRC_TRAINING && serving && serving->train_jobs > 0
                               ? (const void *)serving
                               : NULL;
        /* the waits and completion times are over the finished jobs: none finished, none to
         * show (not 0 s, as a review found beside run's "no job, so no JCT") */
        if (src == ST_SRC_CLUSTER && r->st.finished == 0 && over_finished(figs[k]))
            base = NULL;
        r->has[k] = base != NULL;
        r->v[k] = base ? st_fig_read(figs[k], base) : 0;
    }
}

char *st_compare_row_name(const char *policy, const char *placement, int placements)
{
    return placements ? st_xasprintf("%s/%s", policy, placement) : st_xstrdup(policy);
}

int st_compare_placements_differ(const cJSON *pols)
{
    for (const cJSON *p = pols ? pols->child : NULL; p && p->next; p = p->next) {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(p, "placement"),
                    *b = cJSON_GetObjectItemCaseSensitive(p->next, "placement");
        if (cJSON_IsString(a) != cJSON_IsString(b) ||
            (cJSON_IsString(a) && strcmp(a->valuestring, b->valuestring) != 0))
            return 1;
    }
    return 0;
}

void st_compare_label_rows(st_compare_row *rows, size_t n)
{
    int placements = 0;
    for (size_t i = 1; i < n; i++)
        placements |= strcmp(rows[i].placement, rows[i - 1].placement) != 0;
    for (size_t i = 0; i < n; i++) {
        char *name = st_compare_row_name(rows[i].policy, rows[i].placement, placements);
        st_snprintf(rows[i].label, sizeof rows[i].label, "%s", name);
        free(name);
    }
}

/* A figure column's key in the JSON and CSV: its path after "policies[]." */
static const char *key_of(const st_fig *f)
{
    return f->path + strlen("policies[].");
}

static char *json(const st_compare_doc *d);

/* The answer in words the Markdown and the HTML open with (report/summary.c), as a paragraph. */
static void text_summary(FILE *out, const st_compare_doc *d)
{
    char *j = json(d), *summary = st_compare_summary(j);
    fprintf(out, "\n%s\n", summary);
    free(summary);
    free(j);
}

/* The widest band of the rows (st_compare_row.band_lo, band_hi): the least low end and the most
 * high end, multipliers of a forecast; hi 0 where no row has one. */
typedef struct {
    double lo, hi;
} band_ends;

static band_ends band_of(const st_compare_row *rows, size_t n)
{
    band_ends b = {1, 0};
    for (size_t i = 0; i < n; i++)
        if (rows[i].band_hi > 0) {
            b.lo = rows[i].band_lo < b.lo ? rows[i].band_lo : b.lo;
            b.hi = rows[i].band_hi > b.hi ? rows[i].band_hi : b.hi;
        }
    return b;
}

/* A figure column that scales with the jobs' step times. */
static int banded(const st_fig *f)
{
    return f->unit == ST_FU_TIME || f->unit == ST_FU_ENERGY || f->unit == ST_FU_MONEY;
}

int st_compare_in_band(const st_compare_row *rows, size_t n, size_t i, size_t k)
{
    const st_fig *figs[ST_COMPARE_MAX_FIGS];
    size_t nf = st_compare_figs(figs);
    band_ends b = band_of(rows, n);
    double best = INFINITY;
    if (k >= nf || !banded(figs[k]) || !(b.hi > 0))
        return 0;
    for (size_t j = 0; j < n; j++)
        if (rows[j].has[k] && rows[j].v[k] < best)
            best = rows[j].v[k];
    return rows[i].has[k] && rows[i].v[k] <= b.hi * best;
}

/* A count (preemptions): shown whole, its column as wide as its heading. */
static int is_count(const st_fig *f)
{
    return f->ctype == ST_FIG_I64;
}

/* Column k is shown: every row has its figure (an optional one may be absent: then the column
 * is). */
static int shown(const st_compare_row *rows, size_t n, size_t k)
{
    for (size_t i = 0; i < n; i++)
        if (!rows[i].has[k])
            return 0;
    return n > 0;
}

/* A figure in a table cell as the HTML and the summary show it (st_fig_number_text): a share in
 * percent at 4 significant digits (55.6%, which the summary says, not a table's 55.60%), a mean
 * count (fragmented GPUs) at 4 significant digits (0.0003385, where two decimals read 0.00),
 * money grouped (2,221,000 USD), else in its unit. */
static void one_cell(char *buf, size_t n, double v, const st_fig *f)
{
    st_fig_number_text(f->unit, v, buf, n);
}

/* A figure, with its spread when there are replicas ("5.2 h ±0.3 h"); a count from 10,000 up
 * with its thousands set apart, in the text as in Markdown and every report table (reports.md):
 * the text said 121513 where the Markdown says 121,513. */
static void cell(char *buf, size_t n, double v, double sd, const st_fig *f, int spread)
{
    if (is_count(f)) {
        if (spread)
            snprintf(buf, n, "%.4g ±%.2g", v, sd);
        else
            st_fig_number_text(ST_FU_NUMBER, round(v), buf, n);
        return;
    }
    one_cell(buf, n, v, f);
    if (spread) {
        char b[32];
        one_cell(b, sizeof b, sd, f);
        snprintf(buf + strlen(buf), n - strlen(buf), " ±%s", b);
    }
}

/* The cells of row r after its label, in column order: w wide, a count as wide as its
 * heading. */
static void row_cells(FILE *out, const st_compare_row *rows, size_t n, size_t i, const char *sep,
                      int w, int spread)
{
    const st_fig *figs[ST_COMPARE_MAX_FIGS];
    size_t nf = st_compare_figs(figs);
    char b[64];
    for (size_t k = 0; k < nf; k++)
        if (shown(rows, n, k)) {
            cell(b, sizeof b, rows[i].v[k], rows[i].sd[k], figs[k], spread);
            fprintf(out, "%s%*s", sep, is_count(figs[k]) ? (int)strlen(figs[k]->head) : w, b);
        }
}

/* An aligned text table, or a Markdown one. */
static void table(FILE *out, const st_compare_row *rows, size_t n, int md, int spread)
{
    const st_fig *figs[ST_COMPARE_MAX_FIGS];
    size_t nf = st_compare_figs(figs), cols = 0;
    const char *sep = md ? " | " : "  ";
    int w = 8, cw = spread ? 20 : 10;
    for (size_t i = 0; i < n; i++)
        w = (int)strlen(rows[i].label) > w ? (int)strlen(rows[i].label) : w;
    fprintf(out, md ? "| %-*s | %8s" : "%-*s  %8s", w, "policy", "finished");
    for (size_t k = 0; k < nf; k++)
        if (shown(rows, n, k)) {
            fprintf(out, "%s%*s", sep, is_count(figs[k]) ? 0 : cw, figs[k]->head);
            cols++;
        }
    fprintf(out, "%s\n", md ? " |" : "");
    if (md) {
        fprintf(out, "|---|---:|");
        for (size_t c = 0; c < cols; c++)
            fprintf(out, "---:|");
        fprintf(out, "\n");
    }
    for (size_t i = 0; i < n; i++) {
        char fin[ST_REPORT_VALUE_MAX]; /* grouped in both: 82,247, as the header says it */
        st_fig_number_text(ST_FU_NUMBER, (double)rows[i].st.finished, fin, sizeof fin);
        if (md) { /* the label, the one text cell, through the Markdown cell writer */
            fputs("| ", out);
            st_report_md_cell(out, rows[i].label);
            fprintf(out, "%*s | %8s", w - (int)strlen(rows[i].label), "", fin);
        } else {
            fprintf(out, "%-*s  %8s", w, rows[i].label, fin);
        }
        row_cells(out, rows, n, i, sep, cw, spread);
        fprintf(out, "%s\n", md ? " |" : "");
    }
}

/* On a cluster of several pools, each row's pools under the table: jobs, finished, mean wait
 * to first start and utilisation (docs/models/pools.md), a line per row and pool. */
static void pools_table(FILE *out, const st_compare_row *rows, size_t n, int md)
{
    if (!n || !rows[0].n_pool)
        return;
    int w = 8, wp = 4;
    char a[32];
    for (size_t i = 0; i < n; i++) {
        w = (int)strlen(rows[i].label) > w ? (int)strlen(rows[i].label) : w;
        for (int k = 0; k < rows[i].n_pool; k++)
            wp = (int)strlen(rows[i].pool_cfg[k].name) > wp ? (int)strlen(rows[i].pool_cfg[k].name)
                                                            : wp;
    }
    fprintf(out,
            md ? "\nBy pool:\n\n| policy | pool | jobs | finished | wait mean | util |\n"
                 "|---|---|---:|---:|---:|---:|\n"
               : "\nby pool:\n%-*s  %-*s  %6s  %8s  %10s  %8s\n",
            w, "policy", wp, "pool", "jobs", "finished", "wait mean", "util");
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < rows[i].n_pool; k++) {
            const st_cluster_pool_stats *p = &rows[i].pool[k];
            if (p->finished) /* over its finished jobs: none, no wait ("-", not 0 s) */
                st_unit_format(p->mean_wait_s, ST_DIM_TIME, a, sizeof a);
            else
                snprintf(a, sizeof a, "-");
            st_fig_text jobs = st_fig_plain((double)p->jobs),
                        fin = st_fig_plain((double)p->finished);
            char util[ST_FIG_TEXT_MAX]; /* a share as the table above and the summary say one */
            st_fig_number_text(ST_FU_SHARE, p->utilization, util, sizeof util);
            if (md) {
                fputs("| ", out);
                st_report_md_cell(out, rows[i].label);
                fputs(" | ", out);
                st_report_md_cell(out, rows[i].pool_cfg[k].name);
                fprintf(out, " | %s | %s | %s | %s |\n", jobs.s, fin.s, a, util);
            } else {
                fprintf(out, "%-*s  %-*s  %6s  %8s  %10s  %8s\n", w, rows[i].label, wp,
                        rows[i].pool_cfg[k].name, jobs.s, fin.s, a, util);
            }
        }
}

/* Under the table: the band, and for each column that moves with it the rows within it of the
 * best: their differences from the best are smaller than the step model's error. */
static void band_notes(FILE *out, const st_compare_row *rows, size_t n, int md)
{
    const st_fig *figs[ST_COMPARE_MAX_FIGS];
    size_t nf = st_compare_figs(figs);
    band_ends b = band_of(rows, n);
    if (!(b.hi > 0))
        return;
    fprintf(out,
            "\n%serror band -%.0f%%/+%.0f%% (the widest of the training jobs' step-model bands, "
            "docs/models/error-band.md); rows within it of the best, whose difference from the "
            "best is smaller than the model's error on one job (a conservative test: the same "
            "model times every row, so much of its error moves them alike, and a ranking can "
            "hold inside it):\n",
            md ? "" : "", 100 * (1 - b.lo), 100 * (b.hi - 1));
    for (size_t k = 0; k < nf; k++) {
        if (!shown(rows, n, k) || !banded(figs[k]))
            continue;
        fprintf(out, "%s%s:", md ? "- " : "  ", figs[k]->label);
        size_t within = 0;
        for (size_t i = 0; i < n; i++)
            within += (size_t)st_compare_in_band(rows, n, i, k);
        if (within == n && n > 1) {
            fputs(" every row", out);
            fputc('\n', out);
            continue;
        }
        const char *sep = " ";
        for (size_t i = 0; i < n; i++)
            if (st_compare_in_band(rows, n, i, k)) {
                fputs(sep, out);
                if (md)
                    st_report_md_cell(out, rows[i].label);
                else
                    fputs(rows[i].label, out);
                sep = "; ";
            }
        fputc('\n', out);
    }
}

/* A figure's CSV cell after its comma: the JSON report's number (report.h), empty when none. */
static void csv_number(FILE *out, double v)
{
    char num[32];
    st_report_number_exact(v, num, sizeof num);
    fprintf(out, ",%s", num);
}
/* The place of column k among the spreads' CSV columns: the figures first, then the counts, then
 * the optional figures. */
static int sd_group(const st_fig *f)
{
    return f->flags & ST_FIG_OPTIONAL ? 2 : is_count(f) ? 1 : 0;
}

/* On a cluster of pools, each pool's columns after the others, named by the pool (the first
 * row's pools: every policy runs the same cluster): pool.NAME.jobs, .finished, .mean_wait_s
 * (empty where none finished) and .utilization, as the text's "by pool" table. */
static const char *const pool_cols[] = {"jobs", "finished", "mean_wait_s", "utilization"};

static void csv_pool_header(FILE *out, const st_compare_row *rows, size_t n)
{
    for (int k = 0; n > 0 && k < rows[0].n_pool; k++)
        for (size_t c = 0; c < sizeof pool_cols / sizeof *pool_cols; c++) {
            char *key = st_xasprintf("pool.%s.%s", rows[0].pool_cfg[k].name, pool_cols[c]);
            fputc(',', out);
            st_report_csv_cell(out, key);
            free(key);
        }
}

static void csv_pool_cells(FILE *out, const st_compare_row *r)
{
    for (int k = 0; k < r->n_pool; k++) {
        const st_cluster_pool_stats *p = &r->pool[k];
        fprintf(out, ",%zu,%zu", p->jobs, p->finished);
        if (p->finished)
            csv_number(out, p->mean_wait_s);
        else
            fputc(',', out);
        csv_number(out, p->utilization);
    }
}

static void csv(FILE *out, const st_compare_row *rows, size_t n, int spread)
{
    const st_fig *figs[ST_COMPARE_MAX_FIGS];
    size_t nf = st_compare_figs(figs);
    fprintf(out, "policy,placement,jobs,finished,unfinished");
    for (size_t k = 0; k < nf; k++)
        if (shown(rows, n, k))
            fprintf(out, ",%s", key_of(figs[k]));
    for (int g = 0; spread && g < 3; g++)
        for (size_t k = 0; k < nf; k++)
            if (shown(rows, n, k) && sd_group(figs[k]) == g)
                fprintf(out, ",%s_sd", key_of(figs[k]));
    int banded_csv = band_of(rows, n).hi > 0;
    if (banded_csv)
        fprintf(out, ",within_band");
    csv_pool_header(out, rows, n);
    fprintf(out, "\n");
    for (size_t i = 0; i < n; i++) {
        const st_compare_row *r = &rows[i];
        st_report_csv_cell(out, r->policy); /* the text cells, through the CSV cell writer */
        fputc(',', out);
        st_report_csv_cell(out, r->placement);
        fprintf(out, ",%zu,%zu,%zu", r->st.jobs, r->st.finished, r->st.unfinished);
        for (size_t k = 0; k < nf; k++)
            if (shown(rows, n, k))
                csv_number(out, r->v[k]);
        for (int g = 0; spread && g < 3; g++)
            for (size_t k = 0; k < nf; k++)
                if (shown(rows, n, k) && sd_group(figs[k]) == g)
                    csv_number(out, r->sd[k]);
        if (banded_csv) { /* the keys within the band of the best, ';'-separated */
            fputc(',', out);
            for (size_t k = 0, first = 1; k < nf; k++)
                if (shown(rows, n, k) && st_compare_in_band(rows, n, i, k)) {
                    fprintf(out, "%s%s", first ? "" : ";", key_of(figs[k]));
                    first = 0;
                }
        }
        csv_pool_cells(out, r);
        fprintf(out, "\n");
    }
}

/* The shown figures v[] into o, keyed as the schema's rows. */
static void json_figures(cJSON *o, const st_compare_row *rows, size_t n, const double *v)
{
    const st_fig *figs[ST_COMPARE_MAX_FIGS];
    size_t nf = st_compare_figs(figs);
    for (size_t k = 0; k < nf; k++)
        if (shown(rows, n, k))
            cJSON_AddNumberToObject(o, key_of(figs[k]), v[k]);
}

/* policies[].pools: each pool's share of row r's run, on a cluster of several pools. */
static void json_pools(cJSON *o, const st_compare_row *r)
{
    if (!r->n_pool)
        return;
    cJSON *a = cJSON_AddArrayToObject(o, "pools");
    for (int k = 0; k < r->n_pool; k++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", r->pool_cfg[k].name);
        cJSON_AddNumberToObject(e, "jobs", (double)r->pool[k].jobs);
        cJSON_AddNumberToObject(e, "finished", (double)r->pool[k].finished);
        if (r->pool[k].finished) /* over its finished jobs: none, no wait */
            cJSON_AddNumberToObject(e, "mean_wait_s", r->pool[k].mean_wait_s);
        cJSON_AddNumberToObject(e, "utilization", r->pool[k].utilization);
        cJSON_AddItemToArray(a, e);
    }
}

static char *json(const st_compare_doc *d)
{
    const st_compare_row *rows = d->rows;
    size_t n = d->n;
    int spread = d->replicas > 1;
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "scenario", d->scenario);
    cJSON_AddNumberToObject(root, "seed", (double)d->seed);
    if (spread)
        cJSON_AddNumberToObject(root, "replicas", (double)d->replicas);
    band_ends b = band_of(rows, n);
    if (b.hi > 0) { /* the band run prints, as shares below and above a forecast */
        cJSON_AddNumberToObject(root, "band_below", 1 - b.lo);
        cJSON_AddNumberToObject(root, "band_above", b.hi - 1);
    }
    cJSON *arr = cJSON_AddArrayToObject(root, "policies");
    for (size_t i = 0; i < n; i++) {
        const st_compare_row *r = &rows[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "policy", r->policy);
        cJSON_AddStringToObject(o, "placement", r->placement);
        cJSON_AddNumberToObject(o, "jobs", (double)r->st.jobs);
        cJSON_AddNumberToObject(o, "finished", (double)r->st.finished);
        cJSON_AddNumberToObject(o, "unfinished", (double)r->st.unfinished);
        json_figures(o, rows, n, r->v);
        json_pools(o, r);
        if (spread) /* the sample standard deviation of each figure over the replicas */
            json_figures(cJSON_AddObjectToObject(o, "spread"), rows, n, r->sd);
        if (b.hi > 0) { /* the figures within the band of the best row's */
            const st_fig *figs[ST_COMPARE_MAX_FIGS];
            size_t nf = st_compare_figs(figs);
            cJSON *in = cJSON_AddArrayToObject(o, "within_band");
            for (size_t k = 0; k < nf; k++)
                if (shown(rows, n, k) && st_compare_in_band(rows, n, i, k))
                    cJSON_AddItemToArray(in, cJSON_CreateString(key_of(figs[k])));
        }
        cJSON_AddItemToArray(arr, o);
    }
    return st_report_json_print(root);
}

/* The HTML report: compare's JSON and each row's waits (compare_html.c). */
static char *html(const st_compare_doc *d)
{
    char *j = json(d);
    st_compare_waits *w = st_xcalloc(d->n ? d->n : 1, sizeof *w);
    for (size_t i = 0; i < d->n; i++)
        w[i] = (st_compare_waits){d->rows[i].label, d->rows[i].waits_h, d->rows[i].n_waits};
    char *doc = st_compare_html(d->scenario, j, w, d->n);
    free(w);
    free(j);
    return doc;
}

char *st_compare_render(const st_compare_doc *d, st_compare_format f)
{
    const st_compare_row *rows = d->rows;
    size_t n = d->n;
    int spread = d->replicas > 1;
    if (f == ST_CMP_JSON)
        return json(d);
    if (f == ST_CMP_HTML)
        return html(d);
    char *buf;
    size_t len;
    FILE *out = st_report_open(&buf, &len);
    if (f == ST_CMP_CSV) {
        csv(out, rows, n, spread);
    } else {
        char seeds[96];
        snprintf(seeds, sizeof seeds, spread ? "seeds %llu-%llu (mean ±sample sd)" : "seed %llu",
                 (unsigned long long)d->seed,
                 (unsigned long long)(d->seed + (uint64_t)d->replicas - 1));
        if (f == ST_CMP_TEXT)
            fprintf(out, "scenario '%s', %s: %s job%s, placement %s\n", d->scenario, seeds,
                    st_fig_plain(n ? (double)rows[0].st.jobs : 0).s, /* 82,247 as markdown has it */
                    st_plural_s(n ? (long long)rows[0].st.jobs : 0),
                    d->placements ? d->placements
                    : n           ? rows[0].placement
                                  : "pack");
        if (f == ST_CMP_MARKDOWN) { /* the title and the answer in words (compare_html.c) */
            char *j = json(d);
            st_compare_md_head(out, d->scenario, j);
            free(j);
        }
        table(out, rows, n, f == ST_CMP_MARKDOWN, spread);
        pools_table(out, rows, n, f == ST_CMP_MARKDOWN);
        band_notes(out, rows, n, f == ST_CMP_MARKDOWN);
        if (f == ST_CMP_TEXT) /* last, where a terminal leaves the eye: the answer in words */
            text_summary(out, d);
    }
    return st_report_close(out, &buf);
}

void st_compare_row_release(st_compare_row *r)
{
    free(r->waits_h);
    free(r->pool);
    r->waits_h = NULL;
    r->pool = NULL;
}
