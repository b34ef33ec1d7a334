/* The report keys a sweep row can hold for each training job (`strata sweep --columns`), one
 * table: the key as the JSON report names it under jobs[] (docs/guide/scenario-reference.md),
 * which result it reads, and how its cell is written. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "models/forecast/run.h"
#include "planner/sweep.h"

typedef enum src { SRC_STEP, SRC_MEM, SRC_LIFE, SRC_JOB, SRC_COST, SRC_ENERGY } src;
typedef enum kind { K_REAL, K_BYTES, K_BOOL, K_INT } kind;

typedef struct col {
    const char *key;
    src from;
    kind k;
    size_t off; /* into the source struct */
} col;

#define STEP(k, m)                                                                                 \
    {                                                                                              \
        k, SRC_STEP, K_REAL, offsetof(st_step_result, m)                                           \
    }
#define LIFE(k, m)                                                                                 \
    {                                                                                              \
        k, SRC_LIFE, K_REAL, offsetof(st_life_result, m)                                           \
    }
#define COST(k, m)                                                                                 \
    {                                                                                              \
        "cost." k, SRC_COST, K_REAL, offsetof(st_cost_result, m)                                   \
    }
static const col cols[] = {
    /* the default columns first, in this order */
    STEP("step_time_s", step_time_s),
    STEP("mfu", mfu),
    {"memory_per_gpu_bytes", SRC_MEM, K_BYTES, offsetof(st_memory, total)},
    {"fits", SRC_MEM, K_BOOL, offsetof(st_memory, fits)},
    LIFE("wall_s", wall_s),
    LIFE("goodput", goodput),
    /* the others */
    STEP("hfu", hfu),
    STEP("tokens_per_s", tokens_per_s),
    STEP("tflops_per_gpu", tflops_per_gpu),
    {"steps", SRC_JOB, K_INT, offsetof(st_forecast, steps)},
    {"interruptions", SRC_LIFE, K_INT, offsetof(st_life_result, interruptions)},
    LIFE("lost_work_s", lost_work_s),
    LIFE("downtime_s", downtime_s),
    {"power.energy_j", SRC_ENERGY, K_REAL, 0},
    COST("total_usd", total_usd),
    COST("per_token_usd", per_token_usd),
    COST("per_year_usd", per_year_usd),
    COST("capex_usd", capex_usd),
    COST("energy_usd", energy_usd),
    COST("demand_usd", demand_usd),
    COST("maintenance_usd", maintenance_usd),
    COST("staff_usd", staff_usd),
    COST("gpu_usd", gpu_usd),
    COST("storage_usd", storage_usd),
    COST("egress_usd", egress_usd),
};
#undef STEP
#undef LIFE
#undef COST
#define N_COLS    (sizeof cols / sizeof cols[0])
#define N_DEFAULT 6

size_t st_sweep_col_count(void)
{
    return N_COLS;
}

const char *st_sweep_col_name(size_t k)
{
    return k < N_COLS ? cols[k].key : NULL;
}

size_t st_sweep_col_defaults(size_t *keys)
{
    for (size_t k = 0; k < N_DEFAULT; k++)
        keys[k] = k;
    return N_DEFAULT;
}

int st_sweep_col_find(const char *name, size_t *k)
{
    for (size_t i = 0; i < N_COLS; i++)
        if (strcmp(cols[i].key, name) == 0) {
            *k = i;
            return 0;
        }
    return -1;
}

/* The source struct of column c for job i of run, or NULL where the run has none. */
static const void *source(const col *c, const st_run *run, size_t i, double *energy)
{
    const st_forecast *f = &run->f[i];
    switch (c->from) {
    case SRC_STEP:
        return f->has_step ? &f->step : NULL;
    case SRC_MEM:
        return &f->mem;
    case SRC_LIFE:
        return f->has_life ? &f->life : NULL;
    case SRC_JOB:
        return f->has_life ? f : NULL;
    case SRC_COST:
        return f->has_cost ? &f->cost : NULL;
    case SRC_ENERGY:
        for (size_t k = 0; run->has_plant && k < run->plant.n_jobs; k++)
            if (run->plant.jobs[k].id == i && run->plant.jobs[k].energy_j > 0) {
                *energy = run->plant.jobs[k].energy_j;
                return energy;
            }
        return NULL;
    }
    return NULL;
}

void st_sweep_col_cell(size_t k, const st_run *run, size_t i, char *buf, size_t n)
{
    const col *c = &cols[k];
    double energy = 0;
    const char *base = source(c, run, i, &energy);
    if (!base) {
        snprintf(buf, n, "%s", "");
        return;
    }
    base += c->off;
    if (c->k == K_REAL)
        snprintf(buf, n, "%.6g", *(const double *)(const void *)base);
    else if (c->k == K_BYTES)
        snprintf(buf, n, "%.0f", *(const double *)(const void *)base);
    else if (c->k == K_BOOL)
        snprintf(buf, n, "%s", *(const int *)(const void *)base ? "true" : "false");
    else
        snprintf(buf, n, "%lld", (long long)*(const int64_t *)(const void *)base);
}
