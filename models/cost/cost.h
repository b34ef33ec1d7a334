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
    double cluster_nodes;   /* nodes bought (on-premises); on a cluster of several node sizes
                               its GPUs in nodes of the job's pool's size, so that the job's
                               share is its own nodes at its type's node price */
    int64_t node_gpus;      /* GPUs a node of them holds, which a preset node price is scaled to
                               (st_cost_node_price); 0: the price as it stands */
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
    int64_t optic_ports;    /* switch-side optical transceiver ports bought: the fabric's
                               (models/forecast/netpower.h st_forecast_switch_ports) */
    int64_t racks;          /* racks bought, each with its PDUs */
    double cooling_air_w;   /* heat rejection bought, W: to air (the racks' air, the electrical */
    double cooling_liquid_w; /* rooms' losses) and to liquid (models/plant/plant.h st_plant_heat) */
    double wear_usd;         /* the flash its persistent checkpoints' bytes wear on the tier's
                                drives, priced (st_ckpt_plan.usd_per_save) */
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
    double wear_usd;        /* on-premises: the flash its checkpoints wear (st_cost_use) */
    /* on-premises: capex_usd part by part (they sum to it): nodes, switches, optics, storage
     * (capacity and write bandwidth), racks and cooling; a part bought with no price is NaN
     * (not priced: capex_usd counts it 0, and the reports say so), one not bought 0 */
    double capex_nodes_usd, capex_switches_usd, capex_optics_usd, capex_storage_usd,
        capex_racks_usd, capex_cooling_usd;
} st_cost_result;

/* Two pieces of one capex part (cooling's air and liquid, a job's parts in two pools), each 0
 * when none is bought and NaN when some is bought with no price: what the priced pieces cost, NaN
 * when a piece is bought with no price and nothing priced is (a part priced in part keeps that
 * share; the report's price sources name the piece not priced). Air cooling bought and not priced
 * beside no liquid cooling read 0 USD before, not "not priced". */
double st_cost_part_sum(double a, double b);

/* The cost of use u under prices c: the arithmetic of docs/models/cost.md. c has passed
 * st_cost_missing (every price its delivery model reads is set). */
st_cost_result st_cost_job(const st_cost_cfg *c, const st_cost_use *u);

/* A checkpointing job's storage, egress and flash wear into u: two checkpoints of ckpt_bytes kept
 * on storage (the restorable one and the one being written, as the audit counts them), as what
 * leaves the cloud its final checkpoint once or, under c's `egress: checkpoints`, each of the
 * `saves` that became restorable (at least one: the model), and each save's flash wear at
 * usd_per_save. One formula for `run` (models/forecast/run_cost.c) and `size` (planner/size.c). */
void st_cost_use_checkpoints(st_cost_use *u, const st_cost_cfg *c, double ckpt_bytes, double saves,
                             double usd_per_save);

/* What use u buys on premises under prices c, USD, before it is written off: the job's share of
 * the cluster's nodes, switches, optics, racks and cooling (and of the checkpoint tier's write
 * bandwidth) plus the storage capacity it keeps; a part with no price counts 0. What a capex
 * budget compares (planner/size.c). */
double st_cost_bought(const st_cost_cfg *c, const st_cost_use *u);

/* One row of the preset price table (models/cost/prices.c): a cost: key's price (SI units: USD,
 * USD per GPU-second, USD per joule ...) for the whole site (part NULL) or for one part (a GPU
 * platform by its catalog name), with the year and the public source it comes from. */
typedef struct st_price_row {
    const char *key;  /* the cost: key it is the default of, such as "node_price" */
    const char *part; /* a catalog GPU name, or NULL: site-wide */
    double value;
    int year;
    const char *source;
    int gpus; /* node_price: the GPUs the listed server or tray holds; 0 for the other keys */
} st_price_row;

/* The row of key for part (NULL: the site-wide row), or NULL when the table has none. */
const st_price_row *st_price_find(const char *key, const char *part);
/* The rows in table order, for listings and the docs' table. */
size_t st_price_count(void);
const st_price_row *st_price_at(size_t i);
/* The unit key's price is listed in, as its source states it ("USD/h", "USD/GiB"; "USD" for a
 * part's price; "y" for amortization, a period), a unit sim/units.h parses. */
const char *st_price_unit(const char *key);
/* The period a key's price is counted over beyond its unit, as a listing writes it after the
 * unit ("-month" for storage_month_price: USD/GiB-month); "" for the others, whose unit holds
 * theirs (USD/h, USD/kW-month). */
const char *st_price_period(const char *key);

/* The defaults of the site-wide prices that have a published source, written into c before the
 * scenario's keys are read; every other price is left unset (negative) and every typed price
 * marked as stated for every type (so a struct filled by hand keeps its prices). */
void st_cost_defaults(st_cost_cfg *c);

/* Node price of c for a cluster node of gpus_per_node GPUs (< 0: not priced): a preset row's
 * server or tray price per GPU times the node's GPUs, so that an 8-GPU server's price is not
 * charged for a 4-GPU node nor a 4-GPU tray's for an 8-GPU one; a stated price as stated. */
double st_cost_node_price(const st_cost_cfg *c, int64_t gpus_per_node);
/* c's prices for a cluster of GPU type gpu (a catalog or hardware.gpus name; NULL: none) into
 * out: for each typed price (node, GPU-hour, committed GPU-hour), the scenario's price for that
 * type, else its price for every type, else the preset table's row for that type, else unknown
 * (< 0); out->from says which, with its source. Every other price is c's. */
void st_cost_for_gpu(const st_cost_cfg *c, const char *gpu, st_cost_cfg *out);

/* The preset table's part name of a fabric's switch class, its transport and port rate
 * (port_bps, bits/s, in whole Gbit/s), such as "infiniband-400g", and of its optics, the port
 * rate alone, such as "400g" (a twin-port OSFP transceiver serves InfiniBand and Ethernet
 * alike: NVIDIA's MMS4X00-NS documentation); "" (no class, no price) for a rate of a million
 * Gbit/s or more. buf holds n bytes. */
void st_cost_switch_class(st_transport t, double port_bps, char *buf, size_t n);
void st_cost_optic_class(double port_bps, char *buf, size_t n);

/* The field of c that holds part k's price, and its value. */
double *st_cost_part_price(st_cost_cfg *c, st_cost_part k);
double st_cost_part_value(const st_cost_cfg *c, st_cost_part k);

/* c's part prices for a cluster with fabric f into out (out may be c): each part the scenario
 * states keeps its price (part_from: ST_PRICE_ALL); every other takes the preset table's row for
 * f's switch class (switch_price), its port rate (optic_price) or the site (the rest), else
 * unknown (< 0); part_from[k] says which, with its row's source. A price found by an earlier
 * call (ST_PRICE_PRESET) is looked up again, so a sizing search can price each fabric it tries.
 * Every other price is c's. */
void st_cost_for_parts(const st_cost_cfg *c, const st_fabric_cfg *f, st_cost_cfg *out);

/* Where a price came from, for a report: its preset row's source, "the scenario's cost:
 * section" where the scenario states it for every type, or "not priced" when value is unknown
 * (< 0). */
const char *st_cost_price_source(st_price_from from, double value);

/* The name of the first scenario key c's delivery model needs and does not have (a price with no
 * public default), or NULL when none is missing; *why says why it has no default. */
const char *st_cost_missing(const st_cost_cfg *c, const char **why);

/* Every key c's delivery model needs and does not have, in the order st_cost_missing names
 * them, into keys[0..cap); how many (at most 5: the on-premises prices). So a scenario hears of
 * all of them at once, not one per run. */
size_t st_cost_missing_all(const st_cost_cfg *c, const char **keys, size_t cap);

/* The seconds a price "per month" covers: 730 h, the month the AWS Pricing Calculator bills. */
#define ST_COST_MONTH_S (730 * 3600.0)
#define ST_COST_YEAR_S  (365 * 86400.0)

#endif
