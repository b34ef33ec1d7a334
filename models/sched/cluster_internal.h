/* The cluster run's state, shared by its files: cluster.c (events, starts, preemption, the
 * figures) and cluster_fail.c (component failures and repairs). Internal to models/sched/. */
#ifndef ST_SCHED_CLUSTER_INTERNAL_H
#define ST_SCHED_CLUSTER_INTERNAL_H

#include <math.h>
#include <stdint.h>

#include "models/place/policy.h"
#include "models/place/pool.h"
#include "models/sched/cluster.h"
#include "models/sched/outage.h"
#include "models/sched/policy.h"
#include "models/sched/waitset.h"
#include "sim/engine.h"

enum { J_LATER, J_WAITING, J_RUNNING, J_SAVING, J_FINISHED, J_TOO_BIG };
enum { PRIO_FINISH, PRIO_ARRIVAL, PRIO_DECIDE, PRIO_RATE };

/* A job's run state: two cache lines (JSTATE_ALIGN), every field a finish reads in the first, so
 * that the finish of a job whose state went cold misses once and its start twice (at 144 bytes
 * every job's state straddled three lines). */
typedef struct jstate {
    unsigned state : 8;
    unsigned pending : 1; /* in pending[] */
    unsigned keep : 1;    /* its stretches are recorded (keep_segments) */
    /* Started once: its record in out->job has its first start and wait; held once: its
     * held_s has its first stretch. They spare the common start and finish a read of that
     * record (a cache miss each: it is only written, and read once the run is over). */
    unsigned started : 1;
    unsigned held : 1;
    unsigned on_hold : 1; /* submitted, waiting for its sp->after job's first start */
    unsigned
        fail_paid : 1; /* its last restore paid was a failure's (failed_s), not a preemption's */
    uint32_t run_pos;  /* index in running[] (a run holds fewer than 2^32 jobs, rankset.h) */
    st_time done;      /* work done before the current stretch */
    st_time seg_start, hold_start; /* work resumed; GPUs taken (given back, once it holds none) */
    size_t gpu_off;                /* its GPUs in gpus[] */
    double rate;      /* run time done per second (sp->rate); 1: exact tick arithmetic */
    size_t seg;       /* its open segment (keep) */
    st_time duration; /* < 0: not known until the first start */
    st_time extra;    /* restores paid or being paid, on top of duration */
    st_ev_handle fin;
    st_time owed;      /* the restore its last preemption left to pay at its next start */
    st_time owed_fail; /* restart + restore a failure left to pay at its next start */
    st_time kept;      /* progress its last restorable checkpoint or preemption save holds */
    st_time base;      /* run time at its first placement (sp->retime) */
    double scale;      /* run time at its placement now over base */
    int64_t rel;       /* its GPUs counted in releasing (J_SAVING): those that come back */
} jstate;
#define JSTATE_ALIGN 64

struct st_sched_view {
    const st_cluster_spec *sp;
    st_engine *eng;
    const st_sched_policy *pol;
    void *pst;
    st_placer place;
    st_pool pool;
    st_sched_job *sj;
    jstate *js;
    size_t *running, n_running;
    size_t *order, n_order;
    st_time *arrive;            /* by place in order: its submit time in ticks */
    size_t *pending, n_pending; /* started this instant, run time not known yet */
    int64_t *gpus;
    int k_arrive, k_finish, k_release, k_decide, decide_pending;
    int k_wake, k_unhold;
    size_t *kid_off, *kids; /* sp->after inverted: the jobs held for job j, kids[kid_off[j] ..) */
    int64_t releasing;      /* GPUs of jobs in J_SAVING */
    size_t n_saving;        /* jobs in J_SAVING */
    double busy_gpu_s;
    int requeued;        /* some job started again after a preemption or a failure */
    st__waitset waiting; /* the waiting jobs' GPU counts */
    double frag_gpu_s, frag_now, frag_t; /* fragmentation: its integral, level and since when */
    st_cluster_result *out;
    size_t seg_cap, seg_gpus_cap;
    int rc;
    st_err *err;
    /* Failures and repairs (sp->outages with classes; docs/models/scheduler.md). */
    int has_out, k_fail, k_repair;
    st_outages outs;
    int32_t *owner; /* per GPU: the job holding it + 1, 0: none */
    size_t outage_cap;
    size_t n_left; /* submitted jobs not finished: no failure is drawn once none is left */
    int64_t n_draws, max_draws; /* failure events so far, and the cap (ST_OUTAGE_MAX_FAILURES) */
    int k_rate, rate_pending;   /* cluster.rate, once per instant after a start or a stop */
    int stopped;                /* the engine was asked to stop (st__cl_stop) */
    /* A cluster of several pools (c->n_pools > 1): each pool's free GPUs and placer, on its own
     * nodes numbered from 0 (cluster_pools.c); pool above is the whole cluster's. */
    int n_pools;
    st_pool *pools;
    st_placer *placers;
    int64_t *local; /* scratch: one job's GPUs as its pool numbers them */
    int64_t *pad;   /* per pool: the GPUs of the nodes before it on its first leaf, which its
                       numbering starts with, held for good (cluster_pools.c) */
    /* ... and each pool's scheduler, a partition (cluster_parts.c): the policy's instance over
     * the pool's jobs alone. cur is the one picking now (NULL: the cluster's one instance). */
    struct st__cl_part *parts, *cur;
    size_t *lid;         /* per job: its id in its partition */
    uint32_t *ppos;      /* per running job: its index in its partition's running list */
    int *dirty, n_dirty; /* the partitions an event touched since the last decision */
    int *picking;        /* scratch: the partitions the decision being made picks */
    int64_t frag_sum;    /* the partitions' fragmented GPUs now, summed */
    /* per pool k: the partitions of jobs across pools with a share in k, links[link_off[k] ..
     * link_off[k + 1]), asked again when k is (cluster_parts.c) */
    size_t *link_off;
    int *links;
    int64_t **span_rel; /* per job across pools, its GPUs in each pool's releasing (lazily) */
    /* per pool: the GPUs held for the job across pools refused for want of room (its id + 1 in
     * claimant; 0: none), which that pool's other jobs may not take (cluster_pools.c, hold) */
    int64_t *claim;
    size_t claimant;
};

/* A partition: one pool's scheduler (cluster_parts.c). Its policy instance numbers the pool's
 * jobs from 0, so a policy's id-indexed state stays the pool's size; gid maps them back. */
typedef struct st__cl_part {
    void *pst;
    st_sched_job *sj;           /* its jobs as its policy sees them (local ids) */
    size_t *gid, n;             /* local id -> the run's id; how many */
    size_t *running, n_running; /* its running jobs, local ids */
    int64_t releasing;          /* its GPUs of jobs in J_SAVING */
    st__waitset waiting;        /* its waiting jobs' GPU counts */
    int64_t frag;               /* its free GPUs while each of its waiting jobs asks for more */
    int dirty;                  /* in v->dirty */
    double busy_gpu_s;          /* GPU-seconds its jobs held */
} st__cl_part;

/* The latest time the run holds: 2^62 ns. Submit times and the horizon are at most 2^61 ns
 * (st_lim_run, models/config/limits.h), so a run time or finish past this is never reached; it
 * is held here rather than passed to llround, which gave a negative clock for a 73-year job
 * slowed by its placement (the engine then aborted: "scheduled in the past"). */
#define ST__CL_FAR ((st_time)1 << 62)

/* Seconds to the run's integer nanoseconds (correctly rounded: whole seconds stay whole), held
 * at ST__CL_FAR; and back. */
static inline st_time ticks(double s)
{
    return s * 1e9 < (double)ST__CL_FAR ? (st_time)llround(s * 1e9) : ST__CL_FAR;
}

/* t x f in ticks, held at ST__CL_FAR like ticks(). */
static inline st_time ticks_scaled(st_time t, double f)
{
    double x = (double)t * f;
    return x < (double)ST__CL_FAR ? (st_time)llround(x) : ST__CL_FAR;
}

static inline double secs(st_time t)
{
    return (double)t / 1e9;
}

/* A figure from the preempt_cost hook in ticks: 0 unless positive. */
static inline st_time cost_ticks(double s)
{
    return s > 0 ? ticks(s) : 0;
}

/* The pools' free GPUs and placers (cluster_pools.c): set up for a cluster of several pools
 * (nothing for one), and released. */
void st__cl_pools_init(st_sched_view *v, const st_place_policy *pl);

/* The cluster the whole run's free-GPU pool is built on: c itself, or, where its pools' nodes
 * are of several sizes, *flat, a copy counting its GPUs as nodes of one (every job of such a
 * cluster is placed by its pool's placer: the whole pool keeps the count and the flags). */
const st_cluster_cfg *st__cl_whole(const st_cluster_cfg *c, st_cluster_cfg *flat);
void st__cl_pools_release(st_sched_view *v);
/* Pool k's own GPUs: its free-GPU pool's less the padding its numbering starts with. */
static inline int64_t st__cl_pool_gpus(const st_sched_view *v, int k)
{
    return v->pools[k].total - v->pad[k];
}
/* The GPUs job id may run on: its pool's (the cluster's for one pool). */
int64_t st__cl_room(const st_sched_view *v, size_t id);
/* Pool k's free GPUs less those held for a job across pools: what its policy sees. */
int64_t st__cl_free(const st_sched_view *v, int k);
/* Choose job id's GPUs into g among its pool's free ones: 0, or ST_ERANGE (not now). */
int st__cl_choose(st_sched_view *v, size_t id, int64_t *g);
/* GPUs gpus[0 .. n) held or free again, in the cluster's pool and their pools'. */
void st__cl_take(st_sched_view *v, const int64_t *gpus, int64_t n);
void st__cl_give(st_sched_view *v, const int64_t *gpus, int64_t n);

/* The partitions (cluster_parts.c), on a cluster of several pools (nothing for one): set up
 * with each pool's policy instance configured (0, or configure's error), and released. */
int st__cl_parts_init(st_sched_view *v, st_err *err);
void st__cl_parts_release(st_sched_view *v);
/* Job id's policy instance hears of its arrival or finish; its partition is dirty. */
void st__cl_parts_arrival(st_sched_view *v, size_t id);
void st__cl_parts_finish(st_sched_view *v, size_t id);
/* Job id joins (on = 1) or leaves its partition's running list. */
void st__cl_parts_running(st_sched_view *v, size_t id, int on);
/* Job id starts (+1) or stops (-1) waiting; its GPUs start (rel > 0) or stop saving. */
void st__cl_wait(st_sched_view *v, size_t id, int add);
void st__cl_releasing(st_sched_view *v, size_t id, int64_t rel);
/* GPU gpu of job id, counted in releasing while it saves or is held, fails: it will not come
 * back at the release. */
void st__cl_releasing_gpu(st_sched_view *v, size_t id, int64_t gpu);
/* Partitions an event touched, for the next decision: job id's, those of GPUs [lo, lo + n),
 * partition k's (k < 0: none). */
void st__cl_dirty_job(st_sched_view *v, size_t id);
void st__cl_dirty_gpus(st_sched_view *v, int64_t lo, int64_t n);
void st__cl_dirty_part(st_sched_view *v, int k);
/* Each dirty partition's policy picks (its instance, its pool's counts), and the run's
 * fragmented GPUs are brought up to date. */
void st__cl_parts_pick(st_sched_view *v);
/* Job id gave back its GPUs held for gpu_s GPU-seconds: counted to its pool. */
void st__cl_parts_busy(st_sched_view *v, size_t id, double gpu_s);
/* Each pool's figures into v->out->pool, once the run's are summed (makespan_s). */
void st__cl_parts_stats(st_sched_view *v);
/* Job id's (a policy's id: local in a partition) id in the run. */
static inline size_t st__cl_gid(const st_sched_view *v, size_t id)
{
    return v->cur ? v->cur->gid[id] : id;
}

/* A decision at this instant, once (cluster.c). */
void st__cl_want_decide(st_sched_view *v);
/* The run stops after the event being handled (cluster.c). */
void st__cl_stop(st_sched_view *v);
/* Job id's work stops now: its stretch is closed and counted (cluster.c). */
void st__cl_stop_work(st_sched_view *v, size_t id);
/* Job id's GPUs go back to the pool, those not down (cluster.c). */
void st__cl_give_back(st_sched_view *v, size_t id);
/* GPUs gpus[0 .. n) back to the pool, except those a failure holds down (cluster_fail.c). */
void st__cl_gpus_back(st_sched_view *v, const int64_t *gpus, int64_t n);

/* Job id stopped (a failure or a preemption) u ticks before the end of the restart and restore it
 * paid at its resume (st_sched_start counted them whole, in failed_s or preempted_s): that part
 * never ran, so it is no cost the job paid and no extra work it did (cluster_fail.c). */
void st__cl_unpay(st_sched_view *v, size_t id, st_time u);
/* The failure model's state, cluster.failure and cluster.repair, and each class's first
 * failure; a refused rate sets v->rc (cluster_fail.c). */
void st__cl_start_outages(st_sched_view *v);
/* Release what the failures hold (cluster_fail.c). */
void st__cl_stop_outages(st_sched_view *v);

/* sp->after (cluster_after.c): its inverse into v->kid_off and v->kids (none without it);
 * whether job id, arriving, is held for a job not started yet (then marked on_hold); at job
 * id's first start, an unhold event now for each job held for it; the arrays' release. */
void st__cl_after_setup(st_sched_view *v);
int st__cl_after_holds(st_sched_view *v, size_t id);
void st__cl_after_started(st_sched_view *v, size_t id);
void st__cl_after_release(st_sched_view *v);

#endif
