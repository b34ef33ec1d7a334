/* A job's thermal neighbourhood from the racks its neighbours ran in (rack_jobs.h): on random
 * placements, running sets and services beside them, the jobs it finds hold st_plant_coupled's
 * set over every running job, and st_plant_coupled over them alone gives that set, in order. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "models/forecast/forecast.h"
#include "models/forecast/rack_jobs.h"
#include "models/plant/plant.h"
#include "models/plant/thermal.h"
#include "scenarios/catalog.h"
#include "scenarios/scenario.h"

enum { NODES = 30, GPN = 8, JOBS = 24, SERVICES = 3, MAX_GPUS = 6 * GPN, TRIALS = 200 };

static uint64_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

static st_cluster_cfg cluster(void)
{
    st_cluster_cfg c = {0};
    c.gpu = st_catalog_gpu("h100-sxm");
    c.nodes = NODES;
    c.gpus_per_node = GPN;
    c.racks = (st_rack_cfg){.nodes_per_rack = 3, .cooling = ST_COOLING_AIR};
    return c;
}

/* n_gpus GPUs of whole nodes drawn at random (scattered, not sorted), into g. */
static int64_t draw(uint64_t *s, int64_t *g)
{
    int64_t nodes = 1 + (int64_t)(next(s) % 6), n = 0;
    for (int64_t k = 0; k < nodes; k++) {
        int64_t node = (int64_t)(next(s) % NODES);
        for (int64_t i = 0; i < GPN; i++)
            g[n++] = node * GPN + i;
    }
    return n;
}

/* Job j's plant entries into out as the throttle builds them, by st_forecast_plant_jobs itself:
 * one, or on a cluster of pools one for each run of its GPUs in one pool; each entry's step is
 * step (the forecast here is a local). */
static size_t parts_of(const st_cluster_cfg *c, const st_step_result *step, int64_t *g, int64_t n,
                       size_t id, st_plant_job *out)
{
    static const int64_t across = 0; /* any pool_gpus: the job is told across pools */
    st_workload_cfg w = {.gpus = n, .pool_gpus = c->n_pools > 0 ? &across : NULL};
    st_forecast f = {.w = &w, .gpus = g, .clock = 1};
    size_t m = st_forecast_plant_jobs(c, &f, id, out);
    for (size_t k = 0; k < m; k++)
        out[k].step = step;
    return m;
}

/* TRIALS random placements, running sets, stops, restarts and services on c; each target's
 * neighbourhood against st_plant_coupled over every running job. Returns the trials whose
 * target had a neighbour. */
static int trials(const st_cluster_cfg *c, uint64_t s)
{
    static int64_t gpus[JOBS + SERVICES][MAX_GPUS];
    static st_plant_job all[(JOBS + SERVICES) * MAX_GPUS], near_jobs[(JOBS + SERVICES) * MAX_GPUS];
    int64_t n_gpus[JOBS + SERVICES];
    st_step_result step = {.step_time_s = 1};
    int tested = 0;
    for (int trial = 0; trial < TRIALS; trial++) {
        st__rack_jobs r;
        st__rack_jobs_init(&r, c, JOBS);
        for (int j = 0; j < JOBS + SERVICES; j++)
            n_gpus[j] = draw(&s, gpus[j]);
        int running[JOBS];
        for (int j = 0; j < JOBS; j++) {
            running[j] = next(&s) % 3 != 0;
            if (running[j] || next(&s) % 2)
                st__rack_jobs_add(&r, c, (size_t)j, gpus[j], n_gpus[j]);
        }
        /* Some stop (leaving their racks' lists, as the cluster run's stop hook does), and some
         * of those start again (rejoining the racks of their first GPUs). */
        for (int j = 0; j < JOBS; j++)
            if (!running[j] && next(&s) % 2) {
                st__rack_jobs_remove(&r, (size_t)j);
                if (next(&s) % 2) { /* its GPUs passed again, as each start passes them */
                    st__rack_jobs_add(&r, c, (size_t)j, gpus[j], n_gpus[j]);
                    running[j] = 1;
                }
            }
        st_plant_job steady[SERVICES];
        size_t ns = next(&s) % (SERVICES + 1);
        for (size_t k = 0; k < ns; k++)
            steady[k] = (st_plant_job){&step, gpus[JOBS + k], n_gpus[JOBS + k], 1000 + k, 1, 1};
        size_t target = next(&s) % JOBS;
        st__rack_jobs_add(&r, c, target, gpus[target], n_gpus[target]);
        /* Every running job and the target, in order, then the services: as the throttle
         * builds them. */
        size_t n_all = 0, me = 0, mine = 0;
        for (int j = 0; j < JOBS; j++)
            if (running[j] || (size_t)j == target) {
                size_t m = parts_of(c, &step, gpus[j], n_gpus[j], (size_t)j, all + n_all);
                if ((size_t)j == target)
                    me = n_all, mine = m;
                n_all += m;
            }
        for (size_t k = 0; k < ns; k++)
            all[n_all++] = steady[k];
        size_t near[JOBS];
        size_t n_near = st__rack_jobs_closure(&r, c, target, running, steady, ns, near);
        unsigned char in_near[JOBS] = {0};
        for (size_t k = 0; k < n_near; k++)
            in_near[near[k]] = 1;
        ck_assert(in_near[target]);
        size_t m = 0, me_near = 0;
        for (int j = 0; j < JOBS; j++)
            if (in_near[j]) {
                ck_assert(running[j] || (size_t)j == target);
                if ((size_t)j == target)
                    me_near = m;
                m += parts_of(c, &step, gpus[j], n_gpus[j], (size_t)j, near_jobs + m);
            }
        for (size_t k = 0; k < ns; k++)
            near_jobs[m++] = steady[k];
        size_t kept_all = st_plant_coupled(c, all, n_all, &me, mine);
        size_t kept_near = st_plant_coupled(c, near_jobs, m, &me_near, mine);
        ck_assert_uint_eq(kept_near, kept_all);
        ck_assert_uint_eq(me_near, me);
        for (size_t k = 0; k < kept_all; k++) {
            ck_assert_uint_eq(near_jobs[k].id, all[k].id);
            ck_assert_int_eq(near_jobs[k].n_gpus, all[k].n_gpus);
        }
        tested += kept_all > mine;
        /* a second closure after the first finds the same jobs: its scratch was cleared */
        size_t again[JOBS];
        ck_assert_uint_eq(st__rack_jobs_closure(&r, c, target, running, steady, ns, again), n_near);
        ck_assert_int_eq(memcmp(again, near, n_near * sizeof *near), 0);
        st__rack_jobs_release(&r);
    }
    return tested;
}

START_TEST(test_the_neighbourhood_holds_the_coupled_set_and_gives_it)
{
    st_cluster_cfg c = cluster();
    ck_assert_int_gt(trials(&c, 7), TRIALS / 4); /* the trials did couple jobs */
}
END_TEST

/* The same on two pools of other GPU types, each with racks of its own size: a job across
 * both is one plant entry a pool, its racks those of every entry. */
START_TEST(test_the_neighbourhood_holds_across_pools_and_their_racks)
{
    static const char yaml[] =
        "version: 1\nname: pools\ncluster:\n  pools:\n"
        "    - { name: a, gpu: h100-sxm, nodes: 12, racks: { nodes_per_rack: 4 } }\n"
        "    - { name: b, gpu: b200, nodes: 18, racks: { nodes_per_rack: 3, cooling: { kind: air } "
        "} }\n"
        "  gpus_per_node: 8\n"
        "workloads:\n  - { name: j, model: llama3-8b, seq_len: 4096, global_batch: 8, gpus: 8,\n"
        "      pool: a, parallel: { tp: 1, pp: 1, dp: 8, zero: 1, microbatch: 1 }, steps: 10 }\n";
    st_scn *scn = NULL;
    st_diag d = {0};
    ck_assert_int_eq(st_scn_load_buffer("pools.yaml", yaml, strlen(yaml), &scn, &d), 0);
    const st_cluster_cfg *c = st_scn_cluster(scn);
    ck_assert_int_eq(c->n_pools, 2);
    ck_assert_int_eq(c->nodes, NODES);
    ck_assert_int_gt(trials(c, 11), TRIALS / 4);
    st_scn_free(scn);
}
END_TEST

/* A job indexed twice keeps its first racks; a job with no neighbour running is alone. */
START_TEST(test_a_job_is_indexed_once_and_alone_without_running_neighbours)
{
    st_cluster_cfg c = cluster();
    int64_t a[GPN], b[GPN];
    for (int i = 0; i < GPN; i++) {
        a[i] = i;           /* node 0, rack 0 */
        b[i] = 3 * GPN + i; /* node 3, rack 1 */
    }
    st__rack_jobs r;
    st__rack_jobs_init(&r, &c, 2);
    st__rack_jobs_add(&r, &c, 0, a, GPN);
    st__rack_jobs_add(&r, &c, 0, b, GPN); /* ignored: job 0 is indexed at rack 0 */
    st__rack_jobs_add(&r, &c, 1, a, GPN);
    ck_assert_uint_eq(r.n_racks_of[0], 1);
    ck_assert_int_eq(r.racks[0][0], 0);
    int running[2] = {0, 0};
    size_t out[2];
    ck_assert_uint_eq(st__rack_jobs_closure(&r, &c, 0, running, NULL, 0, out), 1);
    running[1] = 1;
    ck_assert_uint_eq(st__rack_jobs_closure(&r, &c, 0, running, NULL, 0, out), 2);
    ck_assert_uint_eq(out[1], 1);
    st__rack_jobs_release(&r);
}
END_TEST

/* A rack's list after removals from its middle: the job swapped into a leaver's place can
 * itself leave, and a job that left is not met until it starts again. */
START_TEST(test_jobs_leave_their_racks_and_rejoin_them)
{
    st_cluster_cfg c = cluster();
    enum { N = 4 };
    int64_t g[N][2 * GPN];
    for (int j = 0; j < N; j++)
        for (int i = 0; i < 2 * GPN; i++) /* nodes 0 and 3 (racks 0 and 1) for every job */
            g[j][i] = (i < GPN ? 0 : 3 * GPN) + i % GPN;
    st__rack_jobs r;
    st__rack_jobs_init(&r, &c, N);
    for (int j = 0; j < N; j++)
        st__rack_jobs_add(&r, &c, (size_t)j, g[j], 2 * GPN);
    ck_assert_uint_eq(r.n_in[0], N);
    st__rack_jobs_remove(&r, 1); /* job 3 moves into its place */
    st__rack_jobs_remove(&r, 3);
    st__rack_jobs_remove(&r, 3); /* twice: nothing */
    ck_assert_uint_eq(r.n_in[0], 2);
    ck_assert_uint_eq(r.n_in[1], 2);
    int running[N] = {1, 1, 1, 1}; /* a job out of the lists is not met, whatever this says */
    size_t out[N];
    ck_assert_uint_eq(st__rack_jobs_closure(&r, &c, 0, running, NULL, 0, out), 2);
    ck_assert_uint_eq(out[1], 2);
    st__rack_jobs_add(&r, &c, 3, NULL, 0); /* it starts again, on its first racks */
    ck_assert_uint_eq(st__rack_jobs_closure(&r, &c, 0, running, NULL, 0, out), 3);
    st__rack_jobs_remove(&r, 0);
    st__rack_jobs_remove(&r, 2);
    st__rack_jobs_remove(&r, 3);
    ck_assert_uint_eq(r.n_in[0], 0);
    ck_assert_uint_eq(r.n_in[1], 0);
    st__rack_jobs_release(&r);
}
END_TEST

Suite *rack_jobs_suite(void)
{
    Suite *s = suite_create("rack_jobs");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_the_neighbourhood_holds_the_coupled_set_and_gives_it);
    tcase_add_test(tc, test_the_neighbourhood_holds_across_pools_and_their_racks);
    tcase_add_test(tc, test_a_job_is_indexed_once_and_alone_without_running_neighbours);
    tcase_add_test(tc, test_jobs_leave_their_racks_and_rejoin_them);
    suite_add_tcase(s, tc);
    return s;
}
