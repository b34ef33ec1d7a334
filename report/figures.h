/* The report's schema: one row per reported figure (its path in the JSON document that holds it,
 * its unit, its human label, flags, and for the figures a sweep or compare table picks, the
 * result it reads), as the loader's field rows are for input (scenarios/load_*.c). Every writer
 * takes a figure's unit from here; sweep --columns and compare's columns are rows of it, and
 * docs/guide/scenario-reference.md documents each row (tests/unit/report/test_figures.c checks
 * both ways). */
#ifndef ST_REPORT_FIGURES_H
#define ST_REPORT_FIGURES_H

#include <stddef.h>
#include <stdio.h>

#include "models/config/config.h"
#include "sim/err.h"
#include "sim/units.h"

/* How a figure is shown, and its name in the docs' tables: a dimension of sim/units.h printed
 * with st_unit_format, or one of the report's own kinds. */
#define ST_FIG_UNITS(X)                                                                            \
    X(ST_FU_TEXT, "text", ST_DIM__COUNT)     /* a string, shown as it is */                        \
    X(ST_FU_BOOL, "bool", ST_DIM__COUNT)     /* true or false */                                   \
    X(ST_FU_NUMBER, "number", ST_DIM__COUNT) /* a count or a plain ratio: whole when whole */      \
    X(ST_FU_SHARE, "share", ST_DIM_RATIO)    /* a fraction of 1, shown in percent */               \
    X(ST_FU_TIME, "time", ST_DIM_TIME)                                                             \
    X(ST_FU_BYTES, "bytes", ST_DIM_BYTES)                                                          \
    X(ST_FU_BANDWIDTH, "bandwidth", ST_DIM_BANDWIDTH)                                              \
    X(ST_FU_POWER, "power", ST_DIM_POWER)                                                          \
    X(ST_FU_RAMP, "ramp", ST_DIM_RAMP)                                                             \
    X(ST_FU_ENERGY, "energy", ST_DIM_ENERGY)                                                       \
    X(ST_FU_CURRENT, "current", ST_DIM_CURRENT)                                                    \
    X(ST_FU_MONEY, "money", ST_DIM_MONEY)                                                          \
    X(ST_FU_TEMPERATURE, "temperature", ST_DIM_TEMPERATURE)                                        \
    X(ST_FU_BYTES_PER_DAY, "bytes/day", ST_DIM_BYTES) /* bytes written per day */                  \
    X(ST_FU_FLOW, "m3/s", ST_DIM__COUNT)              /* a volume flow */                          \
    X(ST_FU_PER_S, "per second", ST_DIM__COUNT)       /* a count per second (tokens) */            \
    X(ST_FU_FREQUENCY, "Hz", ST_DIM__COUNT)                                                        \
    X(ST_FU_USD_PER_TOKEN, "USD/token", ST_DIM__COUNT) /* shown per million tokens */              \
    X(ST_FU_USD_PER_HOUR, "USD/hour", ST_DIM_MONEY)    /* money rates: shown as money, per */      \
    X(ST_FU_USD_PER_DAY, "USD/day", ST_DIM_MONEY)      /* the period they are counted over */      \
    X(ST_FU_USD_PER_YEAR, "USD/year", ST_DIM_MONEY)
#define ST__FIG_UNIT_ENUM(e, name, dim) e,
typedef enum st_fig_unit { ST_FIG_UNITS(ST__FIG_UNIT_ENUM) ST_FU__COUNT } st_fig_unit;
#undef ST__FIG_UNIT_ENUM

/* The unit's name in the docs' tables ("time", "share"); NULL outside the enum. */
const char *st_fig_unit_name(st_fig_unit u);

/* The dimension of sim/units.h a unit is printed in (ST_DIM_RATIO for a share);
 * ST_DIM__COUNT for text, booleans, numbers and the report's own kinds. */
st_dim st_fig_unit_dim(st_fig_unit u);

/* The JSON documents the commands write, each with its own rows. */
typedef enum st_fig_doc {
    ST_DOC_RUN,     /* strata run --format json (the report) */
    ST_DOC_COMPARE, /* strata compare --format json */
    ST_DOC_SWEEP,   /* strata sweep --format json: its fixed keys; figure columns are run rows */
    ST_DOC_SIZE,    /* strata size --format json */
    ST_DOC__COUNT
} st_fig_doc;

/* The document's name in the docs' tables' headings (run, compare, sweep, size). */
const char *st_fig_doc_name(st_fig_doc d);

/* Flags of a row. */
enum {
    ST_FIG_OPTIONAL = 1u << 0,   /* absent from some reports (the docs say when) */
    ST_FIG_STATS = 1u << 1,      /* an object of st_fig_stat_names, each in the row's unit */
    ST_FIG_MAP = 1u << 2,        /* an object of figures in the row's unit, one per name */
    ST_FIG_SWEEP = 1u << 3,      /* a `sweep --columns` key: the path after "jobs[]." */
    ST_FIG_SWEEP_DEF = 1u << 4,  /* one of sweep's default columns, in table order */
    ST_FIG_SWEEP_ONLY = 1u << 5, /* a sweep column the run report does not write (yet) */
    ST_FIG_SPREAD = 1u << 6,     /* compare: a figure column, with --replicas its sd in spread */
    ST_FIG_NULLABLE = 1u << 7,   /* null where it is unknown */
    ST_FIG_IN_DAYS = 1u << 8,    /* a time of days: charted in days */
    ST_FIG_SERIES = 1u << 9,     /* a member of a series the JSON gives and the HTML charts: the
                                    table formats (text tables, markdown, CSV) leave it out */
    ST_FIG_SWEEP_DEF_SERVE = 1u << 10, /* one of sweep's default columns for a service */
};

/* Which result a sweep or compare figure reads (the struct its offset is into). */
typedef enum st_fig_src {
    ST_SRC_NONE,
    ST_SRC_STEP,        /* a training job's st_step_result, when its step ran */
    ST_SRC_MEM,         /* its st_memory */
    ST_SRC_LIFE,        /* its st_life_result, when its life ran */
    ST_SRC_JOB,         /* its st_forecast, when its life ran */
    ST_SRC_COST,        /* its st_cost_result, when the run priced it */
    ST_SRC_JOB_ENERGY,  /* its st_plant_job_power, when the plant gave it an energy */
    ST_SRC_CKPT,        /* its st_ckpt_cost, when its checkpoint was costed */
    ST_SRC_SUMMARY,     /* its st_life_summary, when replicas were drawn (a stat reads its mean) */
    ST_SRC_CLUSTER,     /* the cluster run's st_cluster_stats */
    ST_SRC_ENERGY,      /* the cluster run's st_cluster_energy, when it has one */
    ST_SRC_ENERGY_COST, /* the same, when the scenario prices its electricity */
    ST_SRC_SERVE,       /* an inference job's st_serve_result */
    ST_SRC_SERVE_COST,  /* the same, when it was priced (has_cost) */
    ST_SRC_SERVE_SLO,   /* the same, when it states a latency target (has_slo) */
    ST_SRC_SERVE_LOOP,  /* the same, with a target, for a closed loop of clients */
    ST_SRC_SERVING,     /* the run's services with a latency target together (st_run_serving) */
    ST_SRC_TRAINING,    /* the same, when training or trace jobs finished beside them */
} st_fig_src;

/* The C type at the offset. */
typedef enum st_fig_ctype { ST_FIG_DOUBLE, ST_FIG_INT, ST_FIG_I64 } st_fig_ctype;

typedef struct st_fig {
    st_fig_doc doc;
    const char *path; /* as the JSON document names it; array steps written "[]" */
    st_fig_unit unit;
    unsigned flags;
    const char *label; /* what a reader calls it: "Step time" */
    const char *head;  /* compare: its column's heading; NULL elsewhere */
    st_fig_src src;    /* which result it reads (ST_SRC_NONE: none named here) */
    st_fig_ctype ctype;
    size_t off;
    unsigned sweep; /* a sweep column's place in --columns' list (from 1); 0: not one */
    /* the validation metric (a case file's `validation.metric`) this figure is, plus 1; 0: none.
     * `strata validate` reads the metric's prediction through the row. */
    unsigned metric;
    /* an ST_FIG_STATS row's: the validation metric its p99 is, plus 1 (0: none), at off_p99 */
    unsigned metric_p99;
    size_t off_p99;
    /* a text row whose values are a code's enum: each value and what a reader calls it, in
     * pairs, NULL-ended, for the reader's formats (HTML, Markdown, text tables); JSON and CSV
     * keep the value. NULL: shown as written. */
    const char *const *words;
} st_fig;

/* The rows, in document order (each document's in the order its writer writes them), and how
 * many. */
extern const st_fig st_figs[];
extern const size_t st_fig_count;

/* The statistics of an ST_FIG_STATS object, in the order the report writes them; NULL-ended. */
extern const char *const st_fig_stat_names[];

/* What a reader calls statistic `name` of st_fig_stat_names ("P90", "95% CI of the mean, low
 * end"); name itself for any other. */
const char *st_fig_stat_label(const char *name);

/* What a reader calls value v of text row f (its words' pair), or v itself. */
const char *st_fig_words(const st_fig *f, const char *v);

/* The row of the leaf at path in document doc ("jobs[0].breakdown.compute_s": indices are
 * dropped, a stat of an ST_FIG_STATS row or a member of an ST_FIG_MAP row is its row, compare's
 * spread.KEY is KEY's row, size's front[] rows are ranked[]'s), or NULL when there is none. */
const st_fig *st_fig_find(st_fig_doc doc, const char *path);

/* The number v of unit u as a reader sees it (units.h's 4 significant digits and unit, a share
 * in percent, a count whole), into buf of n bytes (ST_FIG_TEXT_MAX always hold it). */
#define ST_FIG_TEXT_MAX 64
void st_fig_number_text(st_fig_unit u, double v, char *buf, size_t n);

/* A plain number (a count, a ratio) as st_fig_number_text shows one, by value, for a printf
 * argument: st_fig_plain(929833).s is "929,833", st_fig_plain(2.955).s "2.955". */
typedef struct st_fig_text {
    char s[ST_FIG_TEXT_MAX];
} st_fig_text;
st_fig_text st_fig_plain(double v);

/* A whole number v, |v| < 10^15, as a reader takes it in: from 10,000 up its thousands set apart
 * by commas ("16,384"), below as is ("2048"); into buf. */
void st_fig_grouped(double v, char *buf, size_t n);

/* v USD as st_fig_number_text shows money (four significant digits, grouped: 50,860,000) but
 * without the unit, for a line that says USD once; buf. */
const char *st_fig_money(double v, char *buf, size_t n);

/* sweep --columns: the sweepable rows in the order --help lists them, k from 0 (NULL past the
 * end), and a sweepable row's column name, the path after "jobs[].". */
const st_fig *st_fig_sweep_col(size_t k);
const char *st_fig_sweep_name(const st_fig *f);

/* The prefix of a --columns key that names a figure of the run's own, not a job's: "run." and
 * its path in the run report ("run.power.facility_peak_w", "run.scheduler.makespan_s"). */
#define ST_FIG_RUN_PREFIX "run."

/* A --columns key: its row of the run report, whether it is the run's own figure (one column a
 * row, named as the key) or a job's (one column a job, JOB.KEY), and the key as given (malloc'd):
 * a sweepable row's name, any other number or boolean of jobs[] by its path after "jobs[]."
 * (with a statistic's name after an ST_FIG_STATS row's, "replicas.wall_s.p90"), or
 * ST_FIG_RUN_PREFIX and the path of one of the run's own. */
typedef struct st_fig_col {
    const st_fig *f;
    int run;
    char *name;
} st_fig_col;

/* The row a --columns key names (st_fig_col's), *run set when it is the run's own; NULL when
 * it names none a column can hold (no row, text, an array, an object of statistics or a map not
 * named down to its member). */
const st_fig *st_fig_sweep_key(const char *key, int *run);

/* Every sweep column by its name, a training job's and then a service's, in their rank order,
 * wrapped at 88 characters, then how the others are named: what `strata sweep --help` lists. */
void st_fig_sweep_help(FILE *out);

/* The columns of arg (comma-separated keys; NULL: the defaults) into *out (malloc'd, *n of them;
 * st_fig_cols_free). Returns 0, or ST_EINVAL with an error located at "--columns" in diag: a
 * name that is not a column (with the nearest, or the name it was renamed to, or what it is: text,
 * an array, statistics), a name given twice. */
int st_fig_sweep_parse(const char *arg, st_fig_col **out, size_t *n, st_diag *diag);

/* A training job's default sweep columns (st_fig_sweep_parse's without --columns), and its
 * total cost where with_cost (a sweep of a cost: key), into *out (malloc'd, *n of them;
 * st_fig_cols_free). */
void st_fig_sweep_defaults(st_fig_col **out, size_t *n, int with_cost);

/* A service's default sweep columns (its throughput and batch: a training job's defaults hold
 * nothing of a service), and its cost per million tokens where with_cost (a sweep of a cost: key),
 * into *out (malloc'd, *n of them; st_fig_cols_free). */
void st_fig_sweep_serve_defaults(st_fig_col **out, size_t *n, int with_cost);

void st_fig_cols_free(st_fig_col *cols, size_t n);

/* Whether column c's cell is read from the run's JSON report tree (st_fig_sweep_cell's report),
 * not from the run's results directly: every column but a sweepable row's. */
int st_fig_col_reads_report(const st_fig_col *c);

/* The row and the job of a sweep table's column name: JOB.KEY (*job_len the length of JOB) or
 * a run figure's key (*job_len 0); NULL for a column that is neither (a --set path, status,
 * reason). The longest key that ends the name after a dot is taken: a job's name may hold
 * dots. */
const st_fig *st_fig_sweep_column(const char *col, size_t *job_len);

struct st_run;
struct cJSON;
/* A sweep row's cell of column c for job i of run (i ignored for a run figure) into buf: "" where
 * the run has none. report: the run's JSON report tree (report.h, st_report_json_tree), which
 * a column that st_fig_col_reads_report reads; NULL for the others. */
void st_fig_sweep_cell(const st_fig_col *c, const struct st_run *run, size_t i,
                       const struct cJSON *report, char *buf, size_t n);

/* Figure f read from base, its source struct (f->src's): its value as a double. */
double st_fig_read(const st_fig *f, const void *base);

/* The run row that validation metric m is (every metric has one: tests/unit/report): the row's
 * figure, or a statistic of it (ttft_p99_s is jobs[].inference.ttft_s's p99). */
const st_fig *st_fig_of_metric(st_valid_metric m);

/* Validation metric m read from base, the source struct of its row (st_fig_of_metric's): the
 * row's figure, or the statistic m is of it. */
double st_fig_read_metric(st_valid_metric m, const void *base);

struct st_forecast;
/* Figure f of the job forecast fc into *v: 1, or 0 where fc has none (its step, life, checkpoint
 * cost or replicas not made; a row whose source is not one job's). */
int st_fig_job_value(const st_fig *f, const struct st_forecast *fc, double *v);

#endif
