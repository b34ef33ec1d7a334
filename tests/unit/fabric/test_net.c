/* Flow-level network: shared-link rates, completion times that move when rates change, latency,
 * contention between jobs, statistics and determinism, on small hand-built spine-leaf fabrics. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "models/fabric/net.h"
#include "models/fabric/topo.h"
#include "models/silicon/gpu.h"
#include "sim/rng.h"

static const st_gpu_spec gpu = {.name = "test-gpu", .nvlink_bw = 900e9};

/* nodes x 1 GPU, spine-leaf, 400 Gbit/s NICs; `oversub` 1 gives each leaf as many uplinks as
 * nodes, more gives fewer (nodes_per_leaf / oversub, at least one). */
static st_topo *make_topo(int64_t nodes, int64_t per_leaf, double oversub, st_routing routing)
{
    st_cluster_cfg c = {
        .gpu = &gpu,
        .nodes = nodes,
        .gpus_per_node = 1,
        .nvlink_domain = 1,
        .fabric = {.topology = ST_TOPO_SPINE_LEAF,
                   .nic_bw = 50e9,
                   .nics_per_node = 1,
                   .nodes_per_leaf = per_leaf,
                   .oversub = {oversub},
                   .n_oversub = 1,
                   .transport = ST_TRANSPORT_ROCE_V2,
                   .routing = routing,
                   .link_latency_s = 1e-6,
                   .switch_latency_s = 0.5e-6},
    };
    st_topo *t = NULL;
    st_err err = {0};
    ck_assert_int_eq(st_topo_new(&c, &t, &err), 0);
    return t;
}

/* What completed when: done callbacks append (tag, time). */
typedef struct log {
    int n;
    uint64_t tag[64];
    st_time t[64];
} log_;

static void on_done(void *ctx, uint64_t tag, st_time now)
{
    log_ *l = ctx;
    ck_assert_int_lt(l->n, 64);
    l->tag[l->n] = tag;
    l->t[l->n++] = now;
}

static st_time done_at(const log_ *l, uint64_t tag)
{
    for (int i = 0; i < l->n; i++)
        if (l->tag[i] == tag)
            return l->t[i];
    return -1;
}

static st_engine *eng;
static st_topo *topo;
static st_net *net;
static log_ lg;
static double C; /* goodput of one NIC port, bytes/s */

static void setup_topo(st_topo *t)
{
    eng = st_engine_new();
    topo = t;
    net = st_net_new(eng, topo);
    lg = (log_){0};
    C = st_topo_capacity(topo, 0);
}

/* 4 nodes, 2 per leaf, non-blocking: nodes 0 and 1 share leaf 0. */
static void setup4(void)
{
    setup_topo(make_topo(4, 2, 1, ST_ROUTING_ECMP));
}

/* 8 nodes, 4 per leaf, 4:1 oversubscribed: one uplink per leaf, the spine is the bottleneck. */
static void setup8(void)
{
    setup_topo(make_topo(8, 4, 4, ST_ROUTING_ECMP));
}

static void teardown(void)
{
    st_net_free(net);
    st_engine_free(eng);
    st_topo_free(topo);
}

static int64_t start(const int64_t *src, const int64_t *dst, size_t n, double bytes,
                     double latency_s, uint64_t tag)
{
    st_xfer_spec s = {.src = src,
                      .dst = dst,
                      .n = n,
                      .bytes = bytes,
                      .latency_s = latency_s,
                      .key = tag * 7919,
                      .tag = tag,
                      .done = on_done,
                      .ctx = &lg};
    return st_net_start(net, &s);
}

static int64_t start1(int64_t src, int64_t dst, double bytes, double latency_s, uint64_t tag)
{
    return start(&src, &dst, 1, bytes, latency_s, tag);
}

START_TEST(test_two_transfers_on_one_link_each_get_half_and_finish_on_time)
{
    /* Both leave node 0's NIC: C/2 each. Equal bytes (2 ms worth at C/2) finish together. */
    int64_t a = start1(0, 1, C * 1e-3, 0, 1);
    int64_t b = start1(0, 2, C * 1e-3, 0, 2);
    ck_assert_double_eq_tol(st_net_rate(net, a), C / 2, C * 1e-12);
    ck_assert_double_eq_tol(st_net_rate(net, b), C / 2, C * 1e-12);
    ck_assert_int_eq(st_engine_run(eng, ST_TIME_MAX), ST_RUN_EMPTY);
    ck_assert_int_eq(done_at(&lg, 1), 2 * ST_MS);
    ck_assert_int_eq(done_at(&lg, 2), 2 * ST_MS);
    ck_assert_double_eq_tol(st_net_max_utilization(net), 1.0, 1e-12);
    ck_assert_double_eq_tol(st_net_level_utilization(net, ST_LEVEL_NIC), 1.0, 1e-12);
    /* b alone crosses leaf 0's uplink, at half its capacity; the instant between the two
     * completions, when b would have the link alone, lasts no time and does not count. */
    ck_assert_double_eq_tol(st_net_level_utilization(net, ST_LEVEL_LEAF), 0.5, 1e-12);
    ck_assert_uint_eq(st_net_active(net), 0);
    ck_assert_double_eq(st_net_rate(net, a), 0);
}
END_TEST

/* A transfer without a rate cap holds no private link: when it ends, no link of the fabric is
 * handed out as one. (Its slot once kept cap link 0 from the start's initialiser, and the next
 * capped transfer then set the capacity of fabric link 0, node 0's NIC, to its own cap.) */
START_TEST(test_an_uncapped_transfer_leaves_no_fabric_link_to_the_next_rate_cap)
{
    start1(0, 1, C * 1e-3, 0, 1);
    ck_assert_int_eq(st_engine_run(eng, ST_TIME_MAX), ST_RUN_EMPTY);
    int64_t src = 2, dst = 3;
    st_xfer_spec capped = {.src = &src,
                           .dst = &dst,
                           .n = 1,
                           .bytes = C * 1e-3,
                           .key = 5,
                           .tag = 2,
                           .max_rate = C / 4,
                           .done = on_done,
                           .ctx = &lg};
    int64_t b = st_net_start(net, &capped);
    int64_t c = start1(0, 1, C * 1e-3, 0, 3);
    ck_assert_double_eq_tol(st_net_rate(net, b), C / 4, C * 1e-12);
    ck_assert_double_eq_tol(st_net_rate(net, c), C, C * 1e-12);
    ck_assert_int_eq(st_engine_run(eng, ST_TIME_MAX), ST_RUN_EMPTY);
    ck_assert_int_eq(done_at(&lg, 3), 2 * ST_MS);
}
END_TEST

START_TEST(test_when_one_ends_the_other_speeds_up_at_that_instant)
{
    /* a: 2 ms of bytes at full rate, b: 1 ms. Sharing, b ends at 2 ms having let a move 1 ms
     * worth; a then runs alone at C and ends 1 ms later, at 3 ms instead of 4. */
    int64_t a = start1(0, 1, 2 * C * 1e-3, 0, 1);
    start1(0, 2, C * 1e-3, 0, 2);
    ck_assert_int_eq(st_engine_run(eng, 2 * ST_MS), ST_RUN_HORIZON);
    ck_assert_int_eq(done_at(&lg, 2), 2 * ST_MS);
    ck_assert_double_eq_tol(st_net_rate(net, a), C, C * 1e-12);
    ck_assert_double_eq_tol(st_net_remaining(net, a), C * 1e-3, C * 1e-15);
    st_engine_run(eng, ST_TIME_MAX);
    ck_assert_int_eq(done_at(&lg, 1), 3 * ST_MS);
}
END_TEST

START_TEST(test_a_late_start_slows_a_running_transfer_and_moves_its_completion)
{
    /* a alone for 1 ms at C (half its bytes), then shares with b at C/2: its other half takes
     * 2 ms more, so it ends at 3 ms; b moved C * 1 ms by then and ends alone 0.5 ms later. */
    start1(0, 1, 2 * C * 1e-3, 0, 1);
    st_engine_run(eng, 1 * ST_MS);
    start1(0, 3, 1.5 * C * 1e-3, 0, 2);
    st_engine_run(eng, ST_TIME_MAX);
    ck_assert_int_eq(done_at(&lg, 1), 3 * ST_MS);
    ck_assert_int_eq(done_at(&lg, 2), 3 * ST_MS + 500 * ST_US);
}
END_TEST

START_TEST(test_completion_includes_latency_but_bandwidth_is_freed_at_the_last_byte)
{
    int64_t a = start1(0, 1, C * 1e-3, 5e-6, 1);
    ck_assert_int_eq(st_engine_run(eng, 1 * ST_MS), ST_RUN_HORIZON);
    /* Last byte through at 1 ms: no rate any more, not done yet. */
    ck_assert_int_eq(lg.n, 0);
    ck_assert_double_eq(st_net_rate(net, a), 0);
    ck_assert_uint_eq(st_net_active(net), 1);
    /* A transfer started now has the link to itself. */
    int64_t b = start1(0, 1, C * 1e-3, 0, 2);
    ck_assert_double_eq_tol(st_net_rate(net, b), C, C * 1e-12);
    st_engine_run(eng, ST_TIME_MAX);
    ck_assert_int_eq(done_at(&lg, 1), 1 * ST_MS + 5 * ST_US);
    ck_assert_int_eq(done_at(&lg, 2), 2 * ST_MS);
}
END_TEST

START_TEST(test_times_past_the_clock_are_held_at_its_end_not_wrapped)
{
    /* 300 years of latency, then 1e10 s of bytes: both past the 2^63 ns clock. Each is held at
     * ST_TIME_MAX, flagged, and stops the run, whose times are no forecast; the engine never
     * sees a time in its past (it used to abort). */
    ck_assert_int_eq(st_net_clamped(net), 0);
    start1(0, 2, 1, 300 * 365.25 * 86400, 2);
    ck_assert_int_eq(st_net_clamped(net), 1);
    start1(0, 1, C * 1e10, 0, 1);
    ck_assert_int_eq(st_engine_run(eng, ST_TIME_MAX), ST_RUN_STOPPED);
    ck_assert_int_eq(st_net_clamped(net), 1);
    ck_assert_int_lt(st_engine_now(eng), ST_TIME_MAX);
}
END_TEST
START_TEST(test_zero_byte_and_local_transfers_take_only_their_latency)
{
    start1(0, 1, 0, 3e-6, 1);
    start1(2, 2, 1e9, 4e-6, 2); /* src == dst: crosses no link */
    int64_t c = start1(0, 1, 0, 0, 3);
    ck_assert_double_eq(st_net_rate(net, c), 0);
    ck_assert_int_eq(lg.n, 0); /* never from inside st_net_start */
    st_engine_run(eng, ST_TIME_MAX);
    ck_assert_int_eq(done_at(&lg, 1), 3 * ST_US);
    ck_assert_int_eq(done_at(&lg, 2), 4 * ST_US);
    ck_assert_int_eq(done_at(&lg, 3), 0);
}
END_TEST

START_TEST(test_members_of_one_transfer_crossing_a_link_share_it)
{
    /* Two members leave node 0: that NIC carries 2r, so r = C/2 for the whole transfer, and the
     * third member (2 -> 3) is held to that rate too (bulk-synchronous). */
    int64_t src[3] = {0, 0, 2}, dst[3] = {1, 2, 3};
    int64_t a = start(src, dst, 3, C * 1e-3, 0, 1);
    ck_assert_double_eq_tol(st_net_rate(net, a), C / 2, C * 1e-12);
    st_engine_run(eng, ST_TIME_MAX);
    ck_assert_int_eq(done_at(&lg, 1), 2 * ST_MS);
}
END_TEST

/* Rings over {g, g + 4} on the 8-node fabric: one member up through leaf 0's single uplink and
 * one up through leaf 1's. */
static int64_t ring_job(int64_t g, double bytes, uint64_t tag)
{
    int64_t src[2] = {g, g + 4}, dst[2] = {g + 4, g};
    return start(src, dst, 2, bytes, 0, tag);
}

START_TEST(test_three_jobs_sharing_a_spine_bottleneck_split_it_evenly)
{
    int64_t j[3];
    for (int i = 0; i < 3; i++)
        j[i] = ring_job(i, C * 1e-3, (uint64_t)i + 1);
    /* A transfer inside leaf 0 (node 3 -> node 0) shares node 0's NIC down link with job 1's
     * member 4 -> 0, which the spine holds to C/3: max-min gives it the other 2C/3. */
    int64_t local = start1(3, 0, C * 1e-3, 0, 9);
    for (int i = 0; i < 3; i++)
        ck_assert_double_eq_tol(st_net_rate(net, j[i]), C / 3, C * 1e-12);
    ck_assert_double_eq_tol(st_net_rate(net, local), 2 * C / 3, C * 1e-12);
    st_engine_run(eng, ST_TIME_MAX);
    for (uint64_t i = 1; i <= 3; i++)
        ck_assert_int_eq(done_at(&lg, i), 3 * ST_MS);
    ck_assert_int_eq(done_at(&lg, 9), 1500 * ST_US);
    ck_assert_double_eq_tol(st_net_level_utilization(net, ST_LEVEL_LEAF), 1.0, 1e-12);
}
END_TEST

START_TEST(test_a_job_slows_when_neighbours_saturate_its_spine)
{
    /* Job 1 runs alone at C for 0.5 ms, then jobs 2 and 3 join: C/3 each until job 1 ends at
     * 0.5 + 1.5 = 2 ms; jobs 2 and 3 have 0.5 ms worth left at C/2 and end at 3 ms. */
    int64_t a = ring_job(0, C * 1e-3, 1);
    ck_assert_double_eq_tol(st_net_rate(net, a), C, C * 1e-12);
    st_engine_run(eng, 500 * ST_US);
    ring_job(1, C * 1e-3, 2);
    ring_job(2, C * 1e-3, 3);
    ck_assert_double_eq_tol(st_net_rate(net, a), C / 3, C * 1e-12);
    st_engine_run(eng, ST_TIME_MAX);
    ck_assert_int_eq(done_at(&lg, 1), 2 * ST_MS);
    ck_assert_int_eq(done_at(&lg, 2), 3 * ST_MS);
    ck_assert_int_eq(done_at(&lg, 3), 3 * ST_MS);
}
END_TEST

START_TEST(test_flows_hashed_onto_one_uplink_count_as_collisions)
{
    /* One uplink per leaf: every flow between the leaves shares it with every other one. */
    int64_t src[2] = {0, 1}, dst[2] = {4, 5};
    start(src, dst, 2, C * 1e-3, 0, 1);
    ck_assert_uint_eq(st_net_collisions(net), 2);
    start1(2, 6, C * 1e-3, 0, 2);
    ck_assert_uint_eq(st_net_collisions(net), 3);
    start1(0, 3, C * 1e-3, 0, 3); /* stays under leaf 0 */
    ck_assert_uint_eq(st_net_collisions(net), 3);
    st_engine_run(eng, ST_TIME_MAX);
    /* Finished flows leave the links: a lone flow now collides with nothing. */
    start1(0, 4, C * 1e-3, 0, 4);
    ck_assert_uint_eq(st_net_collisions(net), 3);
    st_engine_run(eng, ST_TIME_MAX);
}
END_TEST

START_TEST(test_adaptive_routing_has_no_collisions)
{
    st_net_free(net);
    st_engine_free(eng);
    st_topo_free(topo);
    setup_topo(make_topo(8, 4, 4, ST_ROUTING_ADAPTIVE));
    int64_t src[2] = {0, 1}, dst[2] = {4, 5};
    int64_t a = start(src, dst, 2, C * 1e-3, 0, 1);
    ck_assert_uint_eq(st_net_collisions(net), 0);
    /* The aggregated uplink is one port's worth here (4 nodes at 4:1), shared by 2 members. */
    ck_assert_double_eq_tol(st_net_rate(net, a), C / 2, C * 1e-12);
    st_engine_run(eng, ST_TIME_MAX);
}
END_TEST

/* A small closed-loop workload: each done starts the next transfer of its chain, so event order
 * feeds back into rates. Returns finish times in t[]. */
typedef struct chain {
    st_net *net;
    st_rng *r;
    int left;
    int n;
    st_time t[200];
    int64_t gpus;
} chain;

static void chain_next(chain *c, uint64_t tag);

static void chain_done(void *ctx, uint64_t tag, st_time now)
{
    chain *c = ctx;
    c->t[c->n++] = now;
    if (c->left-- > 0)
        chain_next(c, tag);
}

static void chain_next(chain *c, uint64_t tag)
{
    int64_t src[4], dst[4];
    size_t n = 1 + st_rng_uniform_int(c->r, 4);
    for (size_t i = 0; i < n; i++) {
        src[i] = st_rng_uniform_int(c->r, (uint32_t)c->gpus);
        dst[i] = st_rng_uniform_int(c->r, (uint32_t)c->gpus);
    }
    st_xfer_spec s = {.src = src,
                      .dst = dst,
                      .n = n,
                      .bytes = 1e6 * (1 + st_rng_uniform(c->r)),
                      .latency_s = 2e-6 * st_rng_uniform(c->r),
                      .key = tag * 31 + (uint64_t)c->n,
                      .tag = tag,
                      .done = chain_done,
                      .ctx = c};
    st_net_start(c->net, &s);
}

static void run_chains(chain *c, uint64_t *collisions)
{
    st_engine *e = st_engine_new();
    st_topo *t = make_topo(16, 4, 2, ST_ROUTING_ECMP);
    *c = (chain){.net = st_net_new(e, t), .left = 150, .gpus = 16};
    c->r = st_rng_new(42, st_rng_tag("test"), 0, st_rng_tag("net-chain"));
    for (uint64_t i = 0; i < 8; i++)
        chain_next(c, i);
    st_engine_run(e, ST_TIME_MAX);
    ck_assert_uint_eq(st_net_active(c->net), 0);
    ck_assert_uint_eq(st_engine_size(e), 0);
    *collisions = st_net_collisions(c->net);
    ck_assert(st_net_max_utilization(c->net) <= 1 + 1e-9);
    st_net_free(c->net);
    st_rng_free(c->r);
    st_engine_free(e);
    st_topo_free(t);
}

START_TEST(test_same_inputs_give_the_same_finish_times_to_the_nanosecond)
{
    static chain a, b;
    uint64_t ca, cb;
    run_chains(&a, &ca);
    run_chains(&b, &cb);
    ck_assert_int_eq(a.n, 158);
    ck_assert_int_eq(a.n, b.n);
    for (int i = 0; i < a.n; i++)
        ck_assert_int_eq(a.t[i], b.t[i]);
    ck_assert_uint_eq(ca, cb);
}
END_TEST

START_TEST(test_simultaneous_starts_and_ends_are_solved_once_per_instant)
{
    /* 40 transfers from node 0's NIC start at once and, equal, end at once: one solve for the
     * starts, one for the ends (one at a time, it was 80), with the rates of solving each. */
    enum { N = 40 };
    for (uint64_t i = 0; i < N; i++)
        start1(0, 2 + (int64_t)(i % 2), C * 1e-3, 0, i);
    ck_assert_uint_eq(st_net_solves(net), 0);
    st_engine_run(eng, ST_TIME_MAX);
    ck_assert_uint_eq(st_net_solves(net), 2);
    ck_assert_int_eq(lg.n, N);
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(lg.t[i], (st_time)N * 1000000);
}
END_TEST

START_TEST(test_a_rate_asked_for_mid_instant_is_solved_at_once)
{
    int64_t a = start1(0, 2, C * 1e-3, 0, 1);
    ck_assert_double_eq_tol(st_net_rate(net, a), C, 1e-6 * C);
    int64_t b = start1(0, 3, C * 1e-3, 0, 2);
    ck_assert_double_eq_tol(st_net_rate(net, a), C / 2, 1e-6 * C);
    ck_assert_double_eq_tol(st_net_rate(net, b), C / 2, 1e-6 * C);
    ck_assert_uint_eq(st_net_solves(net), 2);
    st_engine_run(eng, ST_TIME_MAX);
    ck_assert_int_eq(done_at(&lg, 1), 2000000);
}
END_TEST

START_TEST(test_ring_of_4096_members_runs_at_its_most_collided_uplink)
{
    /* 4096 nodes, 32 per leaf, non-blocking (32 uplinks a leaf). A ring over consecutive GPUs
     * sends one member out of each leaf, hashed onto one of its 32 uplinks and one of the next
     * leaf's 32 downlinks; nothing else contends, so the rate is C over the most members any
     * link carries, which is 1 for every NIC link. */
    st_net_free(net);
    st_engine_free(eng);
    st_topo_free(topo);
    setup_topo(make_topo(4096, 32, 1, ST_ROUTING_ECMP));
    enum { N = 4096 };
    int64_t *src = malloc(N * sizeof *src), *dst = malloc(N * sizeof *dst);
    for (int64_t i = 0; i < N; i++) {
        src[i] = i;
        dst[i] = (i + 1) % N;
    }
    int64_t a = start(src, dst, N, C * 1e-3, 0, 1);
    ck_assert_double_eq_tol(st_net_rate(net, a), C, C * 1e-12);
    ck_assert_uint_eq(st_net_collisions(net), 0);
    st_engine_run(eng, ST_TIME_MAX);
    ck_assert_int_eq(done_at(&lg, 1), 1 * ST_MS);
    free(src);
    free(dst);
}
END_TEST

/* st_net_last_done against the run itself: random one-shot patterns (equal bytes, members
 * and latencies drawn per transfer) on an oversubscribed ECMP fabric, where some transfers
 * collide and end at other instants. Whenever the first solve decides the last completion, it
 * is the run's to the nanosecond; it must decide most of them; unequal bytes are never
 * decided. Two trials in three keep their counts in an array passed from trial to trial
 * (st_net_keep_routes_in), which must come back all zeros. */
typedef struct last_seen {
    st_time t;
} last_seen;

static void note_last(void *ctx, uint64_t tag, st_time now)
{
    (void)tag;
    last_seen *l = ctx;
    l->t = now > l->t ? now : l->t;
}

START_TEST(test_the_first_solve_decides_the_last_completion_exactly_or_not_at_all)
{
    st_net_free(net);
    st_engine_free(eng);
    st_topo_free(topo);
    topo = make_topo(64, 8, 2, ST_ROUTING_ECMP);
    st_rng *r = st_rng_new(7, 1, 2, 3);
    int decided = 0, trials = 200;
    double *pool = NULL;
    for (int k = 0; k < trials; k++) {
        eng = st_engine_new();
        net = st_net_new(eng, topo);
        if (k % 3 == 0)
            st_net_keep_routes(net, 1);
        else
            st_net_keep_routes_in(net, &pool);
        last_seen seen = {0};
        int n = 2 + (int)(st_rng_uniform(r) * 40), unequal = k % 10 == 9;
        for (int i = 0; i < n; i++) {
            int64_t src[4], dst[4];
            size_t members = 1 + (size_t)(st_rng_uniform(r) * 4);
            for (size_t j = 0; j < members; j++) {
                src[j] = (int64_t)(st_rng_uniform(r) * 64);
                dst[j] = (src[j] + 1 + (int64_t)(st_rng_uniform(r) * 63)) % 64;
            }
            st_xfer_spec x = {.src = src,
                              .dst = dst,
                              .n = members,
                              .bytes = C * 1e-3 * (unequal && i == 0 ? 0.5 : 1),
                              .latency_s = (k % 2 ? st_rng_uniform(r) * 20e-6 : 5e-6),
                              .key = (uint64_t)(k * 1000 + i),
                              .tag = (uint64_t)i,
                              .done = note_last,
                              .ctx = &seen};
            st_net_start(net, &x);
        }
        st_engine_run(eng, 0);
        st_time end = -1;
        int ok = st_net_last_done(net, &end);
        st_net_keep_routes(net, 0);
        if (k % 3 != 0) {
            ck_assert_ptr_nonnull(pool);
            for (int32_t l = 0; l < st_topo_link_count(topo); l++)
                ck_assert(pool[l] == 0);
        }
        ck_assert_int_eq(st_engine_run(eng, ST_TIME_MAX), ST_RUN_EMPTY);
        if (unequal)
            ck_assert_int_eq(ok, 0);
        if (ok) {
            ck_assert_int_eq(end, seen.t);
            decided++;
        }
        st_net_free(net);
        st_engine_free(eng);
    }
    ck_assert_int_ge(decided, trials / 2);
    free(pool);
    st_rng_free(r);
    eng = st_engine_new(); /* for the fixture's teardown */
    net = st_net_new(eng, topo);
}
END_TEST

/* st_net_alone against the net itself: a transfer alone on a fresh net (random members, some
 * sharing links, with and without a rate cap, started at 0 or later) gets the rate and ends at
 * the instant st_net_alone says, bit for bit. */
static void note_end(void *ctx, uint64_t tag, st_time now)
{
    (void)tag;
    *(st_time *)ctx = now;
}

/* Start the transfer at the event's instant and note the rate its solve gives it. */
typedef struct alone_start {
    const st_xfer_spec *x;
    double rate;
} alone_start;

static void start_alone(st_engine *e, void *state, const st_event *ev)
{
    (void)e;
    (void)ev;
    alone_start *a = state;
    a->rate = st_net_rate(net, st_net_start(net, a->x));
}

START_TEST(test_a_transfer_alone_runs_as_st_net_alone_says)
{
    st_net_free(net);
    st_engine_free(eng);
    st_topo_free(topo);
    topo = make_topo(64, 8, 2, ST_ROUTING_ECMP);
    st_rng *r = st_rng_new(8, 1, 2, 3);
    for (int k = 0; k < 200; k++) {
        int64_t src[40], dst[40];
        size_t members = 1 + (size_t)(st_rng_uniform(r) * 40);
        for (size_t j = 0; j < members; j++) {
            src[j] = (int64_t)(st_rng_uniform(r) * 64);
            dst[j] = (src[j] + 1 + (int64_t)(st_rng_uniform(r) * 63)) % 64;
        }
        st_time end = -1, t0 = k % 3 ? 0 : (st_time)(st_rng_uniform(r) * 1e6);
        st_xfer_spec x = {.src = src,
                          .dst = dst,
                          .n = members,
                          .bytes = C * 1e-3 * (0.5 + st_rng_uniform(r)),
                          .latency_s = k % 2 ? st_rng_uniform(r) * 20e-6 : 0,
                          .key = (uint64_t)k,
                          .max_rate = k % 4 == 1 ? C * st_rng_uniform(r) : 0,
                          .done = note_end,
                          .ctx = &end};
        double rate = -1;
        st_time bytes_at = -1;
        ck_assert_int_eq(st_net_alone(topo, &x, t0, &rate, &bytes_at), 0);
        eng = st_engine_new();
        net = st_net_new(eng, topo);
        alone_start a = {.x = &x, .rate = -1};
        st_payload p = {0};
        st_engine_schedule(eng, st_engine_register(eng, "test.start", start_alone, &a), t0, &p);
        st_engine_run(eng, ST_TIME_MAX);
        ck_assert(memcmp(&a.rate, &rate, sizeof rate) == 0);
        ck_assert_int_eq(end, bytes_at + (st_time)llround(x.latency_s * 1e9));
        st_net_free(net);
        st_engine_free(eng);
    }
    st_rng_free(r);
    eng = st_engine_new(); /* for the fixture's teardown */
    net = st_net_new(eng, topo);
}
END_TEST

/* A transfer the caller routed (spec.routes) against the same transfer routed by the net, with
 * and without a rate cap: the same rate, bit for bit (a caller-routed one passes the solver no
 * weights, but for a cap's private link of weight n). */
START_TEST(test_a_caller_routed_transfer_runs_as_the_net_routes_it)
{
    st_topo *t = make_topo(16, 4, 2, ST_ROUTING_ECMP); /* two GPUs an uplink: they collide */
    for (int capped = 0; capped < 2; capped++) {
        int64_t src[6] = {0, 1, 2, 9, 13, 5}, dst[6] = {8, 12, 4, 1, 3, 14};
        int32_t routes[6 * ST_TOPO_MAX_HOPS];
        uint8_t hops[6];
        uint64_t pre = st_topo_flow_pre(42);
        for (int i = 0; i < 6; i++) {
            double lat;
            hops[i] = (uint8_t)st_topo_route(t, src[i], dst[i], st_topo_flow_key_of(pre, i),
                                             routes + i * ST_TOPO_MAX_HOPS, ST_TOPO_MAX_HOPS, &lat);
        }
        st_xfer_spec x = {
            .src = src, .dst = dst, .n = 6, .bytes = 1e9, .key = 42, .max_rate = capped ? 3e9 : 0};
        double rate[2];
        for (int k = 0; k < 2; k++) {
            st_engine *e = st_engine_new();
            st_net *nt = st_net_new(e, t);
            st_xfer_spec y = x;
            if (k) {
                y.routes = routes;
                y.hops = hops;
            }
            rate[k] = st_net_rate(nt, st_net_start(nt, &y));
            st_net_free(nt);
            st_engine_free(e);
        }
        ck_assert(rate[0] > 0 && memcmp(&rate[0], &rate[1], sizeof rate[0]) == 0);
    }
    st_topo_free(t);
}
END_TEST

Suite *net_suite(void)
{
    Suite *s = suite_create("net");
    TCase *tc = tcase_create("small");
    tcase_add_checked_fixture(tc, setup4, teardown);
    tcase_add_test(tc, test_two_transfers_on_one_link_each_get_half_and_finish_on_time);
    tcase_add_test(tc, test_when_one_ends_the_other_speeds_up_at_that_instant);
    tcase_add_test(tc, test_a_late_start_slows_a_running_transfer_and_moves_its_completion);
    tcase_add_test(tc, test_completion_includes_latency_but_bandwidth_is_freed_at_the_last_byte);
    tcase_add_test(tc, test_zero_byte_and_local_transfers_take_only_their_latency);
    tcase_add_test(tc, test_times_past_the_clock_are_held_at_its_end_not_wrapped);
    tcase_add_test(tc, test_members_of_one_transfer_crossing_a_link_share_it);
    tcase_add_test(tc, test_ring_of_4096_members_runs_at_its_most_collided_uplink);
    tcase_add_test(tc, test_simultaneous_starts_and_ends_are_solved_once_per_instant);
    tcase_add_test(tc, test_a_rate_asked_for_mid_instant_is_solved_at_once);
    tcase_add_test(tc, test_an_uncapped_transfer_leaves_no_fabric_link_to_the_next_rate_cap);
    tcase_add_test(tc, test_the_first_solve_decides_the_last_completion_exactly_or_not_at_all);
    tcase_add_test(tc, test_a_transfer_alone_runs_as_st_net_alone_says);
    tcase_add_test(tc, test_a_caller_routed_transfer_runs_as_the_net_routes_it);
    suite_add_tcase(s, tc);
    TCase *jobs = tcase_create("jobs");
    tcase_add_checked_fixture(jobs, setup8, teardown);
    tcase_add_test(jobs, test_three_jobs_sharing_a_spine_bottleneck_split_it_evenly);
    tcase_add_test(jobs, test_a_job_slows_when_neighbours_saturate_its_spine);
    tcase_add_test(jobs, test_flows_hashed_onto_one_uplink_count_as_collisions);
    tcase_add_test(jobs, test_adaptive_routing_has_no_collisions);
    suite_add_tcase(s, jobs);
    TCase *det = tcase_create("determinism");
    tcase_add_test(det, test_same_inputs_give_the_same_finish_times_to_the_nanosecond);
    suite_add_tcase(s, det);
    return s;
}
