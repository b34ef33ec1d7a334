/* The sizing search (planner/size.c) on Llama 3 8B and up to four H100 nodes: a plan over the
 * GPU's memory is pruned before the step model, the answer meets the deadline, the front is
 * non-dominated, a power budget binds the larger sizes, and no size above the smallest that
 * meets the deadline is searched. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "models/silicon/parallel.h"
#include "planner/size.h"
#include "scenarios/scenario.h"

static const char yaml[] = "version: 1\n"
                           "name: size-8b\n"
                           "cluster: { gpu: h100-sxm, nodes: 4 }\n"
                           "workloads:\n"
                           "  - name: train\n"
                           "    model: llama3-8b\n"
                           "    seq_len: 4096\n"
                           "    global_batch: 64\n"
                           "    gpus: 8\n"
                           "    parallel: { tp: 1, pp: 1, dp: 8, zero: 1, microbatch: 1 }\n"
                           "    tokens: 2B\n";

static st_scn *load(void)
{
    st_scn *s = NULL;
    st_diag d = {0};
    ck_assert_int_eq(st_scn_load_buffer("size.yaml", yaml, strlen(yaml), &s, &d), 0);
    return s;
}

/* Rented GPUs at 2 USD an hour: a price that does not count energy. */
static const st_cost_cfg cloud = {.delivery = ST_DELIVERY_CLOUD, .gpu_hour_usd_per_s = 2 / 3600.0};

static st_size_result search_rows(const st_scn *s, double deadline_s, double power_w, size_t rows,
                                  const st_cost_cfg *cost)
{
    st_size_spec spec = {.deadline_s = deadline_s,
                         .power_w = power_w,
                         .goal = cost ? ST_SIZE_COST : ST_SIZE_GPU_HOURS,
                         .cost = cost,
                         .rows = rows};
    st_size_result r;
    st_err err = {0};
    ck_assert_int_eq(st_size_search(st_scn_cluster(s), st_scn_workload(s, 0), &spec, &r, &err), 0);
    ck_assert_uint_gt(r.n, 0);
    return r;
}

static st_size_result search(const st_scn *s, double deadline_s, double power_w)
{
    return search_rows(s, deadline_s, power_w, 0, NULL);
}

/* The 8B job with failures, a tier and two-level checkpoints. */
static const char yaml_ckpt[] =
    "version: 1\n"
    "name: size-8b-ckpt\n"
    "cluster:\n"
    "  gpu: h100-sxm\n"
    "  nodes: 4\n"
    "  storage: [ { name: t, kind: nvme-of, read: 40 GB/s, write: 20 GB/s, latency: 1 ms } ]\n"
    "workloads:\n"
    "  - name: train\n"
    "    model: llama3-8b\n"
    "    seq_len: 4096\n"
    "    global_batch: 64\n"
    "    gpus: 8\n"
    "    parallel: { tp: 1, pp: 1, dp: 8, zero: 1, microbatch: 1 }\n"
    "    tokens: 2B\n"
    "    checkpoint: { every: auto, mode: async, tier: t, memory: { every: auto } }\n"
    "failures: { gpu: { mtbf: 2000 h }, node: { mtbf: 2000 h }, leaf_switch: { mtbf: 500 h },\n"
    "            detect: 1 min, restart: 5 min }\n";

START_TEST(test_both_cadences_are_searched)
{
    /* Every simulated plan weighs pairs of cadences: at least the in-memory optimum, one step
     * and ten steps, each with the persistent optimum and the five fixed ones; the answer names
     * both, the persistent one a whole number of in-memory ones. */
    st_scn *s = NULL;
    st_diag d = {0};
    ck_assert_int_eq(st_scn_load_buffer("size.yaml", yaml_ckpt, strlen(yaml_ckpt), &s, &d), 0);
    st_size_spec spec = {
        .deadline_s = 30 * 86400.0, .goal = ST_SIZE_GPU_HOURS, .failures = st_scn_failures(s)};
    st_size_result r;
    st_err err = {0};
    ck_assert_int_eq(st_size_search(st_scn_cluster(s), st_scn_workload(s, 0), &spec, &r, &err), 0);
    ck_assert_uint_gt(r.n, 0);
    ck_assert_int_ge(r.cadences, 3 * 6 * (int64_t)r.n);
    for (size_t i = 0; i < r.n; i++) {
        const st_size_cfg *f = &r.cfg[i];
        ck_assert_msg(f->mem_every_s > 0 && f->ckpt_every_s > f->mem_every_s, "%g s, %g s",
                      f->mem_every_s, f->ckpt_every_s);
        double k = f->ckpt_every_s / f->mem_every_s;
        ck_assert_msg(fabs(k - round(k)) < 1e-9 || f->ckpt_every_s >= f->work_s, "%g", k);
    }
    st_size_release(&r);
    st_scn_free(s);
}
END_TEST

START_TEST(test_unfit_plan_is_pruned)
{
    st_scn *s = load();
    const st_workload_cfg *w = st_scn_workload(s, 0);
    st_workload_cfg p = *w; /* one node, no model parallelism, 8 sequences, no recompute */
    p.parallel.microbatch = 8;
    p.parallel.recompute = ST_RECOMPUTE_NONE;
    st_memory m;
    st_memory_estimate(&p, st_scn_cluster(s)->gpu, 8, &m);
    ck_assert(!m.fits);
    st_size_result r = search(s, 30 * 86400.0, 0);
    ck_assert_int_gt(r.pruned_memory, 0);
    for (size_t i = 0; i < r.n; i++) {
        const st_size_cfg *f = &r.cfg[i];
        ck_assert(f->mem_bytes <= f->mem_capacity);
        ck_assert(!(f->gpus == 8 && f->tp == 1 && f->pp == 1 && f->mb == 8 &&
                    f->recompute == ST_RECOMPUTE_NONE));
    }
    ck_assert_int_eq(r.considered,
                     (int64_t)r.n + r.pruned_rule + r.pruned_memory + r.pruned_dominated);
    st_size_release(&r);
    st_scn_free(s);
}
END_TEST

/* A mixture-of-experts model: the search tries expert parallelism. Qwen3-30B-A3B on one 8-GPU
 * node fits without it only when a pipeline splits its layers (without either, its 128 experts'
 * weights, gradients and Adam states alone exceed an H100's memory); every plan kept holds
 * ep | E and ep | tp x dp, and those with tp > 1 run sequence-parallel, as Megatron-Core
 * requires of MoE layers. A dense model's rows have ep 0. */
START_TEST(test_moe_search_tries_expert_parallelism)
{
    static const char moe[] = "version: 1\n"
                              "name: size-moe\n"
                              "cluster: { gpu: h100-sxm, nodes: 1 }\n"
                              "workloads:\n"
                              "  - name: train\n"
                              "    model: qwen3-30b-a3b\n"
                              "    seq_len: 4096\n"
                              "    global_batch: 64\n"
                              "    gpus: 8\n"
                              "    parallel: { tp: 1, pp: 1, dp: 8, zero: 1, microbatch: 1 }\n"
                              "    steps: 100\n";
    st_scn *s = NULL;
    st_diag d = {0};
    ck_assert_int_eq(st_scn_load_buffer("moe.yaml", moe, strlen(moe), &s, &d), 0);
    st_size_result r = search(s, 30 * 86400.0, 0);
    int tp_sp = 0, ep = 0;
    for (size_t i = 0; i < r.n; i++) {
        const st_size_cfg *f = &r.cfg[i];
        ck_assert_int_ge(f->ep, 1);
        ck_assert(f->ep > 1 || f->pp > 1); /* ep 1, pp 1: does not fit */
        ck_assert_int_eq(128 % f->ep, 0);
        ck_assert_int_eq((f->tp * f->dp) % f->ep, 0);
        tp_sp += f->tp > 1;
        ep += f->ep > 1;
    }
    ck_assert_int_gt(ep, 0);
    ck_assert_int_gt(tp_sp, 0); /* tp > 1 plans pass the plan rules: sequence parallel set */
    ck_assert_int_gt(r.pruned_memory, 0);
    st_size_release(&r);
    st_scn_free(s);
    s = load();
    r = search(s, 30 * 86400.0, 0);
    for (size_t i = 0; i < r.n; i++)
        ck_assert_int_eq(r.cfg[i].ep, 0);
    st_size_release(&r);
    st_scn_free(s);
}
END_TEST

/* Whether f's binds is a deadline's: deadline, communication or storage, as st_size_time_bind
 * says. */
static int deadline_binds(const st_size_cfg *f)
{
    return f->binds == st_size_time_bind(f) &&
           (f->binds == ST_BIND_DEADLINE || f->binds == ST_BIND_COMMUNICATION ||
            f->binds == ST_BIND_STORAGE);
}

START_TEST(test_answer_meets_deadline)
{
    st_scn *s = load();
    st_size_result loose = search(s, 30 * 86400.0, 0);
    /* A deadline between the fastest and the slowest plan found: the answer must meet it, and
     * nothing ranked above it may be slower or cost more. */
    double fast = INFINITY, slow = 0;
    for (size_t i = 0; i < loose.n; i++) {
        fast = fmin(fast, loose.cfg[i].train_s);
        slow = fmax(slow, loose.cfg[i].train_s);
    }
    double deadline = 0.5 * (fast + slow);
    st_size_result r = search(s, deadline, 0);
    ck_assert(r.cfg[0].feasible);
    ck_assert(r.cfg[0].train_s <= deadline);
    for (size_t i = 1; i < r.n; i++)
        if (r.cfg[i].feasible)
            ck_assert(r.cfg[i].objective >= r.cfg[0].objective);
        else
            ck_assert(r.cfg[i].train_s > deadline && deadline_binds(&r.cfg[i]));
    st_size_release(&r);
    /* Too short for every plan of every size: none is feasible, and the deadline binds them
     * all, each said by what its time beyond compute goes to. */
    r = search(s, 1e-3, 0);
    for (size_t i = 0; i < r.n; i++)
        ck_assert(!r.cfg[i].feasible && deadline_binds(&r.cfg[i]));
    st_size_release(&r);
    st_size_release(&loose);
    st_scn_free(s);
}
END_TEST

/* a is at most as long and as costly as b and better in one. */
static int dominates(const st_size_cfg *a, const st_size_cfg *b)
{
    return a->train_s <= b->train_s && a->objective <= b->objective &&
           (a->train_s < b->train_s || a->objective < b->objective);
}

START_TEST(test_front_is_non_dominated)
{
    st_scn *s = load();
    /* No size meets it: the search doubles from one node (the sizes of Llama 3 8B's splits are
     * powers of two, 12 up to 2,048 nodes) until a doubling gains less than 5% of the time to
     * train, at 128 nodes: 8 searched, the 4 larger not. */
    st_size_result r = search(s, 1e-3, 0);
    ck_assert_int_eq(r.candidates, 12);
    ck_assert_int_eq(r.counts_searched, 8);
    ck_assert_int_eq(r.counts_skipped, 4);
    double at[2] = {INFINITY, INFINITY}; /* the best time to train on 64 and on 128 nodes */
    for (size_t i = 0; i < r.n; i++) {
        ck_assert_int_le(r.cfg[i].nodes, 128);
        if (r.cfg[i].nodes >= 64)
            at[r.cfg[i].nodes == 128] = fmin(at[r.cfg[i].nodes == 128], r.cfg[i].train_s);
    }
    ck_assert(at[1] >= (1 - 0.05) * at[0]);
    size_t on = 0;
    for (size_t i = 0; i < r.n; i++) {
        int beaten = 0;
        for (size_t j = 0; j < r.n; j++)
            beaten |= dominates(&r.cfg[j], &r.cfg[i]);
        if (r.cfg[i].front)
            ck_assert(!beaten);
        on += (size_t)r.cfg[i].front;
    }
    /* A 4-node plan trains faster than any on one node, for more GPU-hours: two points at
     * least. */
    ck_assert_uint_ge(on, 2);
    st_size_release(&r);
    st_scn_free(s);
}
END_TEST

START_TEST(test_power_budget_binds)
{
    st_scn *s = load();
    st_size_result r = search(s, 1e-3, 0);
    double one = 0, t1 = INFINITY; /* the most a one-node plan draws; the fastest one trains */
    for (size_t i = 0; i < r.n; i++)
        if (r.cfg[i].nodes == 1) {
            one = fmax(one, r.cfg[i].facility_w);
            t1 = fmin(t1, r.cfg[i].train_s);
        }
    ck_assert(one > 0);
    st_size_release(&r);
    /* A deadline one node misses and a budget only one node is within: the power binds every
     * larger row, and the doubling stops at the first size whose nodes and idle GPUs alone draw
     * more than the budget (a larger one draws more still), well before the time to train
     * stops falling (8 sizes, test_front_is_non_dominated). */
    r = search(s, 0.6 * t1, 1.2 * one);
    ck_assert_int_lt(r.counts_searched, 8);
    size_t two = 0;
    for (size_t i = 0; i < r.n; i++) {
        const st_size_cfg *f = &r.cfg[i];
        ck_assert(!f->feasible);
        if (f->nodes >= 2) { /* over the budget: on no front; most bound by it */
            ck_assert(!f->front);
            two += f->binds == ST_BIND_POWER;
        }
    }
    ck_assert_uint_gt(two, 0);
    st_size_release(&r);
    st_scn_free(s);
}
END_TEST

START_TEST(test_larger_counts_are_skipped)
{
    st_scn *s = load();
    /* A generous deadline: the smallest size, one node, meets it; one doubling above it (two
     * nodes) costs more GPU-hours, so no other is searched. */
    st_size_result r = search(s, 30 * 86400.0, 0);
    ck_assert_int_eq(r.counts_searched, 2);
    ck_assert_int_eq(r.counts_skipped, 10);
    for (size_t i = 0; i < r.n; i++)
        ck_assert_int_le(r.cfg[i].nodes, 2);
    ck_assert(r.cfg[0].feasible && r.cfg[0].nodes == 1);
    st_size_release(&r);
    st_scn_free(s);
}
END_TEST

/* A deadline only larger sizes can meet: the sizes whose model FLOPs at the GPUs' dense peak
 * alone take longer (2B tokens of Llama 3 8B at 4,096: about 1e20 FLOP, 2 h at 989 TFLOP/s a
 * GPU needs 14 GPUs) are not simulated; the answer is still the smallest that meets it. A
 * deadline no size can meet on compute simulates what the doubling reaches, as before. */
START_TEST(test_compute_bound_rules_out_small_sizes)
{
    st_scn *s = load();
    st_size_result r = search(s, 2 * 3600.0, 0);
    ck_assert_int_gt(r.counts_bounded, 0);
    int64_t least = INT64_MAX;
    for (size_t i = 0; i < r.n; i++)
        least = r.cfg[i].nodes < least ? r.cfg[i].nodes : least;
    ck_assert_int_ge(least, 2); /* one node's 8 GPUs cannot, on compute alone */
    ck_assert(r.cfg[0].feasible);
    ck_assert_int_eq(r.counts_searched + r.counts_skipped, r.candidates);
    st_size_release(&r);
    r = search(s, 1e-3, 0);
    ck_assert_int_eq(r.counts_bounded, 0);
    st_size_release(&r);
    st_scn_free(s);
}
END_TEST

/* The bound the search prunes by before the plant runs is below the plant's answer on every
 * plan, and not vacuous: over half the plant's answer on most plans. */
START_TEST(test_power_bound_is_below_plant)
{
    st_scn *s = load();
    st_size_result r = search(s, 1e-3, 0);
    size_t bounded = 0;
    for (size_t i = 0; i < r.n; i++) {
        ck_assert(r.cfg[i].powered);
        ck_assert(r.cfg[i].power_lb <= r.cfg[i].facility_w);
        bounded += r.cfg[i].power_lb > 0.5 * r.cfg[i].facility_w;
    }
    ck_assert_uint_gt(2 * bounded, r.n);
    st_size_release(&r);
    st_scn_free(s);
}
END_TEST

/* Same double, NaN equal to NaN. */
static int same(double a, double b)
{
    return a == b || (isnan(a) && isnan(b));
}

/* With rows = 3 the plant runs only for some plans, yet the ranking, the front and the rows
 * asked for (the first 3 and the front) are those of the complete search, under no power
 * budget, a budget that binds the larger counts, and one every plan's bound is over; with no
 * prices and with rented GPUs' (the cost goal). */
START_TEST(test_rows_match_complete_search)
{
    st_scn *s = load();
    st_size_result r = search(s, 1e-3, 0);
    double one = 0, least = INFINITY;
    for (size_t i = 0; i < r.n; i++) {
        if (r.cfg[i].nodes == 1)
            one = fmax(one, r.cfg[i].facility_w);
        least = fmin(least, r.cfg[i].power_lb);
    }
    st_size_release(&r);
    const double deadlines[] = {30 * 86400.0, 2 * 86400.0, 1e-3};
    const double powers[] = {0, 1.2 * one, 0.9 * least};
    size_t skipped[2] = {0, 0}; /* plans the plant did not run for: no prices, rented */
    for (size_t d = 0; d < 6; d++)
        for (size_t p = 0; p < 3; p++) {
            const st_cost_cfg *cost = d < 3 ? NULL : &cloud;
            st_size_result all = search_rows(s, deadlines[d % 3], powers[p], 0, cost);
            st_size_result few = search_rows(s, deadlines[d % 3], powers[p], 3, cost);
            ck_assert_uint_eq(all.n, few.n);
            for (size_t i = 0; i < all.n; i++) {
                const st_size_cfg *a = &all.cfg[i], *b = &few.cfg[i];
                ck_assert(a->gpus == b->gpus && a->tp == b->tp && a->pp == b->pp &&
                          a->vs == b->vs && a->mb == b->mb && a->recompute == b->recompute);
                ck_assert(a->feasible == b->feasible && a->front == b->front);
                ck_assert(same(a->objective, b->objective) && same(a->cost_usd, b->cost_usd));
                if (i < 3 || b->front) {
                    ck_assert(b->powered && same(a->facility_w, b->facility_w));
                    ck_assert_int_eq(a->binds, b->binds);
                }
                skipped[d >= 3] += !b->powered;
            }
            st_size_release(&all);
            st_size_release(&few);
        }
    ck_assert(skipped[0] > 0 && skipped[1] > 0);
    st_scn_free(s);
}
END_TEST

Suite *size_suite(void)
{
    Suite *s = suite_create("size");
    TCase *tc = tcase_create("search");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_unfit_plan_is_pruned);
    tcase_add_test(tc, test_moe_search_tries_expert_parallelism);
    tcase_add_test(tc, test_answer_meets_deadline);
    tcase_add_test(tc, test_front_is_non_dominated);
    tcase_add_test(tc, test_power_budget_binds);
    tcase_add_test(tc, test_larger_counts_are_skipped);
    tcase_add_test(tc, test_compute_bound_rules_out_small_sizes);
    tcase_add_test(tc, test_power_bound_is_below_plant);
    tcase_add_test(tc, test_rows_match_complete_search);
    tcase_add_test(tc, test_both_cadences_are_searched);
    suite_add_tcase(s, tc);
    return s;
}
