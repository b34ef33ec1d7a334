/* `strata size`'s writers (report/size_out.c): the search's counts, the ranked table and the
 * Pareto front as text, JSON or CSV, and Markdown or HTML from that JSON (size_doc.c). */
#ifndef ST_REPORT_SIZE_OUT_H
#define ST_REPORT_SIZE_OUT_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "planner/size.h"
#include "planner/size_serve.h"

typedef enum st_size_format {
    ST_SIZE_TEXT,
    ST_SIZE_JSON,
    ST_SIZE_CSV,
    ST_SIZE_MARKDOWN,
    ST_SIZE_HTML
} st_size_format;

/* What the writers print besides the result. */
typedef struct st_size_report {
    const char *file, *workload, *goal;
    const char *name; /* the scenario's name: the HTML and Markdown's title */
    double deadline_s;
    size_t top;               /* rows of the ranked table */
    const st_size_spec *spec; /* its variants name the variant of each row */
    int failures;             /* time to train counts failures: say the cadence and goodput */
    int experts;              /* the model has experts: show each row's expert parallelism */
    int memory;               /* with failures, the workload states an in-memory checkpoint level
                                 (checkpoint.memory): show each row's in-memory cadence beside the
                                 persistent one */
    /* where spec->power_w came from: "--budget" or "facility.power_capacity" (the scenario's,
     * taken when --budget states no power=); NULL without a power budget */
    const char *power_from;
    /* where each cooling budget (all heat, air, liquid) came from: "--budget" or the scenario's
     * facility key ("facility.cooling_capacity" ...); NULL where that budget is 0 */
    const char *cooling_from[3];
    const char *existing; /* --existing: the pool kept (spec->existing_gpu and _nodes), or NULL */
    int64_t global_batch; /* the workload's, in sequences: what bounds its data parallelism */
} st_size_report;

/* The budgets besides the deadline as a reader takes them in ("power 30 MW, 20,000 GPUs, capex
 * 50,000,000 USD"), each in every format's units, power and cooling too where with_power;
 * malloc'd, or NULL where none is set. */
char *st_size_budget_words(const st_size_report *rp, int with_power);

/* The report of r in format f, malloc'd. */
char *st_size_render(const st_size_report *rp, const st_size_result *r, st_size_format f);

/* A service's sizing (planner/size_serve.h, report/size_serve_out.c): the JSON document (its
 * `serving` rows) and the ranked text table, the configurations that cannot serve it after. */
cJSON *st_size_serve_json(const char *file, const st_workload_cfg *w, const char *goal,
                          const st_serve_size *z);
char *st_size_serve_text(const char *file, const st_workload_cfg *w, const char *goal,
                         const st_serve_size *z);

/* What a service's rows are, said above the table in every format: a fleet of its own sized to
 * the load, not bounded by the scenario's cluster (a row of 478 GPUs on a 16-GPU scenario read
 * "Can serve: yes" as if it fit there). One sentence, no full stop. */
const char *st_size_serve_fleet(void);

#endif
