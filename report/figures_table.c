/* The rows of the report's schema (report/figures.h): every figure of every JSON document the
 * commands write, in the order its writer writes it. A new report key is a field of its result
 * struct, one row here and one line in docs/guide/scenario-reference.md's report section. */
#include <stddef.h>

#include "models/forecast/run.h"
#include "report/figures.h"

/* A row of doc d; the unit's and flags' names shortened for the table's sake. */
#define TX  ST_FU_TEXT
#define BO  ST_FU_BOOL
#define NU  ST_FU_NUMBER
#define SH  ST_FU_SHARE
#define TI  ST_FU_TIME
#define BY  ST_FU_BYTES
#define BW  ST_FU_BANDWIDTH
#define PW  ST_FU_POWER
#define RA  ST_FU_RAMP
#define EN  ST_FU_ENERGY
#define CU  ST_FU_CURRENT
#define MO  ST_FU_MONEY
#define TE  ST_FU_TEMPERATURE
#define OPT ST_FIG_OPTIONAL
#define F(d, p, u, fl, l)                                                                          \
    {                                                                                              \
        .doc = d, .path = p, .unit = u, .flags = fl, .label = l                                    \
    }
#define RUN(p, u, fl, l) F(ST_DOC_RUN, p, u, fl, l)
/* A run row that is also a sweep column: rank k in --columns' list, read from member m of the
 * source struct S (of kind src), of C type t. */
#define SWP(p, u, fl, l, k, src_, S, m, t)                                                         \
    {                                                                                              \
        .doc = ST_DOC_RUN, .path = p, .unit = u, .flags = (fl) | ST_FIG_SWEEP, .label = l,         \
        .src = src_, .ctype = t, .off = offsetof(S, m), .sweep = k                                 \
    }
/* A sweep column that is also validation metric vm (st_valid_metric). */
#define SWPV(p, u, fl, l, k, src_, S, m, t, vm)                                                    \
    {                                                                                              \
        .doc = ST_DOC_RUN, .path = p, .unit = u, .flags = (fl) | ST_FIG_SWEEP, .label = l,         \
        .src = src_, .ctype = t, .off = offsetof(S, m), .sweep = k, .metric = (vm) + 1             \
    }
/* A run row that is validation metric vm, read from member m of S (of kind src). */
#define VAL(p, u, fl, l, src_, S, m, vm)                                                           \
    {                                                                                              \
        .doc = ST_DOC_RUN, .path = p, .unit = u, .flags = fl, .label = l, .src = src_,             \
        .ctype = ST_FIG_DOUBLE, .off = offsetof(S, m), .metric = (vm) + 1                          \
    }
/* A figure column of compare's table, headed h. */
#define CMP(p, u, fl, l, h, src_, S, m, t)                                                         \
    {                                                                                              \
        .doc = ST_DOC_COMPARE, .path = p, .unit = u, .flags = (fl) | ST_FIG_SPREAD, .label = l,    \
        .head = h, .src = src_, .ctype = t, .off = offsetof(S, m)                                  \
    }
#define DBL ST_FIG_DOUBLE
#define DEF ST_FIG_SWEEP_DEF

/* clang-format off */
const st_fig st_figs[] = {
    /* strata run: the report (report/json.c) */
    RUN("strata_version", TX, 0, "Strata version"),
    RUN("scenario", TX, 0, "Scenario"),
    RUN("scenario_hash", TX, 0, "Scenario hash"),
    RUN("seed", NU, 0, "Seed"),
    RUN("cluster.gpu", TX, 0, "GPU"),
    RUN("cluster.nodes", NU, 0, "Nodes"),
    RUN("cluster.gpus", NU, 0, "GPUs"),
    RUN("jobs[].name", TX, 0, "Job"),
    RUN("jobs[].kind", TX, 0, "Kind"),
    RUN("jobs[].gpus", NU, 0, "GPUs"),
    RUN("jobs[].model", TX, 0, "Model"),
    RUN("jobs[].params", NU, 0, "Parameters"),
    RUN("jobs[].flops_per_token", NU, 0, "Model FLOPs per token"),
    RUN("jobs[].parallel.tp", NU, 0, "Tensor parallel"),
    RUN("jobs[].parallel.cp", NU, 0, "Context parallel"),
    RUN("jobs[].parallel.pp", NU, 0, "Pipeline parallel"),
    RUN("jobs[].parallel.dp", NU, 0, "Data parallel"),
    RUN("jobs[].parallel.ep", NU, OPT, "Expert parallel"),
    RUN("jobs[].parallel.microbatch", NU, 0, "Micro-batch"),
    SWP("jobs[].memory_per_gpu_bytes", BY, DEF, "Memory per GPU", 3, ST_SRC_MEM, st_memory, total, DBL),
    SWP("jobs[].fits", BO, DEF, "Fits in memory", 4, ST_SRC_MEM, st_memory, fits, ST_FIG_INT),
    RUN("jobs[].memory.weights_bytes", BY, 0, "Weights"),
    RUN("jobs[].memory.gradients_bytes", BY, 0, "Gradients"),
    RUN("jobs[].memory.optimizer_bytes", BY, 0, "Optimizer states"),
    RUN("jobs[].memory.activations_bytes", BY, 0, "Activations"),
    RUN("jobs[].memory.reserved_bytes", BY, OPT, "Reserved memory"),
    RUN("jobs[].memory.capacity_bytes", BY, 0, "Memory capacity"),
    RUN("jobs[].memory.overflow_term", TX, OPT, "Overflowing term"),
    RUN("jobs[].memory.overflow_bytes", BY, OPT, "Memory over capacity"),
    SWPV("jobs[].step_time_s", TI, DEF, "Step time", 1, ST_SRC_STEP, st_step_result, step_time_s, DBL, ST_METRIC_STEP_TIME),
    SWPV("jobs[].mfu", SH, DEF, "Model FLOPs utilisation", 2, ST_SRC_STEP, st_step_result, mfu, DBL, ST_METRIC_MFU),
    SWP("jobs[].hfu", SH, 0, "Hardware FLOPs utilisation", 7, ST_SRC_STEP, st_step_result, hfu, DBL),
    SWP("jobs[].tokens_per_s", ST_FU_PER_S, 0, "Tokens per second", 8, ST_SRC_STEP, st_step_result, tokens_per_s, DBL),
    SWPV("jobs[].tflops_per_gpu", NU, 0, "TFLOP/s per GPU", 9, ST_SRC_STEP, st_step_result, tflops_per_gpu, DBL, ST_METRIC_TFLOPS_PER_GPU),
    RUN("jobs[].microbatches_per_step", NU, 0, "Micro-batches per step"),
    RUN("jobs[].breakdown.compute_s", TI, 0, "Compute"),
    RUN("jobs[].breakdown.tp_comm_s", TI, 0, "TP communication"),
    RUN("jobs[].breakdown.pp_comm_s", TI, 0, "PP communication"),
    RUN("jobs[].breakdown.dp_comm_exposed_s", TI, 0, "DP communication (exposed)"),
    RUN("jobs[].breakdown.bubble_s", TI, 0, "Pipeline bubble"),
    RUN("jobs[].breakdown.optimizer_s", TI, 0, "Optimizer"),
    RUN("jobs[].closed_form_step_s", TI, 0, "Closed-form step time"),
    VAL("jobs[].checkpoint.size_bytes", BY, 0, "Checkpoint size", ST_SRC_MEM, st_memory, checkpoint_bytes, ST_METRIC_CKPT_SIZE),
    RUN("jobs[].checkpoint.mode", TX, 0, "Checkpoint mode"),
    RUN("jobs[].checkpoint.interval_s", TI, 0, "Checkpoint interval"),
    RUN("jobs[].checkpoint.interval_rule", TX, 0, "Interval rule"),
    RUN("jobs[].checkpoint.daly_interval_s", TI, OPT, "Daly's interval"),
    RUN("jobs[].checkpoint.young_interval_s", TI, OPT, "Young's interval"),
    VAL("jobs[].checkpoint.stall_s", TI, 0, "Checkpoint stall", ST_SRC_CKPT, st_ckpt_cost, stall_s, ST_METRIC_CKPT_SAVE),
    RUN("jobs[].checkpoint.stall_fraction", SH, 0, "Time stalled for checkpoints"),
    RUN("jobs[].checkpoint.dump_s", TI, 0, "Checkpoint dump time"),
    RUN("jobs[].checkpoint.write_s", TI, 0, "Checkpoint write time"),
    RUN("jobs[].checkpoint.commit_s", TI, 0, "Time until restorable"),
    RUN("jobs[].checkpoint.restore_s", TI, 0, "Restore time"),
    RUN("jobs[].checkpoint.writers", NU, 0, "Checkpoint writers"),
    RUN("jobs[].checkpoint.count", NU, 0, "Checkpoints taken"),
    RUN("jobs[].checkpoint.bytes_per_day", ST_FU_BYTES_PER_DAY, OPT, "Checkpoint bytes per day"),
    RUN("jobs[].checkpoint.write_utilization", SH, OPT, "Checkpoint tier write load"),
    RUN("jobs[].ingest.need_bytes_per_s", BW, 0, "Ingest needed"),
    RUN("jobs[].ingest.got_bytes_per_s", BW, 0, "Ingest delivered"),
    RUN("jobs[].ingest.slowdown", NU, 0, "Ingest slowdown"),
    SWP("jobs[].steps", NU, 0, "Steps", 10, ST_SRC_JOB, st_forecast, steps, ST_FIG_I64),
    RUN("jobs[].effective_step_time_s", TI, 0, "Effective step time"),
    RUN("jobs[].job_mtbf_s", TI, OPT, "Job MTBF"),
    SWP("jobs[].wall_s", TI, DEF | ST_FIG_SWEEP_ONLY | ST_FIG_IN_DAYS, "Wall time", 5, ST_SRC_LIFE, st_life_result, wall_s, DBL),
    SWP("jobs[].interruptions", NU, 0, "Interruptions", 11, ST_SRC_LIFE, st_life_result, interruptions, ST_FIG_I64),
    SWP("jobs[].lost_work_s", TI, 0, "Work lost", 12, ST_SRC_LIFE, st_life_result, lost_work_s, DBL),
    SWP("jobs[].downtime_s", TI, 0, "Downtime", 13, ST_SRC_LIFE, st_life_result, downtime_s, DBL),
    SWP("jobs[].goodput", SH, DEF, "Goodput", 6, ST_SRC_LIFE, st_life_result, goodput, DBL),
    RUN("jobs[].start_s", TI, 0, "Start"),
    RUN("jobs[].wait_s", TI, 0, "Queue wait"),
    RUN("jobs[].end_s", TI, OPT, "End"),
    RUN("jobs[].preemptions", NU, OPT, "Preemptions"),
    RUN("jobs[].preempted_s", TI, OPT, "Time lost to preemptions"),
    RUN("jobs[].slowest_rate", NU, OPT, "Slowest rate beside its neighbours"),
    RUN("jobs[].cluster_interruptions", NU, OPT, "Cluster failures that hit it"),
    RUN("jobs[].cluster_lost_work_s", TI, OPT, "Work lost to cluster failures"),
    RUN("jobs[].replicas.n", NU, 0, "Replicas"),
    RUN("jobs[].replicas.wall_s", TI, ST_FIG_STATS, "Wall time over the replicas"),
    VAL("jobs[].replicas.goodput", SH, ST_FIG_STATS, "Goodput over the replicas", ST_SRC_SUMMARY, st_life_summary, goodput.mean, ST_METRIC_GOODPUT),
    VAL("jobs[].replicas.interruptions", NU, ST_FIG_STATS, "Interruptions over the replicas", ST_SRC_SUMMARY, st_life_summary, interruptions.mean, ST_METRIC_INTERRUPTIONS),
    RUN("jobs[].replicas.lost_work_s", TI, ST_FIG_STATS, "Work lost over the replicas"),
    RUN("jobs[].collective.op", TX, 0, "Collective"),
    RUN("jobs[].collective.algo", TX, 0, "Algorithm"),
    RUN("jobs[].collective.protocol", TX, 0, "Protocol"),
    RUN("jobs[].collective.channels", NU, 0, "Channels"),
    RUN("jobs[].collective.size_bytes", BY, 0, "Collective size"),
    RUN("jobs[].collective.iterations", NU, 0, "Iterations"),
    RUN("jobs[].collective.time_s", TI, 0, "Time per iteration"),
    RUN("jobs[].collective.algbw_bytes_per_s", BW, 0, "Algorithm bandwidth"),
    RUN("jobs[].collective.busbw_bytes_per_s", BW, 0, "Bus bandwidth"),
    RUN("jobs[].collective.alone_s", TI, 0, "Time alone"),
    RUN("jobs[].collective.closed_form_s", TI, 0, "Closed-form time"),
    RUN("jobs[].power.gpu_peak_w", PW, 0, "GPU peak power"),
    RUN("jobs[].power.gpu_mean_w", PW, 0, "GPU mean power"),
    RUN("jobs[].power.step_energy_j", EN, 0, "Energy per step"),
    SWP("jobs[].power.energy_j", EN, OPT, "Energy", 14, ST_SRC_JOB_ENERGY, st_plant_job_power, energy_j, DBL),
    RUN("jobs[].power.energy_per_token_j", EN, OPT, "Energy per token"),
    RUN("jobs[].thermal.junction_c", TE, 0, "Hottest junction"),
    RUN("jobs[].thermal.clock", SH, 0, "Clock"),
    SWP("jobs[].cost.total_usd", MO, 0, "Cost", 15, ST_SRC_COST, st_cost_result, total_usd, DBL),
    SWP("jobs[].cost.per_token_usd", MO, 0, "Cost per token", 16, ST_SRC_COST, st_cost_result, per_token_usd, DBL),
    SWP("jobs[].cost.per_year_usd", MO, 0, "Cost per year", 17, ST_SRC_COST, st_cost_result, per_year_usd, DBL),
    SWP("jobs[].cost.breakdown.capex_usd", MO, 0, "Capital cost", 18, ST_SRC_COST, st_cost_result, capex_usd, DBL),
    SWP("jobs[].cost.breakdown.energy_usd", MO, 0, "Energy cost", 19, ST_SRC_COST, st_cost_result, energy_usd, DBL),
    SWP("jobs[].cost.breakdown.demand_usd", MO, 0, "Demand charge", 20, ST_SRC_COST, st_cost_result, demand_usd, DBL),
    SWP("jobs[].cost.breakdown.maintenance_usd", MO, 0, "Maintenance", 21, ST_SRC_COST, st_cost_result, maintenance_usd, DBL),
    SWP("jobs[].cost.breakdown.staff_usd", MO, 0, "Staff", 22, ST_SRC_COST, st_cost_result, staff_usd, DBL),
    SWP("jobs[].cost.breakdown.gpu_usd", MO, 0, "GPU rental", 23, ST_SRC_COST, st_cost_result, gpu_usd, DBL),
    SWP("jobs[].cost.breakdown.storage_usd", MO, 0, "Storage", 24, ST_SRC_COST, st_cost_result, storage_usd, DBL),
    SWP("jobs[].cost.breakdown.egress_usd", MO, 0, "Egress", 25, ST_SRC_COST, st_cost_result, egress_usd, DBL),
    RUN("scheduler.policy", TX, 0, "Scheduler policy"),
    RUN("scheduler.placement", TX, 0, "Placement policy"),
    RUN("scheduler.jobs", NU, 0, "Jobs"),
    RUN("scheduler.finished", NU, 0, "Jobs finished"),
    RUN("scheduler.unfinished", NU, 0, "Jobs unfinished"),
    RUN("scheduler.too_big", NU, 0, "Jobs larger than the cluster"),
    RUN("scheduler.mean_wait_s", TI, 0, "Mean queue wait"),
    RUN("scheduler.p95_wait_s", TI, 0, "P95 queue wait"),
    RUN("scheduler.mean_jct_s", TI, OPT, "Mean job completion time"),
    RUN("scheduler.makespan_s", TI, 0, "Makespan"),
    RUN("scheduler.utilization", SH, 0, "GPU utilisation"),
    RUN("scheduler.preemptions", NU, 0, "Preemptions"),
    RUN("scheduler.preempted_s", TI, OPT, "Time lost to preemptions"),
    RUN("scheduler.failures", NU, OPT, "Component failures"),
    RUN("scheduler.interruptions", NU, OPT, "Job interruptions"),
    RUN("scheduler.lost_work_s", TI, OPT, "Work lost to failures"),
    RUN("fabric.max_link_utilization", SH, 0, "Peak link utilisation"),
    RUN("fabric.collisions", NU, 0, "ECMP collisions"),
    RUN("fabric.utilization_by_level", SH, ST_FIG_MAP, "Peak link utilisation by tier"),
    RUN("power.it_peak_w", PW, 0, "IT peak power"),
    RUN("power.it_mean_w", PW, 0, "IT mean power"),
    RUN("power.facility_peak_w", PW, 0, "Facility peak power"),
    RUN("power.facility_mean_w", PW, 0, "Facility mean power"),
    RUN("power.facility_peak.it_w", PW, 0, "IT at the facility peak"),
    RUN("power.facility_peak.distribution_w", PW, 0, "Distribution losses at the facility peak"),
    RUN("power.facility_peak.storage_w", PW, 0, "Storage loss at the facility peak"),
    RUN("power.facility_peak.transformer_w", PW, 0, "Transformer loss at the facility peak"),
    RUN("power.facility_peak.ups_w", PW, 0, "UPS loss at the facility peak"),
    RUN("power.facility_peak.cooling_w", PW, 0, "Cooling plant at the facility peak"),
    RUN("power.swing_w", PW, 0, "Power swing"),
    RUN("power.ramp_w_per_s", RA, 0, "Power ramp"),
    RUN("power.ramp_limit_w_per_s", RA, OPT, "Ramp limit"),
    RUN("power.power_capacity_w", PW, OPT, "Facility power capacity"),
    RUN("power.swing_hz", ST_FU_FREQUENCY, 0, "Swing frequency"),
    RUN("power.utility_band_share", SH, 0, "Swing energy in 0.1-20 Hz"),
    RUN("power.distribution_loss_w", PW, 0, "Distribution losses at peak"),
    RUN("power.window_s", TI, 0, "Waveform window"),
    RUN("power.racks.count", NU, 0, "Racks"),
    RUN("power.racks.peak_w", PW, 0, "Worst rack's peak power"),
    RUN("power.racks.line_current_a", CU, 0, "Worst rack's line current"),
    RUN("power.racks.breaker_a", CU, OPT, "Rack breaker"),
    RUN("power.racks.headroom_a", CU, OPT, "Breaker headroom"),
    RUN("power.racks.loss_w", PW, 0, "Worst rack's I2R loss"),
    RUN("power.racks.cooling.heat_w", PW, 0, "Hottest rack's heat"),
    RUN("power.racks.cooling.capacity_w", PW, 0, "Its cooling capacity"),
    RUN("power.racks.cooling.air_w", PW, 0, "Heat to air"),
    RUN("power.racks.cooling.liquid_w", PW, 0, "Heat to liquid"),
    RUN("power.racks.cooling.air_flow_m3_per_s", ST_FU_FLOW, 0, "Air flow"),
    RUN("power.racks.cooling.liquid_flow_m3_per_s", ST_FU_FLOW, 0, "Liquid flow"),
    RUN("power.racks.cooling.air_inlet_c", TE, 0, "Air inlet"),
    RUN("power.racks.cooling.liquid_inlet_c", TE, 0, "Liquid inlet"),
    RUN("power.network.switch_ports", NU, 0, "Switch ports with optics"),
    RUN("power.network.optics_w", PW, 0, "Optics power"),
    RUN("power.cooling_plant.fans_w", PW, 0, "Cooling fans"),
    RUN("power.cooling_plant.pumps_w", PW, 0, "Cooling pumps"),
    RUN("power.cooling_plant.chiller_w", PW, 0, "Chiller"),
    RUN("power.transformer_loss_w", PW, 0, "Transformer loss"),
    RUN("power.ups.loss_w", PW, 0, "UPS loss"),
    RUN("power.ups.load", SH, 0, "UPS load"),
    RUN("power.ups.rating_w", PW, 0, "UPS rating"),
    RUN("power.ups.systems", NU, 0, "UPS systems"),
    RUN("power.pue", NU, 0, "PUE"),
    RUN("power.energy_j", EN, 0, "Energy"),
    RUN("power.mitigation.without.swing_w", PW, 0, "Swing without mitigation"),
    RUN("power.mitigation.without.ramp_w_per_s", RA, 0, "Ramp without mitigation"),
    RUN("power.mitigation.without.it_mean_w", PW, 0, "IT mean power without mitigation"),
    RUN("power.mitigation.power_floor_w", PW, OPT, "Power floor per GPU"),
    RUN("power.mitigation.floor_extra_w", PW, OPT, "Power the floor adds"),
    RUN("power.mitigation.power_burn_w", PW, OPT, "Power burn per GPU"),
    RUN("power.mitigation.burn_extra_w", PW, OPT, "Power the burn adds"),
    RUN("power.mitigation.storage_energy_j", EN, OPT, "Rack energy storage"),
    RUN("power.mitigation.storage_power_w", PW, OPT, "Storage power"),
    RUN("power.mitigation.storage_loss_w", PW, OPT, "Storage loss"),
    RUN("thermal.max_junction_c", TE, 0, "Hottest junction"),
    RUN("thermal.throttle_fraction", SH, 0, "GPUs throttled"),
    RUN("cost.delivery", TX, 0, "Delivery model"),
    RUN("cost.total_usd", MO, 0, "Total cost"),
    RUN("audit[].level", TX, 0, "Level"),
    RUN("audit[].check", TX, 0, "Check"),
    RUN("audit[].status", TX, 0, "Status"),
    RUN("audit[].value", NU, 0, "Value"),
    RUN("audit[].limit", NU, 0, "Limit"),
    RUN("audit[].message", TX, 0, "Message"),

    /* strata compare (cli/cmd_compare.c) */
    F(ST_DOC_COMPARE, "scenario", TX, 0, "Scenario"),
    F(ST_DOC_COMPARE, "seed", NU, 0, "Seed"),
    F(ST_DOC_COMPARE, "replicas", NU, OPT, "Replicas"),
    F(ST_DOC_COMPARE, "policies[].policy", TX, 0, "Policy"),
    F(ST_DOC_COMPARE, "policies[].placement", TX, 0, "Placement"),
    F(ST_DOC_COMPARE, "policies[].jobs", NU, 0, "Jobs"),
    F(ST_DOC_COMPARE, "policies[].finished", NU, 0, "Jobs finished"),
    F(ST_DOC_COMPARE, "policies[].unfinished", NU, 0, "Jobs unfinished"),
    CMP("policies[].mean_wait_s", TI, 0, "Mean queue wait", "wait mean", ST_SRC_CLUSTER, st_cluster_stats, mean_wait_s, DBL),
    CMP("policies[].p50_wait_s", TI, 0, "P50 queue wait", "p50", ST_SRC_CLUSTER, st_cluster_stats, p50_wait_s, DBL),
    CMP("policies[].p95_wait_s", TI, 0, "P95 queue wait", "p95", ST_SRC_CLUSTER, st_cluster_stats, p95_wait_s, DBL),
    CMP("policies[].p99_wait_s", TI, 0, "P99 queue wait", "p99", ST_SRC_CLUSTER, st_cluster_stats, p99_wait_s, DBL),
    CMP("policies[].mean_jct_s", TI, 0, "Mean job completion time", "JCT mean", ST_SRC_CLUSTER, st_cluster_stats, mean_jct_s, DBL),
    CMP("policies[].p50_jct_s", TI, 0, "P50 job completion time", "p50", ST_SRC_CLUSTER, st_cluster_stats, p50_jct_s, DBL),
    CMP("policies[].p95_jct_s", TI, 0, "P95 job completion time", "p95", ST_SRC_CLUSTER, st_cluster_stats, p95_jct_s, DBL),
    CMP("policies[].p99_jct_s", TI, 0, "P99 job completion time", "p99", ST_SRC_CLUSTER, st_cluster_stats, p99_jct_s, DBL),
    CMP("policies[].makespan_s", TI, 0, "Makespan", "makespan", ST_SRC_CLUSTER, st_cluster_stats, makespan_s, DBL),
    CMP("policies[].utilization", SH, 0, "GPU utilisation", "util", ST_SRC_CLUSTER, st_cluster_stats, utilization, DBL),
    CMP("policies[].preemptions", NU, 0, "Preemptions", "preemptions", ST_SRC_CLUSTER, st_cluster_stats, preemptions, ST_FIG_I64),
    CMP("policies[].fragmented_gpus", NU, 0, "Fragmented GPUs", "frag GPUs", ST_SRC_CLUSTER, st_cluster_stats, fragmented_gpus, DBL),
    CMP("policies[].goodput", SH, 0, "Goodput", "goodput", ST_SRC_CLUSTER, st_cluster_stats, goodput, DBL),
    CMP("policies[].energy_j", EN, OPT, "Energy", "energy", ST_SRC_PLANT, st_plant_result, energy_j, DBL),

    /* strata sweep (report/sweep_out.c): its own keys; a point's figure columns are run rows */
    F(ST_DOC_SWEEP, "scenario_hash", TX, 0, "Scenario hash"),
    F(ST_DOC_SWEEP, "columns[]", TX, 0, "Columns"),
    F(ST_DOC_SWEEP, "points[].status", TX, 0, "Status"),
    F(ST_DOC_SWEEP, "points[].reason", TX, ST_FIG_NULLABLE, "Reason"),

    /* strata size (report/size_out.c); front[] holds rows of ranked[]'s keys */
    F(ST_DOC_SIZE, "file", TX, 0, "Scenario file"),
    F(ST_DOC_SIZE, "workload", TX, 0, "Workload"),
    F(ST_DOC_SIZE, "deadline_s", TI, 0, "Deadline"),
    F(ST_DOC_SIZE, "goal", TX, 0, "Goal"),
    F(ST_DOC_SIZE, "power_budget_w", PW, OPT, "Power budget"),
    F(ST_DOC_SIZE, "power_budget_from", TX, OPT, "Power budget from"),
    F(ST_DOC_SIZE, "search.variants", NU, 0, "Hardware variants"),
    F(ST_DOC_SIZE, "search.counts_searched", NU, 0, "GPU counts searched"),
    F(ST_DOC_SIZE, "search.counts_skipped", NU, 0, "GPU counts skipped"),
    F(ST_DOC_SIZE, "search.considered", NU, 0, "Plans considered"),
    F(ST_DOC_SIZE, "search.evaluated", NU, 0, "Plans evaluated"),
    F(ST_DOC_SIZE, "search.pruned_rule", NU, 0, "Pruned by a plan rule"),
    F(ST_DOC_SIZE, "search.pruned_memory", NU, 0, "Pruned by memory"),
    F(ST_DOC_SIZE, "search.pruned_dominated", NU, 0, "Pruned as dominated"),
    F(ST_DOC_SIZE, "search.cadences_weighed", NU, 0, "Checkpoint cadences weighed"),
    F(ST_DOC_SIZE, "ranked[].rank", NU, 0, "Rank"),
    F(ST_DOC_SIZE, "ranked[].variant", TX, OPT, "Hardware variant"),
    F(ST_DOC_SIZE, "ranked[].nodes", NU, 0, "Nodes"),
    F(ST_DOC_SIZE, "ranked[].gpus", NU, 0, "GPUs"),
    F(ST_DOC_SIZE, "ranked[].tp", NU, 0, "Tensor parallel"),
    F(ST_DOC_SIZE, "ranked[].pp", NU, 0, "Pipeline parallel"),
    F(ST_DOC_SIZE, "ranked[].dp", NU, 0, "Data parallel"),
    F(ST_DOC_SIZE, "ranked[].ep", NU, OPT, "Expert parallel"),
    F(ST_DOC_SIZE, "ranked[].virtual_stages", NU, 0, "Virtual stages"),
    F(ST_DOC_SIZE, "ranked[].microbatch", NU, 0, "Micro-batch"),
    F(ST_DOC_SIZE, "ranked[].recompute", TX, 0, "Recomputation"),
    F(ST_DOC_SIZE, "ranked[].memory_per_gpu_bytes", BY, 0, "Memory per GPU"),
    F(ST_DOC_SIZE, "ranked[].step_time_s", TI, 0, "Step time"),
    F(ST_DOC_SIZE, "ranked[].work_s", TI, 0, "Training time without failures"),
    F(ST_DOC_SIZE, "ranked[].train_s", TI, 0, "Time to train"),
    F(ST_DOC_SIZE, "ranked[].goodput", SH, 0, "Goodput"),
    F(ST_DOC_SIZE, "ranked[].checkpoint_every_s", TI, 0, "Checkpoint interval"),
    F(ST_DOC_SIZE, "ranked[].gpu_hours", NU, 0, "GPU-hours"),
    F(ST_DOC_SIZE, "ranked[].cost_usd", MO, ST_FIG_NULLABLE, "Cost"),
    F(ST_DOC_SIZE, "ranked[].per_year_usd", MO, ST_FIG_NULLABLE, "Cost per year"),
    F(ST_DOC_SIZE, "ranked[].capex_usd", MO, ST_FIG_NULLABLE, "Capital cost"),
    F(ST_DOC_SIZE, "ranked[].price_source", TX, ST_FIG_NULLABLE, "Price source"),
    F(ST_DOC_SIZE, "ranked[].facility_w", PW, ST_FIG_NULLABLE, "Facility power"),
    F(ST_DOC_SIZE, "ranked[].racks", NU, 0, "Racks"),
    F(ST_DOC_SIZE, "ranked[].feasible", BO, 0, "Meets deadline and budgets"),
    F(ST_DOC_SIZE, "ranked[].front", BO, 0, "On the Pareto front"),
    F(ST_DOC_SIZE, "ranked[].binds", TX, 0, "What binds"),
};
/* clang-format on */

const size_t st_fig_count = sizeof st_figs / sizeof st_figs[0];
