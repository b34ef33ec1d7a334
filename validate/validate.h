/* The validation harnesses: published cases run through the models, each filling a plain row
 * (published, predicted, error, bound, pass) and each set a summary against its goal. They print
 * nothing: `strata validate` (cli/cmd_validate.c) prints the records as text or Markdown. */
#ifndef ST_VALIDATE_VALIDATE_H
#define ST_VALIDATE_VALIDATE_H

#include <stddef.h>

#include <stdint.h>

#include "models/forecast/band.h"
#include "sim/err.h"

typedef enum st_valid_kind {
    ST_VALID_CALIBRATION, /* the source a model constant was set from: cannot count */
    ST_VALID_VALIDATION,  /* independent of the constants: counts */
    ST_VALID_REFERENCE    /* outside the model's scope (NVLS, tree on 2 nodes, another
                             transport): shown for context, does not count */
} st_valid_kind;

/* What "within its bound" means for a row. */
typedef enum st_valid_bound {
    ST_VALID_BOUND_NONE,      /* step rows: judged only through their set's goal */
    ST_VALID_BOUND_RELATIVE,  /* |error| <= bound */
    ST_VALID_BOUND_FACTOR,    /* max(p / m, m / p) <= bound */
    ST_VALID_BOUND_POISSON95, /* |predicted - published| <= bound, 1.96 sqrt(published) */
    ST_VALID_BOUND_AT_LEAST,  /* predicted >= published (a published lower bound) */
    ST_VALID_BOUND_RANGE,     /* published <= predicted <= bound (a published range) */
    ST_VALID_BOUND_ORDER,     /* order_value rises strictly along order: predicted, the largest
                                 ratio of one to the next, is below 1 */
    ST_VALID_BOUND_AT_MOST    /* predicted <= published (a published upper bound) */
} st_valid_bound;

/* The most figures an ordering row compares. */
#define ST_VALID_MAX_ORDER 4

typedef struct st_valid_row {
    char name[64];     /* case name, e.g. "a100-2node-ib-ring" */
    char set[48];      /* the set it is summarised in: "fabric", "korthikanti2022", ... */
    char metric[32];   /* "busbw GB/s", "step_time_s", "wall h (tau 57.0 min)", ... */
    char source[200];  /* where the published figure comes from */
    const char *note;  /* why the row is what it is (fabric rows); never NULL */
    const char *algo;  /* fabric rows: what the collective resolved to, "ring", ...; else "" */
    const char *proto; /* fabric rows: "LL", "LL128", "Simple"; else "" */
    st_valid_kind kind;
    double published, predicted; /* predicted is 0 when !fits */
    double error;                /* predicted / published - 1; 0 when !fits */
    st_valid_bound bound_kind;
    double bound; /* the figure of bound_kind; 0 for NONE and AT_LEAST */
    int fits;     /* 0: the memory model says the plan does not fit, so nothing was predicted */
    int pass;     /* within the bound (computed for every kind); a step row passes when it fits */
    /* ordering rows (ST_VALID_BOUND_ORDER): what is compared (policy names, static strings), in
     * the claimed order, lowest figure first, and the figure of each */
    int n_order;
    const char *order[ST_VALID_MAX_ORDER];
    double order_value[ST_VALID_MAX_ORDER];
    /* step rows that fit: what the error band compares the run on, and its measured step time
     * over the predicted one (from a rate metric, predicted over measured rate) */
    st_band_key band;
    double step_ratio;
} st_valid_row;

/* A set's goal on its rows' |error|; INFINITY where a statistic has none. */
typedef struct st_valid_goal {
    double mean, median, max;
} st_valid_goal;

/* One set's rows, summarised. Only ST_VALID_VALIDATION rows count. */
typedef struct st_valid_set {
    char name[48];
    int rows;   /* counted rows */
    int passed; /* of them, within their bound */
    int no_fit; /* of them, plans that do not fit in memory: each is a miss */
    int n_err;  /* counted rows behind the |error| statistics: those that fit, except factor-bound
                   rows, whose error is not a relative one */
    double mean_abs, median_abs, max_abs; /* over the n_err rows; 0 when there are none */
    st_valid_goal goal;
    int missed; /* a row out of its bound (or not fitting), or a statistic over its goal */
} st_valid_set;

/* A harness: a list of cases, the row of each case run so far, and the summaries of their sets.
 * Cases run one at a time so a caller can show each row as it comes. */
typedef struct st_valid_harness st_valid_harness;

/* The published nccl-tests collectives (validate/fabric.c), each on a fresh
 * engine, all in the set "fabric". Deterministic. Free with st_valid_harness_free. */
st_valid_harness *st_valid_fabric_new(void);

/* The step cases: the *.yaml files directly in dir, each with a validation: section of a step
 * metric (validate/step.c), run in name order and summarised by set against the set's goal
 * (Korthikanti et al. mean 3% and max 6%, every other set median 7%). Returns 0, or
 * ST_ENOTFOUND with "no case files in 'dir'" when dir holds none; *out is then NULL. */
int st_valid_step_new(const char *dir, st_valid_harness **out, st_err *err);

/* The serving cases: the *.yaml files directly in dir, each with a validation: section of
 * output_tokens_per_s on a kind: inference workload (validate/serve.c), summarised by set
 * against a median error within 10%. Returns 0, or ST_ENOTFOUND as st_valid_step_new. */
int st_valid_serve_new(const char *dir, st_valid_harness **out, st_err *err);

/* Daly's (2006) worked examples: the optimum interval within 1% (validate/life.c), set "daly". */
st_valid_harness *st_valid_daly_new(void);

/* The Monte Carlo against Daly's expected wall time: 1,000 replicas of 500 h of work under
 * exponential failures, within 2% (validate/life.c), set "monte-carlo". */
st_valid_harness *st_valid_monte_carlo_new(void);

/* The whole-life scenario cases in dir, each with a validation: section of a whole-life metric
 * (validate/life.c): checkpoint sizes and save times within 10%, interruptions inside the
 * Poisson 95% band, goodput at least the published. Returns 0, or ST_ENOTFOUND as
 * st_valid_step_new. */
int st_valid_life_new(const char *dir, st_valid_harness **out, st_err *err);

/* The scheduler orderings (validate/sched.c), set "sched": the case files of dir (Philly on a
 * shrunk cluster, the four Muri traces on 64 GPUs), each trace run to its end under each policy
 * of the row; the row passes when their mean JCTs rise strictly in the claimed order (SRTF < SJF
 * < FIFO, and SRSF < SRTF on Muri). A missing case file is the case's error. */
st_valid_harness *st_valid_sched_new(const char *dir);

/* The fragmentation rows (validate/openb.c), set "openb": Alibaba's openb node and pod lists
 * (scenarios/openb.h; their licence keeps them out of this repository, so the caller loads them
 * from the user's folder) placed under the FGD artifact's protocol with each placement policy,
 * the GPU allocation ratio (%) averaged over its ten tune seeds, at 100% and 130% of arrived GPU
 * request; st_valid_openb_count() ordering rows into rows: random < best-fit, random < packing,
 * best-fit < fgd at each load. Returns 0, or a model error in err. */
typedef struct st_openb st_openb;
size_t st_valid_openb_count(void);
int st_valid_openb(const st_openb *o, st_valid_row *rows, st_err *err);

/* The plant checks (validate/plant.c), set "plant": the case files of dir, each forecast with its
 * plant: a GB200 NVL72 rack's peak inside the published 120-132 kW, and Llama 3 405B's facility
 * swing on 16,384 H100 at least 10 MW ("tens of megawatts"). A missing case file is the case's
 * error. */
st_valid_harness *st_valid_plant_new(const char *dir);

/* The calibration split of the step cases in dir (validate/split.c): for every set's runs of
 * one GPU type and precision at two scales or more, `strata calibrate` on the measured steps at
 * the fewest GPUs (planner/calibrate.h), and the other runs predicted with it. */
/* One predicted run of a split: what the band compares it on, and its measured step time over
 * the calibrated forecast's (the model alone's where the fit was refused). */
typedef struct st_valid_split_run {
    char name[64];
    st_band_key key;
    double ratio;
    double width; /* its band's hi - lo, the step time's multipliers; 0: no band */
    int covered;  /* its ratio inside the band */
} st_valid_split_run;

/* The most runs a split predicts; a set with more is a bug to widen this for. */
#define ST_VALID_SPLIT_MAX_RUNS 32

typedef struct st_valid_split {
    char set[48], gpu[32];
    int prec;          /* st_precision */
    int n_cal, n_eval; /* runs calibrated on (at cal_gpus GPUs), runs predicted */
    int64_t cal_gpus;
    int refused;          /* no plausible factor fits the calibration runs: the model alone */
    double factor;        /* the fitted compute factor of that precision */
    double before, after; /* median |error| of the predicted runs without and with it */
    int covered;          /* of them, inside the band run would give them */
    st_valid_split_run runs[ST_VALID_SPLIT_MAX_RUNS]; /* the n_eval predicted runs */
    double own[ST_CALIB_MAX_RESIDUALS];               /* the calibration's own residuals (n_own) */
    int n_own;
} st_valid_split;

/* The splits of dir's cases into *out (malloc'd, *n of them), in file order of each group's
 * first run. Returns 0, or ST_ENOTFOUND (no case files), a case's load error in d, or a model
 * error in err. */
int st_valid_splits(const char *dir, st_valid_split **out, size_t *n, st_diag *d, st_err *err);

/* Number of cases; their order is fixed. */
size_t st_valid_count(const st_valid_harness *h);

/* Run case i (< count) and point *row at its row, owned by h and valid until h is freed or case
 * i runs again. Returns 0, ST_EINVAL for i out of range, or the case's error: a scenario that
 * does not load fills d (and leaves err alone), any other error fills err. */
int st_valid_case(st_valid_harness *h, size_t i, const st_valid_row **row, st_diag *d, st_err *err);

/* Summarise the cases run so far by set, sets in the order their first row comes; *sets points
 * into h (valid until the next call or st_valid_harness_free). Returns the number of sets. */
size_t st_valid_sets(st_valid_harness *h, const st_valid_set **sets);

/* Free h; NULL is a no-op. */
void st_valid_harness_free(st_valid_harness *h);

/* "calibration", "validation", "reference"; "?" out of range. */
const char *st_valid_kind_name(st_valid_kind k);

#endif
