/* The sizing search's budgets beside power and GPUs (racks, capex, TCO per year), failures in the
 * time to train (Daly's expected wall time, planner/size_life.c) and the hardware variants it
 * searches (GPU type, fabric), on Llama 3 8B and up to four H100 nodes. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models/cost/cost.h"
#include "planner/size.h"
#include "scenarios/catalog.h"
#include "scenarios/scenario.h"

#define CLOSE(a, b) ck_assert_double_lt(fabs((a) - (b)), 1e-9 * fabs(b) + 1e-9)

/* One rack a node, so the rack budget is a node budget. */
static const char base[] = "version: 1\n"
                           "name: size-budgets\n"
                           "cluster: { gpu: h100-sxm, nodes: 4, racks: { nodes_per_rack: 1 } }\n"
                           "workloads:\n"
                           "  - name: train\n"
                           "    model: llama3-8b\n"
                           "    seq_len: 4096\n"
                           "    global_batch: 64\n"
                           "    gpus: 8\n"
                           "    parallel: { tp: 1, pp: 1, dp: 8, zero: 1, microbatch: 1 }\n"
                           "    tokens: 2B\n";

static st_scn *load(const char *extra)
{
    char buf[2048];
    snprintf(buf, sizeof buf, "%s%s", base, extra);
    st_scn *s = NULL;
    st_diag d = {0};
    ck_assert_int_eq(st_scn_load_buffer("size.yaml", buf, strlen(buf), &s, &d), 0);
    return s;
}

static st_size_result run(const st_scn *s, st_size_spec spec)
{
    if (!spec.deadline_s)
        spec.deadline_s = 30 * 86400.0;
    st_size_result r;
    st_err err = {0};
    ck_assert_int_eq(st_size_search(st_scn_cluster(s), st_scn_workload(s, 0), &spec, &r, &err), 0);
    ck_assert_uint_gt(r.n, 0);
    return r;
}

/* Racks: with one node a rack and a budget of two racks, the sizes are 1 and 2 nodes only: 4
 * nodes, which alone meet 2 h (1.5 h), are not searched, so nothing is feasible; with 4 racks
 * the answer is 4 nodes, and the racks bind it (4 of 4). */
START_TEST(test_rack_budget_binds)
{
    st_scn *s = load("");
    st_size_result r = run(s, (st_size_spec){.racks = 2, .deadline_s = 7200});
    ck_assert_int_eq(r.candidates, 2);
    for (size_t i = 0; i < r.n; i++) {
        const st_size_cfg *f = &r.cfg[i];
        ck_assert_int_eq(f->racks, f->nodes);
        ck_assert_int_le(f->nodes, 2);
        ck_assert(!f->feasible);
    }
    st_size_release(&r);
    r = run(s, (st_size_spec){.racks = 4, .deadline_s = 7200});
    ck_assert(r.cfg[0].feasible);
    ck_assert_int_eq(r.cfg[0].nodes, 4);
    ck_assert_int_eq(r.cfg[0].binds, ST_BIND_RACKS);
    st_size_release(&r);
    st_scn_free(s);
}
END_TEST

/* Cooling: the heat to reject (plant.h st_plant_heat), in all and on air. With a budget a fifth
 * over the most heat a one-node row rejects, and a deadline one node misses, the larger rows are
 * over it and bind cooling; the heat is the plant's own figure, air and liquid summed. */
START_TEST(test_cooling_budget_binds)
{
    st_scn *s = load("");
    st_size_result r = run(s, (st_size_spec){.cooling_w = 1e12, .deadline_s = 1e-3});
    double one = 0, t1 = INFINITY;
    for (size_t i = 0; i < r.n; i++) {
        const st_size_cfg *f = &r.cfg[i];
        ck_assert(f->powered); /* a cooling budget runs the plant, as a power budget does */
        CLOSE(f->heat.total_w, f->heat.air_w + f->heat.liquid_w);
        ck_assert(f->heat.air_w > 0);
        if (f->nodes == 1) {
            one = fmax(one, f->heat.total_w);
            t1 = fmin(t1, f->train_s);
        }
    }
    st_size_release(&r);
    for (int air = 0; air < 2; air++) {
        st_size_spec sp = {.deadline_s = 0.6 * t1};
        *(air ? &sp.air_cooling_w : &sp.cooling_w) = 1.2 * one;
        r = run(s, sp);
        size_t over = 0;
        for (size_t i = 0; i < r.n; i++) {
            const st_size_cfg *f = &r.cfg[i];
            ck_assert(!f->feasible);
            if (f->nodes >= 2) {
                ck_assert(!f->front);
                over += f->binds == ST_BIND_COOLING;
            }
        }
        ck_assert_uint_gt(over, 0);
        ck_assert_str_eq(st_size_bind_name(ST_BIND_COOLING), "cooling");
        st_size_release(&r);
    }
    st_scn_free(s);
}
END_TEST

/* The audit's junction limit: each row carries its hottest junction, the plant's (models/plant),
 * which differs between plans; a limit between the coolest and the hottest row rules none out and
 * moves none (an operator cools the racks, not the plan: planner/size.h), the report names them. */
START_TEST(test_junction_limit_ranks_nothing_out)
{
    st_scn *s = load("");
    st_size_result r = run(s, (st_size_spec){.deadline_s = 7200});
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < r.n; i++) {
        ck_assert(isfinite(r.cfg[i].junction_c) && r.cfg[i].junction_c > 20);
        lo = fmin(lo, r.cfg[i].junction_c);
        hi = fmax(hi, r.cfg[i].junction_c);
    }
    ck_assert_double_gt(hi - lo, 0.5);
    st_size_result l =
        run(s, (st_size_spec){.deadline_s = 7200, .junction_limit_c = 0.5 * (lo + hi)});
    ck_assert_uint_eq(l.n, r.n);
    for (size_t i = 0; i < r.n; i++) {
        ck_assert(l.cfg[i].junction_c == r.cfg[i].junction_c);
        ck_assert(l.cfg[i].feasible == r.cfg[i].feasible && l.cfg[i].binds == r.cfg[i].binds);
        ck_assert(l.cfg[i].gpus == r.cfg[i].gpus && l.cfg[i].tp == r.cfg[i].tp &&
                  l.cfg[i].mb == r.cfg[i].mb && l.cfg[i].pp == r.cfg[i].pp);
    }
    st_size_release(&l);
    st_size_release(&r);
    st_scn_free(s);
}
END_TEST

/* Capex: nodes at 250,000 USD and switches at 20,000 USD; a budget under four nodes' price. */
START_TEST(test_capex_budget_binds)
{
    st_scn *s = load("cost: { delivery: cloud, gpu_hour_price: 2 USD/h, node_price: 250000 USD, "
                     "switch_price: 20000 USD }\n");
    st_size_result r =
        run(s, (st_size_spec){.capex_usd = 900000, .cost = st_scn_cost(s), .deadline_s = 7200});
    int four = 0;
    for (size_t i = 0; i < r.n; i++) {
        const st_size_cfg *f = &r.cfg[i];
        ck_assert_double_ge(f->capex_usd, 250000.0 * (double)f->nodes);
        ck_assert_double_eq(fmod(f->capex_usd - 250000.0 * (double)f->nodes, 20000), 0);
        ck_assert_int_eq(f->feasible, f->capex_usd <= 900000 && f->train_s <= 7200);
        if (f->nodes == 4 && f->train_s <= 7200) {
            four++;
            ck_assert_int_eq(f->binds, ST_BIND_CAPEX);
        }
    }
    ck_assert_int_gt(four, 0);
    st_size_release(&r);
    st_scn_free(s);
}
END_TEST

/* TCO a year: rented at 2 USD/h, g GPUs cost g x 17,520 USD a year; a budget of one node's. */
START_TEST(test_tco_budget_binds)
{
    st_scn *s = load("cost: { delivery: cloud, gpu_hour_price: 2 USD/h }\n");
    st_size_result r =
        run(s, (st_size_spec){.tco_usd_per_year = 8 * 17520.0 + 1, .cost = st_scn_cost(s)});
    for (size_t i = 0; i < r.n; i++) {
        const st_size_cfg *f = &r.cfg[i];
        CLOSE(f->per_year_usd, (double)f->gpus * 17520.0);
        if (f->nodes > 1) {
            ck_assert(!f->feasible);
            ck_assert_int_eq(f->binds, ST_BIND_TCO);
        }
    }
    ck_assert(r.cfg[0].feasible && r.cfg[0].nodes == 1);
    st_size_release(&r);
    st_scn_free(s);
}
END_TEST

/* GPU failures without checkpoints: every interruption restarts the work, so the time to train
 * is Daly's M e^(R/M) (e^(W/M) - 1) with M = MTBF / GPUs and R = detect + restart. */
START_TEST(test_failures_without_checkpoints)
{
    st_scn *s = load("failures: { gpu: { mtbf: 50000 h }, detect: 1 min, restart: 4 min }\n");
    st_size_result r = run(s, (st_size_spec){.failures = st_scn_failures(s)});
    for (size_t i = 0; i < r.n; i++) {
        const st_size_cfg *f = &r.cfg[i];
        double M = 50000 * 3600.0 / (double)f->gpus, R = 300, W = f->work_s;
        CLOSE(f->train_s, M * exp(R / M) * (exp(W / M) - 1));
        ck_assert_double_lt(f->goodput, 1);
        ck_assert_double_eq(f->ckpt_every_s, 0);
    }
    st_size_release(&r);
    st_scn_free(s);
}
END_TEST

/* With a checkpoint tier the search picks a cadence and trains sooner than without; without
 * failures the time to train is the work. */
static const char ckpt[] =
    "version: 1\n"
    "name: size-ckpt\n"
    "cluster:\n"
    "  gpu: h100-sxm\n"
    "  nodes: 4\n"
    "  storage: [ { name: fs, kind: parallel-fs, read: 50 GB/s, write: 20 GB/s } ]\n"
    "workloads:\n"
    "  - name: train\n"
    "    model: llama3-8b\n"
    "    seq_len: 4096\n"
    "    global_batch: 64\n"
    "    gpus: 8\n"
    "    parallel: { tp: 1, pp: 1, dp: 8, zero: 1, microbatch: 1 }\n"
    "    tokens: 2B\n"
    "    checkpoint: { every: 1 h, mode: sync, tier: fs }\n"
    "failures: { gpu: { mtbf: 2000 h }, detect: 1 min, restart: 4 min }\n";

START_TEST(test_failures_with_checkpoints)
{
    st_scn *s = NULL;
    st_diag d = {0};
    ck_assert_int_eq(st_scn_load_buffer("ckpt.yaml", ckpt, strlen(ckpt), &s, &d), 0);
    st_scn *bare = load("failures: { gpu: { mtbf: 2000 h }, detect: 1 min, restart: 4 min }\n");
    st_size_result r = run(s, (st_size_spec){.failures = st_scn_failures(s)});
    st_size_result b = run(bare, (st_size_spec){.failures = st_scn_failures(bare)});
    st_size_result n = run(s, (st_size_spec){0});
    ck_assert_int_gt(r.cadences, (int64_t)r.n); /* several cadences per plan */
    for (size_t i = 0; i < r.n; i++) {
        ck_assert_double_gt(r.cfg[i].ckpt_every_s, 0);
        ck_assert_double_gt(r.cfg[i].train_s, r.cfg[i].work_s);
    }
    ck_assert_double_lt(r.cfg[0].train_s, b.cfg[0].train_s);
    for (size_t i = 0; i < n.n; i++)
        ck_assert_double_eq(n.cfg[i].train_s, n.cfg[i].work_s);
    st_size_release(&r);
    st_size_release(&b);
    st_size_release(&n);
    st_scn_free(s);
    st_scn_free(bare);
}
END_TEST

/* Fail-slow nodes (cluster.variability.slow_nodes) cost every plan time to train: each stopped
 * more often and down longer, as the life model runs them (docs/models/stragglers.md); the
 * steps are unchanged. */
START_TEST(test_slow_nodes_lengthen_every_row)
{
    char slow[sizeof ckpt + 128];
    const char *at = strstr(ckpt, "  storage:");
    ck_assert_ptr_nonnull(at);
    snprintf(slow, sizeof slow,
             "%.*s  variability: { slow_nodes: { every: 500 h, slowdown: 50%%, "
             "detect: 1 h } }\n%s",
             (int)(at - ckpt), ckpt, at);
    st_scn *s = NULL, *v = NULL;
    st_diag d = {0};
    ck_assert_int_eq(st_scn_load_buffer("ckpt.yaml", ckpt, strlen(ckpt), &s, &d), 0);
    ck_assert_msg(st_scn_load_buffer("slow.yaml", slow, strlen(slow), &v, &d) == 0, "%s",
                  d.n ? d.items[0].msg : "?");
    st_size_result r = run(s, (st_size_spec){.failures = st_scn_failures(s)});
    st_size_result q = run(v, (st_size_spec){.failures = st_scn_failures(v)});
    size_t same = 0; /* the rows of one plan in both searches (the sizes probed may differ) */
    for (size_t i = 0; i < q.n; i++)
        for (size_t j = 0; j < r.n; j++) {
            const st_size_cfg *a = &q.cfg[i], *b = &r.cfg[j];
            if (a->gpus != b->gpus || a->tp != b->tp || a->pp != b->pp || a->vs != b->vs ||
                a->mb != b->mb || a->recompute != b->recompute)
                continue;
            ck_assert_double_eq(a->step_s, b->step_s);
            ck_assert_double_gt(a->train_s, b->train_s);
            same++;
        }
    ck_assert_uint_gt(same, 0);
    st_size_release(&r);
    st_size_release(&q);
    st_scn_free(s);
    st_scn_free(v);
}
END_TEST

/* Two GPU types: rows of both; the H200's larger memory fits plans the H100's does not. */
START_TEST(test_gpu_types_are_searched)
{
    st_scn *s = load("");
    st_size_variant v[2] = {{.gpu = st_catalog_gpu("h100-sxm")},
                            {.gpu = st_catalog_gpu("h200-sxm")}};
    ck_assert_ptr_nonnull(v[1].gpu);
    st_size_result one = run(s, (st_size_spec){.variants = v, .n_variants = 1});
    st_size_result two = run(s, (st_size_spec){.variants = v, .n_variants = 2});
    size_t seen[2] = {0};
    for (size_t i = 0; i < two.n; i++)
        seen[two.cfg[i].variant]++;
    ck_assert_uint_eq(seen[0], one.n);
    ck_assert_uint_gt(seen[1], one.n);
    ck_assert_int_eq(two.considered, 2 * one.considered);
    st_size_release(&one);
    st_size_release(&two);
    st_scn_free(s);
}
END_TEST

/* A GPU type of another platform is searched in that platform's nodes: GB200 beside the
 * scenario's 8-GPU H100 nodes comes in trays of 4 GPUs on its 72-GPU NVLink domain (tensor
 * parallelism past 8 GPUs, which the H100 nodes' domain of 8 does not allow, at a deadline that
 * needs tens of GPUs), in racks of 18 trays (an NVL72's, its NVLink domain) where the H100s'
 * hold one node. */
START_TEST(test_gpu_type_on_its_platform)
{
    st_scn *s = load("");
    st_size_variant v[2] = {{.gpu = st_catalog_gpu("h100-sxm")}, {.gpu = st_catalog_gpu("gb200")}};
    st_size_result r = run(s, (st_size_spec){.variants = v, .n_variants = 2, .deadline_s = 3600});
    int64_t tp_most[2] = {0, 0};
    for (size_t i = 0; i < r.n; i++) {
        const st_size_cfg *f = &r.cfg[i];
        int64_t gpn = f->variant ? 4 : 8;
        ck_assert_int_eq(f->gpus, f->nodes * gpn);
        ck_assert_int_eq(f->racks, f->variant ? (f->nodes + 17) / 18 : f->nodes);
        if (f->tp > tp_most[f->variant])
            tp_most[f->variant] = f->tp;
    }
    ck_assert_int_eq(tp_most[0], 8);
    ck_assert_int_gt(tp_most[1], 8);
    st_size_release(&r);
    st_scn_free(s);
}
END_TEST

/* A slow checkpoint tier (2 GB/s) and failures every 200 h a GPU: the checkpoint tier's
 * bandwidth is a variant axis. A faster tier checkpoints and restores sooner, so it trains
 * sooner and the gpu-hours goal picks it; priced high enough, the cost goal picks the slower. */
static const char slow_tier[] =
    "version: 1\n"
    "name: size-storage\n"
    "cluster:\n"
    "  gpu: h100-sxm\n"
    "  nodes: 4\n"
    "  storage: [ { name: fs, kind: parallel-fs, read: 10 GB/s, write: 2 GB/s } ]\n"
    "workloads:\n"
    "  - name: train\n"
    "    model: llama3-8b\n"
    "    seq_len: 4096\n"
    "    global_batch: 64\n"
    "    gpus: 8\n"
    "    parallel: { tp: 1, pp: 1, dp: 8, zero: 1, microbatch: 1 }\n"
    "    tokens: 2B\n"
    "    checkpoint: { every: 1 h, mode: sync, tier: fs }\n"
    "failures: { gpu: { mtbf: 200 h }, detect: 1 min, restart: 4 min }\n";

static st_scn *load_tier(const char *cost)
{
    char buf[2048];
    snprintf(buf, sizeof buf, "%s%s", slow_tier, cost);
    st_scn *s = NULL;
    st_diag d = {0};
    ck_assert_int_eq(st_scn_load_buffer("tier.yaml", buf, strlen(buf), &s, &d), 0);
    return s;
}

/* The row of variant v with plan (gpus, tp, pp, mb, recompute none) in r. */
static const st_size_cfg *row_of(const st_size_result *r, size_t v, const st_size_cfg *like)
{
    for (size_t i = 0; i < r->n; i++) {
        const st_size_cfg *f = &r->cfg[i];
        if (f->variant == v && f->gpus == like->gpus && f->tp == like->tp && f->pp == like->pp &&
            f->vs == like->vs && f->mb == like->mb && f->recompute == like->recompute)
            return f;
    }
    ck_abort_msg("no row of variant %zu", v);
    return NULL;
}

START_TEST(test_storage_bandwidth_faster_trains_sooner)
{
    st_scn *s = load_tier("");
    st_size_variant v[2] = {{.ckpt_write_bw = 1e9}, {.ckpt_write_bw = 100e9}};
    st_size_result r =
        run(s, (st_size_spec){.failures = st_scn_failures(s), .variants = v, .n_variants = 2});
    ck_assert_uint_eq(r.cfg[0].variant, 1);
    const st_size_cfg *slow = row_of(&r, 0, &r.cfg[0]);
    ck_assert_double_lt(r.cfg[0].train_s, slow->train_s);
    ck_assert_double_gt(r.cfg[0].goodput, slow->goodput);
    CLOSE(r.cfg[0].work_s, slow->work_s); /* the step is the same: only checkpoints differ */
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

START_TEST(test_storage_bandwidth_priced)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s  storage_bandwidth_price: 1000000 USD/(GB/s)\n", on_prem);
    st_scn *s = load_tier(buf);
    CLOSE(st_scn_cost(s)->storage_bw_usd_per_bps, 1e6 / 1e9);
    st_size_variant v[2] = {{.ckpt_write_bw = 1e9}, {.ckpt_write_bw = 100e9}};
    st_size_spec sp = {.failures = st_scn_failures(s),
                       .variants = v,
                       .n_variants = 2,
                       .goal = ST_SIZE_COST,
                       .cost = st_scn_cost(s)};
    st_size_result r = run(s, sp);
    ck_assert_uint_eq(r.cfg[0].variant, 0); /* 100 GB/s costs 1e8 USD, 1 GB/s 1e6 */
    const st_size_cfg *fast = row_of(&r, 1, &r.cfg[0]);
    ck_assert_double_lt(fast->train_s, r.cfg[0].train_s);
    ck_assert_double_gt(fast->cost_usd, r.cfg[0].cost_usd);
    CLOSE(fast->capex_usd - r.cfg[0].capex_usd, 99e9 * 1e-3);
    st_size_release(&r);
    st_scn_free(s);
}
END_TEST

/* No storage_bandwidth_price: refused under the cost goal, located at the cost: section; the
 * gpu-hours goal does not read it. */
START_TEST(test_storage_bandwidth_needs_price)
{
    st_scn *s = load_tier(on_prem);
    st_size_variant v[1] = {{.ckpt_write_bw = 1e9}};
    st_size_spec sp = {.deadline_s = 30 * 86400.0,
                       .failures = st_scn_failures(s),
                       .variants = v,
                       .n_variants = 1,
                       .goal = ST_SIZE_COST,
                       .cost = st_scn_cost(s)};
    st_size_result r;
    st_err err = {0};
    ck_assert_int_eq(st_size_search(st_scn_cluster(s), st_scn_workload(s, 0), &sp, &r, &err),
                     ST_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.msg, "storage_bandwidth_price"));
    ck_assert_int_eq(err.loc.line, 18); /* the cost: section (its first key) */
    sp.goal = ST_SIZE_GPU_HOURS;
    st_size_result g = run(s, sp);
    st_size_release(&g);
    st_scn_free(s);
}
END_TEST

Suite *size_budgets_suite(void)
{
    Suite *s = suite_create("size_budgets");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_rack_budget_binds);
    tcase_add_test(tc, test_cooling_budget_binds);
    tcase_add_test(tc, test_junction_limit_ranks_nothing_out);
    tcase_add_test(tc, test_capex_budget_binds);
    tcase_add_test(tc, test_tco_budget_binds);
    tcase_add_test(tc, test_failures_without_checkpoints);
    tcase_add_test(tc, test_failures_with_checkpoints);
    tcase_add_test(tc, test_slow_nodes_lengthen_every_row);
    tcase_add_test(tc, test_gpu_types_are_searched);
    tcase_add_test(tc, test_gpu_type_on_its_platform);
    tcase_add_test(tc, test_storage_bandwidth_faster_trains_sooner);
    tcase_add_test(tc, test_storage_bandwidth_priced);
    tcase_add_test(tc, test_storage_bandwidth_needs_price);
    suite_add_tcase(s, tc);
    return s;
}
