/* The capacity-sizing search of `strata size`: for one training workload (its model, tokens and
 * a deadline) on a scenario's cluster, the cluster sizes in whole scalable units (a node, a
 * rack, a leaf or a stated unit) that some plan can split, whatever the scenario's own node count,
 * tried by doubling then bisection for the smallest that meets the deadline and the budgets
 * (planner/size_counts.h), and every parallel plan on each (tp in the NVLink domain, pp dividing
 * the layers, dp from the count, ep for a mixture-of-experts model, micro-batch, recompute, virtual
 * stages), pruned before the step
 * model runs when the plan breaks a rule (models/silicon/plan_check.h) or does not fit in memory
 * (models/silicon/parallel.h); the rest are simulated (models/step/step.h, one context and its
 * collective memo per GPU count), powered (models/plant/plant.h) and priced
 * (models/cost/cost.h). docs/guide/sizing.md has the method and its limits. */
#ifndef ST_PLANNER_SIZE_H
#define ST_PLANNER_SIZE_H

#include <stddef.h>
#include <stdint.h>

#include "models/config/config.h"
#include "models/cost/cost.h"
#include "models/plant/plant.h"
#include "models/silicon/gpu.h"
#include "models/step/step.h"
#include "sim/err.h"

/* What a configuration is ranked by. */
typedef enum st_size_goal {
    ST_SIZE_GPU_HOURS, /* GPU-hours to train */
    ST_SIZE_COST       /* the job's cost under the scenario's cost: prices */
} st_size_goal;

/* The constraint that binds a configuration: the one it breaks the most, or, when it meets them
 * all, the one with the least slack (its use over its limit closest to 1). A deadline that binds
 * is said by what the time beyond pure compute goes to (st_size_time_bind): fabric, storage or
 * deadline. A fabric whose switches need more ports than cluster.fabric.switch_ports cannot be
 * built: fabric, whatever else. */
typedef enum st_size_bind {
    ST_BIND_MEMORY,
    ST_BIND_DEADLINE,
    ST_BIND_POWER,
    ST_BIND_GPUS,
    ST_BIND_RACKS,
    ST_BIND_CAPEX,
    ST_BIND_TCO,
    ST_BIND_FABRIC,        /* switches past their ports: a fabric that cannot be built */
    ST_BIND_STORAGE,       /* checkpoint stalls and restores */
    ST_BIND_COOLING,       /* the heat to reject over a cooling budget */
    ST_BIND_COMMUNICATION, /* exposed communication: a deadline its collectives bind */
    ST_BIND__COUNT
} st_size_bind;

const char *st_size_bind_name(st_size_bind b);

/* One hardware variant searched: the scenario's cluster with another GPU type, fabric
 * oversubscription, transport, topology or checkpoint-tier bandwidth. Fields left 0 (NULL) keep the
 * scenario's. */
typedef struct st_size_variant {
    const st_gpu_spec *gpu; /* a catalog GPU in place of the cluster's */
    double oversub;         /* every fabric tier's oversubscription (>= 1) */
    int set_transport;
    st_transport transport;
    int set_topology; /* the fabric's topology, the leaf switch kept (models/fabric/leaf.h) */
    st_topology topology;
    double ckpt_write_bw; /* > 0: the write bandwidth (bytes/s, per node for a local-nvme tier)
                             of the workload's checkpoint tier, its read bandwidth scaled alike */
    int set_delivery;     /* the delivery model, its prices and its noise profile where the cluster
                             states no noise (models/silicon/noise.h) */
    st_delivery delivery;
    /* The racks the variant's nodes fill: under --existing on a cluster whose pools have racks of
     * their own, the first pool of its GPU type's, else cluster.racks (models/config/racks.h);
     * NULL: the shape's cluster's */
    const st_rack_cfg *racks;
} st_size_variant;

/* The scalable unit a size comes in (--unit): a count of nodes, or each variant's own rack or
 * leaf. */
typedef enum st_size_unit { ST_SIZE_UNIT_NODES, ST_SIZE_UNIT_RACK, ST_SIZE_UNIT_LEAF } st_size_unit;

typedef struct st_size_spec {
    double deadline_s; /* time to train the workload's tokens, > 0 */
    double power_w;    /* facility power budget; 0: none */
    /* cooling budgets: the heat the facility rejects (models/plant/plant.h st_plant_heat), in
     * all, on air and on liquid; 0: none */
    double cooling_w, air_cooling_w, liquid_cooling_w;
    int64_t gpus;            /* GPU budget; 0: none */
    int64_t racks;           /* rack budget (the shape's nodes over nodes_per_rack); 0: none */
    double capex_usd;        /* purchase budget: nodes and switches at the cost: prices; 0: none */
    double tco_usd_per_year; /* the job's cost per year (st_cost_result.per_year_usd); 0: none */
    /* the scenario's audit.junction_limit, C, which `audit` fails a plan's hottest GPU junction
     * over (models/forecast/audit.c): the report names the rows over it. They stay ranked: an
     * operator does not pick a slower parallel plan to cool the GPUs; the racks' cooling holds
     * the limit or does not (docs/guide/sizing.md). 0: none */
    double junction_limit_c;
    /* the scenario's audit.memory_headroom, the share of HBM a plan should leave free, which
     * `audit` warns under: the report names the rows under it. They stay ranked: Llama 3 405B's
     * published plan, which ran, leaves 8.2% in the forecast (docs/guide/sizing.md). 0: none */
    double memory_headroom;
    st_size_goal goal;       /* ST_SIZE_COST needs cost */
    const st_cost_cfg *cost; /* the scenario's prices, or NULL */
    /* The scenario's failures (NULL or no classes: none): time to train is then Daly's expected
     * wall time with the failures and the best checkpoint cadence searched (size_life.c). */
    const st_failures_cfg *failures;
    const st_size_variant *variants; /* n_variants hardware variants; 0: the scenario's only */
    size_t n_variants;
    int64_t unit_nodes; /* the scalable unit the sizes come in, nodes; 0: one node */
    /* What the unit is, where each variant holds its own: a rack (its racks' nodes) or a leaf
     * (its leaf's); else unit_nodes of the scenario's nodes, the same GPUs on another platform */
    st_size_unit unit;
    uint64_t seed; /* the scenario's: the plant's phase offsets */
    /* the sized workload's index in the scenario: the stream its phase offset is drawn from, as
     * `run` draws it (models/plant/plant.h) */
    uint64_t plant_id;
    /* > 0: a configuration meets the deadline when its time to train times the one-sided
     * upper end of the step model's error band at this level (models/forecast/band.h,
     * st_band_upper) does; 0: the point forecast, as before */
    double confidence;
    /* --existing: a pool kept as it is (docs/guide/sizing.md, "Growing an existing fleet"): its
     * GPU type and nodes. A configuration of that type grows it, buying the nodes past it; one
     * of another type is a new pool beside it (a job does not span pools, docs/models/pools.md).
     * The GPU and rack budgets count the whole fleet, the capex budget what is bought, and the
     * rows rank by what they buy first. NULL: none. */
    const st_gpu_spec *existing_gpu;
    int64_t existing_nodes;
    const st_cluster_cfg *existing; /* the kept pool as a cluster of its own (its nodes, type,
                                       node power, facility) */
    /* With existing: the scenario's cluster (every pool) and the kept pool's index in it. Each
     * row runs on the grown fleet (planner/size_fleet.h), every pool of the scenario with the
     * kept one grown or a new one added, so its step, plant and cost are what `strata run`
     * gives that fleet with the row's job alone on it. */
    const st_cluster_cfg *scenario;
    int existing_pool;
    size_t rows; /* the ranked rows that must be complete besides the front (a caller printing
                    the top N passes N); 0: every row. The plant model, most of a
                    configuration's time, then runs only where its answer is needed. */
} st_size_spec;

/* One simulated configuration. */
typedef struct st_size_cfg {
    size_t variant; /* index into spec->variants (0 when there are none) */
    int64_t nodes, gpus, tp, pp, dp, vs, mb;
    int64_t ep; /* expert parallelism of a mixture-of-experts model; 0 for a dense one */
    st_recompute recompute;
    double mem_bytes, mem_capacity; /* per GPU, on the most loaded one */
    /* its hottest GPU junction, C, as `run` and `audit` give it (st_plant_job_junction,
     * models/plant/thermal.h); NaN without a power limit, or where the plant has not run for it
     * (as facility_w) */
    double junction_c;
    double step_s, steps, work_s; /* work_s = steps x step_s: the failure-free time */
    double train_s;        /* work_s, or with failures Daly's expected wall time at ckpt_every_s */
    double train_band[2];  /* train_s's error band: times the ends of the band of its GPU type,
                              kind, precision and count (models/forecast/band.h) */
    double train_conf_s;   /* train_s times the band's upper end at spec->confidence, the time
                              the deadline is held to; train_s without a confidence */
    double goodput;        /* work_s / train_s */
    double spares_held;    /* with failures.spares, the share of the wall time the job waits for
                              a spare node (P(Poisson(A) > spares), planner/size_life.h); -1:
                              no spares stated */
    int64_t spares_needed; /* with spares stated, the fewest that would hold it
                              ST_SPARES_ENOUGH (models/reliability/spare_wait.h) or less */
    double ckpt_every_s;   /* the persistent cadence searched that trains soonest; 0: none */
    double mem_every_s;    /* with checkpoint.memory, the in-memory cadence paired with it */
    int64_t racks;         /* racks the shape fills */
    /* With spec->existing_gpu: the nodes it buys (of its own type: those past the existing
     * pool; of another: all of them), and the fleet the GPU and rack budgets count; without,
     * the shape's. */
    int64_t added_nodes, fleet_gpus, fleet_racks;
    double bought_usd;       /* the capex of what it buys: capex_usd, or with spec->existing_gpu its
                                added nodes' share of it (switches and racks grow with the nodes);
                                < 0 unknown */
    double added_key;        /* ranks feasible rows before the objective: bought_usd with
                                spec->existing_gpu (unknown: INFINITY), else 0 */
    double kept_w;           /* with spec->existing_gpu: what the fleet's nodes outside the row's
                                job add to its facility power from idle (as facility_w has them)
                                to full draw (every GPU at its TDP), which a power budget counts
                                beside facility_w; else 0 */
    st_plant_heat kept_heat; /* their heat, which the cooling budgets count beside heat; 0s */
    double capex_usd;        /* the shape's nodes and switches at the cost: prices; < 0 unknown */
    const char *price_source;   /* where the price of its GPU type that sets its cost comes from
                                   (the node's on premises, the GPU-hour's rented): a preset table
                                   row's source or the scenario's key; NULL: none (borrowed from
                                   the spec's cost and the table) */
    const char *switch_source;  /* on premises, where its fabric's switch price comes from (the
                                   table's row for its switch class or the scenario's key); NULL:
                                   none, or rented */
    unsigned unpriced;          /* on premises, the parts (1 << st_cost_part) neither the scenario
                                   nor the preset table prices, counted at 0 in its cost */
    double per_year_usd;        /* the job's cost per year; < 0 without prices */
    double gpu_hours, cost_usd; /* cost_usd < 0 without prices */
    st_cost_result breakdown;   /* cost_usd's parts (models/cost/cost.h), when cost_usd >= 0 */
    double node_price_usd;      /* its GPU type's node price (< 0 unknown), as capex_usd takes */
    double switch_price_usd;    /* the price of each of its switches (< 0 unknown) */
    int64_t switches;           /* the network switches its shape buys (topo.h); under --existing
                                   the grown fleet's */
    double share;               /* its share of the switches, racks, cooling and staff: its GPUs
                                   over the cluster's (1, or under --existing the fleet's) */
    double facility_w;          /* the plant's facility peak; NaN (unknown) past spec->rows and
                                   off the front when spec->rows > 0, binds then not final either */
    double power_lb;     /* a lower bound on facility_w without the plant (size.c), 0: none */
    st_plant_heat heat;  /* the heat to reject, when the plant ran for it (NaN: unknown) */
    int powered;         /* facility_w and binds are the plant's */
    st_step_result step; /* the simulated step, for a plant run after the ranking */
    double objective;    /* gpu_hours or cost_usd, by the goal */
    int feasible;        /* meets the deadline and every budget */
    int front;           /* on the Pareto front of train_s against objective */
    st_size_bind binds;
    double storage_s;       /* of train_s, what checkpoint stalls and restores add (size_life.h) */
    st_topology topology;   /* its fabric: the variant's, or a third tier grown (size.c) */
    int64_t leaves_per_pod; /* of a fat-tree-3 fabric */
    int64_t ports;          /* the most ports one switch of its fabric needs (topo.h) */
    int64_t switch_ports;   /* the ports its switches have (cluster.fabric.switch_ports) */
    double optic_w; /* its switches' optics' board power for the plant, W (netpower.h), counted
                       once on the shape's fabric */
} st_size_cfg;

/* The constraints configuration f is known to break under spec, each as 1u << st_size_bind:
 * ST_BIND_FABRIC (switches past their ports), ST_BIND_DEADLINE (train_s, at the confidence,
 * past it), and each budget it is over: power (by the plant, or by its lower bound where the
 * plant did not run for f), cooling (any of the three), gpus, racks, capex, tco (an unknown
 * price never meets its budget, as the search's feasibility has it). A power or cooling budget
 * the plant did not decide for f is not counted. 0 for a feasible f. */
unsigned st_size_breaks(const st_size_cfg *f, const st_size_spec *s);

/* Where the time to train of f beyond its pure compute goes, in seconds over the run:
 *     compute = steps x compute_s x mfu / hfu   (the kernels less recomputation),
 *     fabric  = steps x (tp_comm_s + pp_comm_s + dp_comm_exposed_s)   (models/step/step.h),
 *     storage = f->storage_s   (train_s less Daly's expected wall time at the same cadence
 *               with free checkpoints: no stall, no restore; planner/size_life.h),
 *     other   = train_s - compute - fabric - storage, at least 0   (bubbles, the optimizer,
 *               recomputation, and the work failures lose and their detect and restart). */
typedef struct st_size_time {
    double compute_s, fabric_s, storage_s, other_s;
} st_size_time;
void st_size_time_of(const st_size_cfg *f, st_size_time *t);

/* What a deadline that binds f is said as: ST_BIND_COMMUNICATION when the fabric's seconds of
 * st_size_time_of are more than the other's and at least the storage's, ST_BIND_STORAGE when the
 * storage's are more than both, else ST_BIND_DEADLINE. docs/guide/sizing.md, "What it prints". */
st_size_bind st_size_time_bind(const st_size_cfg *f);

typedef struct st_size_result {
    st_size_cfg *cfg; /* n simulated configurations, ranked: feasible first by objective, then
                         train_s; then the rest by train_s */
    size_t n, cap;
    int64_t considered;       /* plans generated over every GPU count searched */
    int64_t pruned_rule;      /* broke a plan rule (heads over tp, layers over pp, batch split) */
    int64_t pruned_memory;    /* did not fit in the GPU's memory */
    int64_t pruned_dominated; /* a plan that recomputes more than one that fits */
    int64_t cadences;         /* checkpoint cadences weighed (closed form) over every plan */
    int64_t unit_nodes;       /* the scalable unit searched, nodes of the scenario's */
    int reshaped;             /* some variant's unit is not unit_nodes: its platform's node
                                 size, or its own racks or leaf of another size */
    int unsplit;              /* variants no size of their whole units within the budgets
                                 splits into a plan: no rows of theirs */
    int64_t candidates;       /* the sizes in whole units some plan splits, within the budgets,
                                 over the variants (each in its own nodes) */
    int64_t counts_searched;  /* of them, the sizes searched (each with every plan) */
    int64_t counts_skipped;   /* and those not searched: the doubling and bisection did not
                                 need them, or compute alone rules them out; over the variants */
    int64_t counts_bounded;   /* of those, the sizes the doubling or bisection tried that their
                                 model FLOPs at the GPUs' dense peak alone put past the deadline */
} st_size_result;

/* Search the configurations of training workload w (with tokens or steps) on cluster c under
 * spec. Returns 0 with out filled (release with st_size_release), or ST_EINVAL with err set when
 * the goal needs prices the spec has not, or the step model's error on a plan it cannot run. */
int st_size_search(const st_cluster_cfg *c, const st_workload_cfg *w, const st_size_spec *spec,
                   st_size_result *out, st_err *err);

/* Mark the configurations on the Pareto front of (train_s, objective) among those within the
 * power budget power_w (0: none; the GPU budget bounds every count searched): none other is at
 * most as long and as costly and better in one; of equal points, the first. */
void st_size_front(st_size_cfg *cfg, size_t n, double power_w);

/* st_size_front with the budgets asked of within(cfg, ctx) (nonzero: within them), which is
 * called only for a configuration that would be on the front if within them (faster than every
 * front point that costs less), so it can run the plant on demand. */
void st_size_front_by(st_size_cfg *cfg, size_t n, int (*within)(st_size_cfg *, void *), void *ctx);

void st_size_release(st_size_result *r);

#endif
