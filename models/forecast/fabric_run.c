/* Runs a scenario's collective workloads together on one engine, topology and network. */
#include "models/forecast/fabric_run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/config/pools.h"
#include "models/fabric/fabsim.h"
#include "models/fabric/net.h"
#include "models/fabric/topo.h"
#include "models/place/policy.h"
#include "sim/engine.h"
#include "sim/progress.h"
#include "sim/xalloc.h"

/* What the collectives' iterations report to a progress display: a million iterations of a
 * large collective run for minutes (about 0.3 ms each on the fabric model). */
#define FABRIC_PROGRESS "collective iterations"

/* The iterations every collective workload of the run finished, of their total. */
typedef struct tally {
    int64_t done, total;
} tally;

/* One workload in flight: its ranks, the iterations left, and where its results go. */
typedef struct job {
    tally *all;
    st_coll *cm;
    st_engine *eng;
    st_coll_spec spec;
    int64_t *gpus;
    int64_t left;
    st_coll_result *res;
    st_err *err;
    int failed;
} job;

static double secs(st_time t)
{
    return (double)t / (double)ST_SEC;
}

static void start_iteration(job *j);

static void on_done(void *ctx, uint64_t tag, st_time now)
{
    job *j = ctx;
    (void)tag;
    j->res->end_s = secs(now);
    st_progress(FABRIC_PROGRESS, ++j->all->done, j->all->total);
    if (--j->left > 0)
        start_iteration(j);
}

static void start_iteration(job *j)
{
    if (st_coll_start(j->cm, &j->spec, j->err) < 0) {
        j->failed = 1;
        st_engine_stop(j->eng);
    }
}

static void on_submit(st_engine *eng, void *state, const st_event *ev)
{
    job *j = (job *)state + ev->data.u[0];
    j->res->start_s = secs(st_engine_now(eng));
    start_iteration(j);
}

/* Workload w's ranks on gpus (w->gpus ids, taken over by the job) and the spec of its
 * collective. */
static void setup_job(job *j, const st_workload_cfg *w, int64_t *gpus, uint64_t index)
{
    const st_collective_cfg *cc = &w->collective;
    j->gpus = gpus;
    j->left = cc->iterations;
    j->spec = (st_coll_spec){
        .op = (st_coll_op)cc->op,
        .algo = (st_coll_algo)cc->algo,
        .proto = (st_coll_proto)cc->proto,
        .channels = cc->channels,
        .sync_steps = cc->lockstep,
        .gpus = j->gpus,
        .n = w->gpus,
        .bytes = cc->size_bytes,
        .key = index + 1, /* distinct ECMP identity per workload, fixed across runs */
        .tag = index,
        .done = on_done,
        .ctx = j,
    };
    j->res->w = w;
    j->res->first_gpu = gpus[0];
}

/* Place workload w by the pack policy, each on a fresh node and none past the cluster's end (an
 * nccl-tests job takes whole nodes), and check it plans; 0 or an error located at w. */
static int place_one(st_placer *pack, const st_cluster_cfg *c, const st_workload_cfg *w, job *j,
                     size_t index, st_err *err)
{
    st_place_req req = {.gpus = w->gpus, .whole_nodes = 1};
    int64_t *gpus = st_xmalloc((size_t)w->gpus * sizeof *gpus);
    if (st_placer_place(pack, &req, gpus)) {
        free(gpus);
        return st_err_set(err, ST_EINVAL, w->gpus_loc,
                          "workload '%s': collective workloads need more GPUs together than "
                          "the cluster's %lld (each starts on a fresh node)",
                          w->name, (long long)st_pools_cluster_gpus(c));
    }
    setup_job(j, w, gpus, index);
    if (st_coll_plan_of(j->cm, &j->spec, &j->res->plan, err)) {
        err->loc = w->collective.loc;
        err->loc.file = st_loc_file_keep(err->loc.file); /* the error outlives the scenario */
        return err->code;
    }
    return 0;
}

/* Place every workload and check it plans; 0 or an error located at the workload. */
static int place(const st_cluster_cfg *c, const st_workload_cfg *const *ws, size_t n, job *jobs,
                 st_err *err)
{
    st_placer pack;
    st_placer_init(&pack, st_place_policy_find("pack"), c);
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++)
        rc = place_one(&pack, c, ws[i], &jobs[i], i, err);
    st_placer_release(&pack);
    return rc;
}

static void summarise(job *jobs, size_t n, const st_net *net, st_fabric_result *fab)
{
    memset(fab, 0, sizeof *fab);
    for (size_t i = 0; i < n; i++) {
        st_coll_result *r = jobs[i].res;
        const st_collective_cfg *cc = &r->w->collective;
        r->time_s = (r->end_s - r->start_s) / (double)cc->iterations;
        r->algbw = r->time_s > 0 ? cc->size_bytes / r->time_s : 0;
        r->busbw = r->algbw * r->plan.busbw_factor;
        if (r->end_s > fab->end_s)
            fab->end_s = r->end_s;
    }
    fab->max_utilization = st_net_max_utilization(net);
    for (int l = 0; l < ST_LEVEL__COUNT; l++)
        fab->level_utilization[l] = st_net_level_utilization(net, (st_level)l);
    fab->collisions = st_net_collisions(net);
}

int st_fabric_run(const st_cluster_cfg *c, const st_workload_cfg *const *ws, size_t n,
                  st_coll_result *out, st_fabric_result *fab, st_err *err)
{
    st_topo *topo = NULL;
    int rc = st_topo_new(c, &topo, err);
    if (rc)
        return rc;
    st_fabsim *fs = st_fabsim_new(topo, c);
    st_engine *eng = st_fabsim_engine(fs);
    st_coll *cm = st_fabsim_coll(fs);
    job *jobs = st_xcalloc(n ? n : 1, sizeof *jobs);
    int kind = st_engine_register(eng, "fabric.submit", on_submit, jobs);
    memset(out, 0, n * sizeof *out);
    tally all = {0, 0};
    for (size_t i = 0; i < n; i++) {
        jobs[i] = (job){.all = &all, .cm = cm, .eng = eng, .res = &out[i], .err = err};
        all.total += ws[i]->collective.iterations;
    }
    rc = place(c, ws, n, jobs, err);
    for (size_t i = 0; !rc && i < n; i++) {
        st_payload p = {.u = {i}};
        st_engine_schedule(eng, kind, (st_time)llround(ws[i]->submit_s * 1e9), &p);
    }
    if (!rc) {
        st_progress(FABRIC_PROGRESS, 0, all.total);
        st_engine_run(eng, ST_TIME_MAX);
        if (all.done < all.total) /* a failed start stopped the run: the loop ends */
            st_progress(FABRIC_PROGRESS, all.total, all.total);
    }
    for (size_t i = 0; !rc && i < n; i++)
        if (jobs[i].failed)
            rc = err->code;
    /* A time past the engine's clock was held at its end, not wrapped: no forecast from it. */
    if (!rc && st_net_clamped(st_fabsim_net(fs)))
        rc = st_err_set(err, ST_ERANGE, n ? ws[0]->loc : (st_loc){0},
                        "the collective workloads would run past the simulated clock's range "
                        "(2^63 ns, about 292 years): check the NIC rate, the link latencies and "
                        "the collectives' sizes");
    if (!rc)
        summarise(jobs, n, st_fabsim_net(fs), fab);
    st_fabsim_free(fs);
    st_topo_free(topo);
    for (size_t i = 0; i < n; i++)
        free(jobs[i].gpus);
    free(jobs);
    return rc;
}
