/* The plant level: the power every running training job draws, by job, by rack and for the
 * facility. A job's GPUs follow its simulated step (gpu_power.h); racks add their nodes' base
 * power and idle GPUs, and their feeds carry it (electric.h); the facility's millisecond
 * waveform gives peak, swing, ramp and dominant frequency (waveform.h). docs/models/plant.md has
 * the equations and sources. */
#ifndef ST_MODELS_PLANT_PLANT_H
#define ST_MODELS_PLANT_PLANT_H

#include <stddef.h>
#include <stdint.h>

#include "models/config/config.h"
#include "models/plant/cooling.h"
#include "models/plant/ups.h"
#include "models/plant/wave_series.h"
#include "models/plant/waveform.h"
#include "models/step/step.h"
#include "sim/err.h"

/* Constants of the plant that are not datasheet figures, with their sources (plant.c). */
typedef struct st_plant_preset {
    double psu_efficiency; /* wall power = board power / psu_efficiency */
    /* the facility's low-voltage transformers feeding the racks: their input is (IT +
     * distribution losses) / transformer_efficiency */
    double transformer_efficiency;
    double dt_s;         /* the waveform's sample */
    double min_window_s; /* the waveform covers at least this ... */
    double min_steps;    /* ... and at least this many of the longest step */
    double max_window_s;
    /* Network optics: the board power of one optical transceiver port at a switch, and the
     * port rate it holds for (bits/s); a fabric at another rate has no optics figure. */
    double switch_optic_w, optic_rate_bps;
    /* A trace job with no step model (trace.models maps none to it): the share of its run its
     * GPUs spend running kernels (nvidia-smi's utilisation), the rest idle; st_plant_util_w
     * turns it into power. */
    double trace_gpu_utilization;
    const char *source;
} st_plant_preset;

const st_plant_preset *st_plant_preset_get(void);

/* A running training job: its step (borrowed), its GPUs' ids (borrowed, n_gpus of them, in
 * the cluster's numbering: node = id / gpus_per_node) and a stable id for its phase offset's
 * random stream (its workload index). */
typedef struct st_plant_job {
    const st_step_result *step;
    const int64_t *gpus;
    int64_t n_gpus;
    uint64_t id;
    double clock; /* the share of full clock its step ran at (st_plant_throttle); 0 or 1: full */
    int steady;   /* appended: 1 for a job of independent replicas whose steps do not line up
                     (an inference service's iterations, models/serve/serve.h): its GPUs draw
                     their step's mean power steadily, not the step's phases in step */
} st_plant_job;

/* The GPU type job j runs on: its first GPU's pool's (models/config/pools.h), the cluster's
 * one type when it has one. */
const st_gpu_spec *st_plant_job_gpu(const st_cluster_cfg *c, const st_plant_job *j);

/* The board power of nodes [first, first + n) of c with every GPU idle, W: each node's base
 * power and its GPUs' idle power, by the pool that holds it. */
double st_plant_nodes_idle_w(const st_cluster_cfg *c, int64_t first, int64_t n);

/* The base power (CPUs, NICs, fans: node.base_power) of the nodes n GPUs of c fill, W: a job's
 * nodes draw it over its whole life, whether it steps or not. */
double st_plant_job_base_w(const st_cluster_cfg *c, int64_t n);

/* One GPU of type g's board power while its job runs no step (down, restarting, stalled on a
 * checkpoint), W: idle, or the plant's power floor floor_w (0: none) where one is set, which
 * holds whatever the GPU runs, capped at its power limit. The one figure `run` and `size` count
 * a job's rest at. */
double st_plant_resting_w(const st_gpu_spec *g, double floor_w);

/* A job's energy at the facility over its life, J (docs/models/plant.md, "PUE and energy"): its
 * `steps` run and redone at its GPUs' board energy per step, rest_j of their board energy while
 * they run no step (downtime, stalls: idle or at the floor), and its nodes' base power base_w
 * over held_s, all through the PSUs and times the PUE. The one formula `run` (a job's energy_j)
 * and `size` (a configuration's energy cost) count. */
double st_plant_job_energy_j(double pue, double steps, double step_energy_j, double rest_j,
                             double base_w, double held_s);

/* One job's board power, all its GPUs together. */
typedef struct st_plant_job_power {
    uint64_t id; /* the job's st_plant_job.id */
    double peak_w, mean_w, step_energy_j;
    double junction_c; /* its hottest GPU's junction (thermal.h) */
    double clock;      /* its clock share */
    /* Over its life, at the facility (filled by the forecast, models/forecast/run.c): J and J
     * per token trained; 0 when unknown. */
    double energy_j, energy_per_token_j;
} st_plant_job_power;

/* The facility's power, one figure with its parts (W): what the site's feed must deliver. IT
 * (wall power of the nodes and the network), the racks' distribution losses, the storage's
 * conversion loss, the transformers' loss, the UPS's loss and the cooling plant (fans, pumps,
 * chillers, CDUs). The one definition every command compares with facility.power_capacity and
 * prints (docs/models/plant.md, "Facility power"). */
typedef struct st_plant_facility {
    double it_w, distribution_w, storage_w, transformer_w, ups_w, cooling_w;
    double total_w; /* the parts summed */
} st_plant_facility;

/* The heat the facility's cooling plant rejects (W), at the jobs' mean power, which the plant's
 * thermal mass follows: every rack's heat to air and to its liquid loop, and the electrical
 * rooms' losses (transformers, UPS) on the air plant. What a facility's cooling capacity, or a
 * `strata size --budget cooling=`, is compared with (docs/models/plant.md, "Heat to reject"). */
typedef struct st_plant_heat {
    double air_w, liquid_w;
    double total_w; /* the two summed */
} st_plant_heat;

typedef struct st_plant_result {
    st_plant_job_power *jobs; /* n_jobs, as given (owned) */
    size_t n_jobs;
    /* The facility waveform over window_s at dt_s, in the steady state with every given job
     * running, and its shape. */
    double window_s, dt_s;
    st_plant_wave_stats wave; /* of the facility power: IT plus distribution losses */
    double it_peak_w, it_mean_w;
    /* Energy conservation over the window, IT wall energy, J: the waveform's samples summed
     * (times dt), and the same from the jobs' phases walked one by one (each phase's power times
     * its overlap with the window, from the job's offset) plus the constant draw. */
    double wave_it_energy_j, phase_energy_j;
    double loss_at_peak_w, loss_mean_w; /* distribution losses (0 without a resistance) */
    /* The racks: the most loaded rack at its coincident peak (every job in it at its peak). */
    int64_t racks;
    double rack_peak_w, rack_current_a, rack_loss_w;
    double rack_headroom_a; /* against the breaker under the 80% rule; NAN when none is stated */
    /* Cooling at the jobs' mean power (cooling.h): the rack with the most heat for its
     * capacity, and the facility's cooling plant over every rack's heat and the electrical
     * rooms' (electrical_heat_w: the transformers' and the UPS's losses, on the air plant). */
    st_plant_rack_heat rack_heat;
    /* The rack whose coincident peak draw is furthest past its own cooling capacity (a rack's
     * peak and its capacity, never two racks'): 0 and 0 when no rack's peak passes its capacity.
     * The mean heat is what cooling removes; a peak past the rating is a margin warning. */
    double rack_peak_over_w, rack_peak_over_cap_w;
    st_plant_cooling_power cooling;
    double air_w, liquid_w; /* heat every rack gives each medium */
    double electrical_heat_w;
    st_plant_heat heat; /* the facility's, to reject: the racks' and the electrical rooms' */
    /* The transformers' loss at the mean power: (IT + distribution losses) (1 / eta_t - 1). */
    double transformer_loss_w;
    /* The UPS (ups.h) feeding the transformers: it carries the facility waveform plus their
     * loss; its mean loss is ups.loss_w. */
    st_plant_ups ups;
    /* PUE = (IT + distribution losses + storage loss + transformer loss + UPS loss + cooling) /
     * IT, over the mean power: facility_mean.total_w / it_mean_w */
    double pue;
    /* The facility's power at the waveform's peak sample (for a cap: its transformers' and UPS's
     * losses at that sample's load, the cooling plant at the mean heat, which the plant's
     * thermal mass follows, not the millisecond swing) and over the window (for energy). */
    st_plant_facility facility_peak, facility_mean;
    /* Thermal (thermal.h): the hottest junction of any job's GPU, and the share of the jobs'
     * GPUs whose clock the heat holds below full. */
    double max_junction_c, throttle_fraction;
    double energy_j; /* the jobs' energy_j summed (filled by the forecast) */
    /* The mitigations (mitigate.h), set only when the racks state a power floor, a burn or
     * storage: the facility waveform without them (wave is with them), the floor per GPU, the
     * mean extra board power it burns across the jobs' GPUs, the burn's level per GPU and the
     * mean extra board power it adds above the floor, the facility's storage (every rack's
     * together) and the mean power its conversion loses. */
    int mitigated;
    st_plant_wave_stats bare;
    double bare_it_mean_w;
    double floor_w, floor_extra_w;
    double burn_w, burn_extra_w;
    double storage_energy_j, storage_power_w, storage_loss_w;
    st_plant_series series; /* the facility waveform (wave), decimated for the reports (owned) */
    /* The network's constant draw at the wall (the board power given to st_plant_run_network
     * through the PSUs): in the IT power, the waveform, its energy and the PUE, and its heat
     * in the air the cooling plant removes; not in any rack (switches sit in their own). Set
     * by the forecast: has_network when it stated one, and the switch ports it counted. */
    double network_w;
    int has_network;
    int64_t switch_ports;
} st_plant_result;

/* Whether the plant models the racks' distribution losses (a stated distribution_resistance)
 * and their energy storage (racks.storage): without, those terms are not modelled, where a 0 in
 * a report would read as measured to be none. */
int st_plant_models_distribution(const st_cluster_cfg *c);
int st_plant_models_storage(const st_cluster_cfg *c);

/* The plant of cluster c with the n given jobs running (placed, with a step), their phase
 * offsets drawn from random streams keyed by the run's seed. Returns 0, or -1 with err set when the
 * GPU has no power limit (tdp_w 0): the plant is then not modelled. out must be released with
 * st_plant_release either way. */
int st_plant_run(const st_cluster_cfg *c, const st_plant_job *jobs, size_t n, uint64_t seed,
                 st_plant_result *out, st_err *err);

/* As st_plant_run, with the network's constant board power network_board_w (W, >= 0: switch
 * optics, composed by the forecast from the fabric) drawn beside the racks. */
int st_plant_run_network(const st_cluster_cfg *c, const st_plant_job *jobs, size_t n, uint64_t seed,
                         double network_board_w, st_plant_result *out, st_err *err);

/* The window st_plant_run and st_plant_run_network draw the jobs over, s: at least a minute and
 * ten of the longest step (the preset's min_window_s and min_steps). A caller that runs the
 * plant on a window of its own (st_plant_run_facility) passes this one to get `run`'s figures:
 * the facility's mean, and so its losses, cooling and peak, is the waveform's over the window. */
double st_plant_window(const st_cluster_cfg *c, const st_plant_job *jobs, size_t n);

/* The plant with an explicit window (s), for the benchmark and tests: as st_plant_run. */
int st_plant_run_window(const st_cluster_cfg *c, const st_plant_job *jobs, size_t n, uint64_t seed,
                        double window_s, st_plant_result *out, st_err *err);

/* As st_plant_run_window, with the network's board power as st_plant_run_network's: `strata size`
 * gives its shapes' optics so its facility figure is `run`'s. */
int st_plant_run_window_network(const st_cluster_cfg *c, const st_plant_job *jobs, size_t n,
                                uint64_t seed, double window_s, double network_board_w,
                                st_plant_result *out, st_err *err);

/* As st_plant_run_window_network for a caller that reads the facility's figures (facility_peak,
 * facility_mean, pue, heat, the jobs' power and energy), bit for bit, and leaves out what only
 * the reports read: the waveform's spectrum (wave.dominant_hz, wave.band_share and bare's 0),
 * its series (none), the energy check (phase_energy_j 0) and the junctions (junction_c,
 * max_junction_c and throttle_fraction 0). A sizing search runs the plant for every
 * configuration it ranks, and those were half of each run. */
int st_plant_run_facility(const st_cluster_cfg *c, const st_plant_job *jobs, size_t n,
                          uint64_t seed, double window_s, double network_board_w,
                          st_plant_result *out, st_err *err);

void st_plant_release(st_plant_result *r);

/* Board power, W, of one GPU g that runs kernels a share u (in [0, 1]) of the time and idles the
 * rest: the plant's activity powers (gpu_power.h), u x compute + (1 - u) x idle. */
double st_plant_util_w(const st_gpu_spec *g, double u);

/* The facility figure of cluster c under a steady load (steady.c): its racks drawing rack_board_w
 * of board power in all, spread evenly over them (the nodes' base power and their GPUs'), and the
 * network network_board_w beside them, both through the PSUs; then every part as the plant
 * derives it at the mean: each rack's distribution loss, the transformers, the UPS on that load
 * (an unstated rating sized to it) and the cooling plant on the racks', the network's and the
 * electrical rooms' heat. No storage. The cluster run's energy reads it at its mean load. */
void st_plant_facility_steady(const st_cluster_cfg *c, double rack_board_w, double network_board_w,
                              st_plant_facility *out);
/* The same, and the heat the cooling plant rejects for it into *heat (st_plant_heat). */
void st_plant_facility_steady_heat(const st_cluster_cfg *c, double rack_board_w,
                                   double network_board_w, st_plant_facility *out,
                                   st_plant_heat *heat);

#endif
