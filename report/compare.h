/* `strata compare`'s rows and their writers (report/compare_out.c, report/compare_html.c): one
 * row per policy (and placement), its figure columns the compare rows of the report's schema
 * (report/figures.h) that carry a spread, in their order. cli/cmd_compare.c runs the policies and
 * fills the rows; these turn them into text. */
#ifndef ST_REPORT_COMPARE_H
#define ST_REPORT_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "models/forecast/cluster_energy.h"
#include "models/forecast/run.h"
#include "models/sched/cluster.h"
#include "report/figures.h"

struct cJSON; /* report/ alone reads JSON: <cjson/cJSON.h> stays out of the CLI */

/* The most figure columns a row holds. */
#define ST_COMPARE_MAX_FIGS 24

/* One row: the policy's and placement's names, its label in a table, its job counts, and its
 * figures (with replicas, their means, and in sd their sample standard deviations), one per
 * figure column; has: the run has the figure (an optional one, energy, needs a power model). */
typedef struct st_compare_row {
    const char *policy, *placement;
    char label[64];
    st_cluster_stats st; /* jobs, finished, unfinished, too_big */
    double v[ST_COMPARE_MAX_FIGS], sd[ST_COMPARE_MAX_FIGS];
    unsigned char has[ST_COMPARE_MAX_FIGS];
    double *waits_h; /* the started jobs' waits (the first replica's), for the HTML's CDF */
    size_t n_waits;
    /* The widest of its training jobs' step-model error bands, the least low end and the most
     * high end, as multipliers of a forecast (models/forecast/band.h: [t lo, t hi], the band
     * `run` prints); 0, 0: no job has one (trace jobs replay their recorded durations). */
    double band_lo, band_hi;
    /* On a cluster of several pools, each pool's share (models/sched/cluster.h; with replicas,
     * the means of its waits and utilisations, the fewest finished), named by pool_cfg[k];
     * n_pool 0 otherwise. Owned: st_compare_row_release frees it. */
    st_cluster_pool_stats *pool;
    int n_pool;
    const st_pool_cfg *pool_cfg;
} st_compare_row;

/* Free what row r owns. */
void st_compare_row_release(st_compare_row *r);

/* The figure columns whose values move with the step model's error: times, energy, money. Of
 * those, whether row i's figure k is within the band of the best (least) row's, v <= best hi
 * with hi the most band_hi of the rows: inside the band `run` gives the best's figure (0: no
 * band, nothing within). */
int st_compare_in_band(const st_compare_row *rows, size_t n, size_t i, size_t k);

/* The figure columns into figs[ST_COMPARE_MAX_FIGS]; returns how many. */
size_t st_compare_figs(const st_fig **figs);

/* Row r's figures, read from its st (the cluster run's stats), the cluster run's energy (NULL:
 * none, and the figures that read it are absent; its cost is absent without prices) and its
 * services' share of requests within their targets (NULL: no service states one). */
void st_compare_fill(st_compare_row *r, const st_cluster_energy *energy,
                     const st_run_serving *serving);

/* What every format calls a row (the tables, the summary, the HTML's and the CDF's legend): its
 * policy, or "policy/placement" where placements is nonzero, the rows running more than one
 * placement. Malloc'd. */
char *st_compare_row_name(const char *policy, const char *placement, int placements);

/* Whether the rows of compare's JSON policies array pols run more than one placement. */
int st_compare_placements_differ(const struct cJSON *pols);

/* Each of rows[0 .. n)'s label, its name (st_compare_row_name) as the rows' placements ask. */
void st_compare_label_rows(st_compare_row *rows, size_t n);

/* The forms of compare's table (--format), in the order its usage names them. */
typedef enum st_compare_format {
    ST_CMP_TEXT,
    ST_CMP_JSON,
    ST_CMP_MARKDOWN,
    ST_CMP_CSV,
    ST_CMP_HTML
} st_compare_format;

/* What the table shows besides the rows. */
typedef struct st_compare_doc {
    const char *scenario;   /* its name */
    uint64_t seed;          /* the first seed */
    int64_t replicas;       /* seeds per row: above 1, each figure is a mean with its sd */
    const char *placements; /* --placements as given, or NULL */
    const st_compare_row *rows;
    size_t n;
} st_compare_doc;

/* The table of d in format f, malloc'd. */
char *st_compare_render(const st_compare_doc *d, st_compare_format f);

/* One row's label and the queue waits (hours) of its started jobs, for the HTML's CDF. */
typedef struct st_compare_waits {
    const char *label;
    const double *waits_h;
    size_t n;
} st_compare_waits;

/* The HTML page: the policies' table from compare's JSON text (every number with its key,
 * policies[i].KEY) and the queue waits' CDF per row. Malloc'd. */
char *st_compare_html(const char *scenario, const char *json, const st_compare_waits *w, size_t n);

/* The answer in words (report/summary.c) from compare's JSON text, malloc'd: the Markdown and
 * HTML open with it, the text ends with it. */
char *st_compare_summary(const char *json);

/* Markdown's head: the scenario's name as its title, then the answer in words (report/summary.c)
 * from compare's JSON text, each through the Markdown cell writer. */
void st_compare_md_head(FILE *out, const char *scenario, const char *json);

#endif
