/* The sizing search's topology axis (`strata size --topologies`, planner/size.c): the fabric's
 * wiring changes the step (rail-optimized keeps a ring's traffic on its rail, off oversubscribed
 * spines) and the switches bought (models/fabric/leaf.h keeps the leaf switch), and the search
 * keeps the better; on Llama 3 8B and H100 nodes. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "planner/size.h"
#include "scenarios/scenario.h"

#define CLOSE(a, b) ck_assert_double_lt(fabs((a) - (b)), 1e-9 * fabs(b) + 1e-9)

/* nodes H100 nodes (8 GPUs and 8 NICs each) on fabric `fabric`, then `extra`. */
static st_scn *load(int nodes, const char *fabric, const char *extra)
{
    char buf[2048];
    snprintf(buf, sizeof buf,
             "version: 1\n"
             "name: size-topology\n"
             "cluster: { gpu: h100-sxm, nodes: %d, fabric: { %s } }\n"
             "workloads:\n"
             "  - name: train\n"
             "    model: llama3-8b\n"
             "    seq_len: 4096\n"
             "    global_batch: 512\n"
             "    gpus: 8\n"
             "    parallel: { tp: 1, pp: 1, dp: 8, zero: 1, microbatch: 1 }\n"
             "    tokens: 20B\n"
             "%s",
             nodes, fabric, extra);
    st_scn *s = NULL;
    st_diag d = {0};
    ck_assert_int_eq(st_scn_load_buffer("topology.yaml", buf, strlen(buf), &s, &d), 0);
    return s;
}

static st_size_result run(const st_scn *s, st_size_spec spec)
{
    st_size_result r;
    st_err err = {0};
    ck_assert_int_eq(st_size_search(st_scn_cluster(s), st_scn_workload(s, 0), &spec, &r, &err), 0);
    ck_assert_uint_gt(r.n, 0);
    return r;
}

/* The row of variant v with like's plan in r, or NULL. */
static const st_size_cfg *row_of(const st_size_result *r, size_t v, const st_size_cfg *like)
{
    for (size_t i = 0; i < r->n; i++) {
        const st_size_cfg *f = &r->cfg[i];
        if (f->variant == v && f->gpus == like->gpus && f->tp == like->tp && f->pp == like->pp &&
            f->vs == like->vs && f->mb == like->mb && f->recompute == like->recompute)
            return f;
    }
    return NULL;
}

static const st_size_variant spine_rail[2] = {
    {.set_topology = 1, .topology = ST_TOPO_SPINE_LEAF},
    {.set_topology = 1, .topology = ST_TOPO_RAIL_OPTIMIZED}};

/* Eight nodes over spines at 4:1: under spine-leaf (4 nodes a leaf) a 64-GPU data-parallel ring
 * crosses the oversubscribed spines; rail-optimized (one rail group of 8 nodes) keeps it on the
 * rail leaves. The same plan steps faster on rails, and only 8 nodes meet 8 h, so the answer is
 * the rail-optimized row, its spine-leaf twin ranked below it. */
START_TEST(test_rails_step_faster_and_win)
{
    st_scn *s = load(8, "oversubscription: 4", "");
    st_size_result r =
        run(s, (st_size_spec){.deadline_s = 8 * 3600.0, .variants = spine_rail, .n_variants = 2});
    const st_size_cfg *best = &r.cfg[0];
    ck_assert(best->feasible);
    ck_assert_uint_eq(best->variant, 1);
    ck_assert_int_eq(best->gpus, 64);
    const st_size_cfg *twin = row_of(&r, 0, best);
    ck_assert_ptr_nonnull(twin);
    ck_assert_double_lt(best->step_s, 0.99 * twin->step_s);
    ck_assert_double_lt(best->gpu_hours, twin->gpu_hours);
    ck_assert(twin > best); /* ranked below */
    st_size_release(&r);
    st_scn_free(s);
}
END_TEST

static const char on_prem[] = "cost:\n"
                              "  delivery: on-prem\n"
                              "  node_price: 300000 USD\n"
                              "  switch_price: 30000 USD\n"
                              "  storage_price: 100 USD/TB\n"
                              "  maintenance: 8%\n"
                              "  staff: 0 USD/h\n";

/* Two nodes: under spine-leaf one leaf holds both (1 switch); rail-optimized needs 8 rail leaves
 * and, for the traffic between rails, the model's 2 spines of 8 ports, which one switch of 64
 * holds (9 switches bought: models/fabric/topo.h, st_topo_switches_bought). The step is the same
 * (a ring stays on its rail), so by cost the spine-leaf row wins by eight switches' share of the
 * capex. */
START_TEST(test_rails_cost_more_on_two_nodes)
{
    st_scn *s = load(2, "oversubscription: 1", on_prem);
    st_size_result r = run(s, (st_size_spec){.deadline_s = 30 * 86400.0,
                                             .goal = ST_SIZE_COST,
                                             .cost = st_scn_cost(s),
                                             .variants = spine_rail,
                                             .n_variants = 2,
                                             .unit_nodes = 2}); /* sizes of 2 nodes */
    const st_size_cfg *best = &r.cfg[0];
    ck_assert_uint_eq(best->variant, 0);
    int pairs = 0;
    for (size_t i = 0; i < r.n; i++) {
        const st_size_cfg *f = &r.cfg[i], *rail = row_of(&r, 1, f);
        if (f->variant != 0 || f->nodes != 2 || !rail)
            continue;
        CLOSE(f->capex_usd, 2 * 300000.0 + 1 * 30000.0);
        CLOSE(rail->capex_usd, 2 * 300000.0 + 9 * 30000.0);
        ck_assert_double_gt(rail->cost_usd, f->cost_usd);
        pairs++;
    }
    ck_assert_int_gt(pairs, 0);
    st_size_release(&r);
    st_scn_free(s);
}
END_TEST

/* What binds follows the topology's switches: a capex budget of two nodes and five switches
 * holds the two-node spine-leaf rows (one switch; it may bind them as their least slack) and is
 * what the rail-optimized ones (ten) miss by. */
START_TEST(test_capex_binds_the_rails)
{
    st_scn *s = load(2, "oversubscription: 1", on_prem);
    st_size_result r = run(s, (st_size_spec){.deadline_s = 30 * 86400.0,
                                             .capex_usd = 2 * 300000.0 + 5 * 30000.0,
                                             .goal = ST_SIZE_COST,
                                             .cost = st_scn_cost(s),
                                             .variants = spine_rail,
                                             .n_variants = 2,
                                             .unit_nodes = 2}); /* sizes of 2 nodes */
    int rails = 0, spines = 0;
    for (size_t i = 0; i < r.n; i++) {
        const st_size_cfg *f = &r.cfg[i];
        if (f->nodes != 2)
            continue;
        if (f->variant == 1) {
            ck_assert(!f->feasible);
            ck_assert_int_eq(f->binds, ST_BIND_CAPEX);
            rails++;
        } else {
            ck_assert(f->capex_usd <= 2 * 300000.0 + 5 * 30000.0);
            ck_assert(f->binds != ST_BIND_CAPEX || f->feasible); /* its least slack at most */
            spines += f->feasible;
        }
    }
    ck_assert_int_gt(rails, 0);
    ck_assert_int_gt(spines, 0);
    st_size_release(&r);
    st_scn_free(s);
}
END_TEST

/* A topology searched from a spine-leaf scenario is the cluster a scenario written with that
 * topology loads: the same switches (capex) and the same step for every plan. Keeping the
 * spine-leaf default of 4 nodes a leaf under rails would buy 16 rail leaves of 4 ports down and
 * a spine, 17 switches where the rail-optimized scenario has 10. */
START_TEST(test_searched_topology_is_the_written_one)
{
    const char *prices = "cost: { delivery: cloud, gpu_hour_price: 2 USD/h, node_price: 300000 "
                         "USD, switch_price: 30000 USD }\n";
    st_scn *a = load(8, "oversubscription: 4", prices);
    st_scn *b = load(8, "oversubscription: 4, topology: rail-optimized", prices);
    st_size_result ra = run(a, (st_size_spec){.deadline_s = 8 * 3600.0,
                                              .cost = st_scn_cost(a),
                                              .variants = &spine_rail[1],
                                              .n_variants = 1});
    st_size_result rb = run(b, (st_size_spec){.deadline_s = 8 * 3600.0, .cost = st_scn_cost(b)});
    ck_assert_uint_eq(ra.n, rb.n);
    for (size_t i = 0; i < rb.n; i++) {
        const st_size_cfg *f = row_of(&ra, 0, &rb.cfg[i]);
        ck_assert_ptr_nonnull(f);
        CLOSE(f->capex_usd, rb.cfg[i].capex_usd);
        CLOSE(f->step_s, rb.cfg[i].step_s);
    }
    const st_size_cfg *eight = NULL;
    for (size_t i = 0; i < rb.n && !eight; i++)
        eight = rb.cfg[i].nodes == 8 ? &rb.cfg[i] : NULL;
    ck_assert_ptr_nonnull(eight);
    CLOSE(eight->capex_usd, 8 * 300000.0 + 9 * 30000.0); /* 8 rail leaves, 1 spine switch */
    st_size_release(&ra);
    st_size_release(&rb);
    st_scn_free(a);
    st_scn_free(b);
}
END_TEST

Suite *size_topology_suite(void)
{
    Suite *s = suite_create("size_topology");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_rails_step_faster_and_win);
    tcase_add_test(tc, test_rails_cost_more_on_two_nodes);
    tcase_add_test(tc, test_capex_binds_the_rails);
    tcase_add_test(tc, test_searched_topology_is_the_written_one);
    suite_add_tcase(s, tc);
    return s;
}
