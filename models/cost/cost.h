/* The total cost of ownership of one job under a delivery model (on-premises, dedicated bare
 * metal, public cloud): docs/models/cost.md. The model sits below the forecast and takes plain
 * figures (GPUs held and for how long, facility energy, bytes stored and leaving the cloud), so
 * the forecast composes it from its own results and a sizing search can fill it directly. */
#ifndef ST_MODELS_COST_COST_H
#define ST_MODELS_COST_COST_H

#include <stddef.h>
#include <stdint.h>

#include "models/config/config.h"

/* What one job uses, in SI units. */
typedef struct st_cost_use {
    int64_t gpus;           /* the job's GPUs */
    int64_t cluster_gpus;   /* the cluster's GPUs: the job's share of shared capex is their ratio */
    int64_t cluster_nodes;  /* nodes bought (on-premises) */
    int64_t cluster_switch; /* switches bought: leaves, spines and cores (NVSwitch trays are in
                               the node's price) */
    double held_s;          /* wall time its GPUs are held: its life from start to finish */
    double energy_j;        /* its facility energy over that life (the plant model, PUE in) */
    double stored_bytes;    /* bytes it keeps on storage while it runs */
    double egress_bytes;    /* bytes that leave the provider's network (cloud only) */
    double tokens;          /* tokens it trains */
    double peak_w;          /* its share of the facility's metered peak demand (on-premises), W */
    double storage_bw_bps;  /* checkpoint-tier write bandwidth bought (on-premises, priced at
                               storage_bandwidth_price when that is set), bytes/s */
} st_cost_use;

/* One job's cost, USD. The breakdown sums to total_usd; a part a delivery model has not is 0. */
typedef struct st_cost_result {
    double total_usd;
    double per_token_usd;   /* total over the tokens trained (0 when none) */
    double per_year_usd;    /* the same spending rate over a year (365 d) of running it */
    double capex_usd;       /* on-premises: nodes, switches and storage amortised over its use */
    double energy_usd;      /* on-premises: facility energy at the tariff */
    double demand_usd;      /* on-premises: its peak demand at the demand charge, month by month */
    double maintenance_usd; /* on-premises: the yearly maintenance share of what it uses */
    double staff_usd;       /* on-premises: its share of the staff who run the cluster */
    double gpu_usd;         /* bare metal and cloud: GPU-hours at the rental price */
    double storage_usd;     /* cloud: GB-months at the storage price */
    double egress_usd;      /* cloud: bytes leaving at the egress price */
} st_cost_result;

/* The cost of use u under prices c: the arithmetic of docs/models/cost.md. c has passed
 * st_cost_missing (every price its delivery model reads is set). */
st_cost_result st_cost_job(const st_cost_cfg *c, const st_cost_use *u);

/* One row of the preset price table (models/cost/prices.c): a cost: key's price (SI units: USD,
 * USD per GPU-second, USD per joule ...) for the whole site (part NULL) or for one part (a GPU
 * platform by its catalog name), with the year and the public source it comes from. */
typedef struct st_price_row {
    const char *key;  /* the cost: key it is the default of, such as "node_price" */
    const char *part; /* a catalog GPU name, or NULL: site-wide */
    double value;
    int year;
    const char *source;
} st_price_row;

/* The row of key for part (NULL: the site-wide row), or NULL when the table has none. */
const st_price_row *st_price_find(const char *key, const char *part);
/* The rows in table order, for listings and the docs' table. */
size_t st_price_count(void);
const st_price_row *st_price_at(size_t i);

/* The defaults of the site-wide prices that have a published source, written into c before the
 * scenario's keys are read; every other price is left unset (negative) and every typed price
 * marked as stated for every type (so a struct filled by hand keeps its prices). */
void st_cost_defaults(st_cost_cfg *c);

/* c's prices for a cluster of GPU type gpu (a catalog or hardware.gpus name; NULL: none) into
 * out: for each typed price (node, GPU-hour, committed GPU-hour), the scenario's price for that
 * type, else its price for every type, else the preset table's row for that type, else unknown
 * (< 0); out->from says which, with its source. Every other price is c's. */
void st_cost_for_gpu(const st_cost_cfg *c, const char *gpu, st_cost_cfg *out);

/* The name of the first scenario key c's delivery model needs and does not have (a price with no
 * public default), or NULL when none is missing; *why says why it has no default. */
const char *st_cost_missing(const st_cost_cfg *c, const char **why);

/* The seconds a price "per month" covers: 730 h, the month the AWS Pricing Calculator bills. */
#define ST_COST_MONTH_S (730 * 3600.0)
#define ST_COST_YEAR_S  (365 * 86400.0)

#endif
