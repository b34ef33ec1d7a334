/* Recorded max-min solves (models/fabric/mm_trace.h) on a pipeline pattern, the step model's
 * sends between two stages (every replica's rank g to rank g + stage at once) on an
 * oversubscribed spine-leaf fabric whose ECMP collisions give the transfers different rates and
 * ends: a pattern that follows a recording ends when the plain solver says, to the nanosecond,
 * whether the recording is of its shape with other bytes (followed to the end), of the same
 * shape on a larger fabric that routes its GPUs alike, or of another shape (the calls differ
 * and the solver takes over). */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "models/fabric/fabsim.h"
#include "models/fabric/mm_trace.h"
#include "models/fabric/net.h"
#include "models/silicon/gpu.h"

static const st_gpu_spec gpu = {.name = "test-gpu", .nvlink_bw = 900e9};

/* 32 nodes of 1 GPU, 4 per leaf, 2:1 oversubscribed: two uplinks for four nodes, so hashed
 * flows collide on some and not on others. */
static st_cluster_cfg cluster(void)
{
    return (st_cluster_cfg){
        .gpu = &gpu,
        .nodes = 32,
        .gpus_per_node = 1,
        .nvlink_domain = 1,
        .fabric = {.topology = ST_TOPO_SPINE_LEAF,
                   .nic_bw = 50e9,
                   .nics_per_node = 1,
                   .nodes_per_leaf = 4,
                   .oversub = {2},
                   .n_oversub = 1,
                   .transport = ST_TRANSPORT_ROCE_V2,
                   .routing = ST_ROUTING_ECMP,
                   .link_latency_s = 1e-6,
                   .switch_latency_s = 0.5e-6},
    };
}

typedef struct ends {
    st_time last;
    int left;
} ends;

static void on_done(void *ctx, uint64_t tag, st_time now)
{
    (void)tag;
    ends *e = ctx;
    if (now > e->last)
        e->last = now;
    e->left--;
}

/* The spare solver the traced runs share, as the step model's context does (st_maxmin_reset
 * between them); the plain runs build their own. */
static st_maxmin *pool;

/* The pipeline pattern: `groups` sends, rank g to rank g + stride, each of `bytes`, started
 * together; when the last ends. rec and follow as st_net_trace (rec NULL and no follow: the
 * plain net); *followed whether every solver call was answered from a recording. */
static st_time pattern(const st_topo *t, const st_cluster_cfg *c, int64_t groups, int64_t stride,
                       double bytes, st_mm_trace *rec, const st_mm_trace *follow, int *followed)
{
    st_fabsim *fs = st_fabsim_new(t, c);
    if (rec || follow)
        st_net_trace(st_fabsim_net(fs), rec, &follow, follow ? 1 : 0, &pool);
    ends e = {0, (int)groups};
    for (int64_t g = 0; g < groups; g++) {
        int64_t r[2] = {g, g + stride};
        st_coll_spec s = {.op = ST_COLL_SEND_RECV,
                          .gpus = r,
                          .n = 2,
                          .bytes = bytes,
                          .key = (uint64_t)g + 1,
                          .done = on_done,
                          .ctx = &e};
        st_err err = {0};
        ck_assert_int_ge(st_coll_start(st_fabsim_coll(fs), &s, &err), 0);
    }
    st_engine_run(st_fabsim_engine(fs), ST_TIME_MAX);
    ck_assert_int_eq(e.left, 0);
    if (followed)
        *followed = st_net_followed(st_fabsim_net(fs));
    st_fabsim_free(fs);
    return e.last;
}

static st_topo *topo_of(const st_cluster_cfg *c)
{
    st_topo *t = NULL;
    st_err err = {0};
    ck_assert_int_eq(st_topo_new(c, &t, &err), 0);
    return t;
}

START_TEST(test_a_pattern_following_its_shape_ends_as_the_solver_says)
{
    st_cluster_cfg c = cluster();
    st_topo *t = topo_of(&c);
    st_mm_trace *rec = st_mm_trace_new();
    double b0 = 64e6;
    int followed = 0;
    st_time first = pattern(t, &c, 16, 16, b0, rec, NULL, &followed);
    ck_assert_int_eq(first, pattern(t, &c, 16, 16, b0, NULL, NULL, NULL));
    ck_assert(st_mm_trace_whole(rec));
    ck_assert_uint_gt(st_mm_trace_calls(rec), 16 + 2); /* 16 adds, 16 removes, several solves */
    /* The micro-batch sizes a search tries, and sizes of no simple ratio: each equals the plain
     * run, to the nanosecond; the ratios of two follow the recording to its end. */
    const double scale[] = {1, 2, 4, 8, 0.5, 1.37, 3.000001};
    int whole = 0;
    for (size_t i = 0; i < sizeof scale / sizeof *scale; i++) {
        double b = b0 * scale[i];
        st_time direct = pattern(t, &c, 16, 16, b, NULL, NULL, NULL);
        st_time memo = pattern(t, &c, 16, 16, b, NULL, rec, &followed);
        ck_assert_msg(memo == direct, "bytes %g: %lld ns following, %lld ns solving", b,
                      (long long)memo, (long long)direct);
        if (scale[i] == 1 || scale[i] == 2 || scale[i] == 4 || scale[i] == 8)
            ck_assert_msg(followed, "bytes %g did not follow its shape's recording", b);
        whole += followed;
    }
    ck_assert_int_ge(whole, 4);
    st_mm_trace_free(rec);
    st_maxmin_free(pool);
    pool = NULL;
    st_topo_free(t);
}
END_TEST

START_TEST(test_a_recording_of_another_shape_is_not_taken)
{
    /* A memo key that left out the groups or the stride would hand this recording to the other
     * shapes: their calls differ from its first add, so the solver answers and the times stay
     * theirs. */
    st_cluster_cfg c = cluster();
    st_topo *t = topo_of(&c);
    st_mm_trace *rec = st_mm_trace_new();
    pattern(t, &c, 16, 16, 64e6, rec, NULL, NULL);
    const int64_t shapes[][2] = {{8, 8}, {16, 8}, {8, 24}, {12, 16}};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        int followed = 1;
        st_time direct = pattern(t, &c, shapes[i][0], shapes[i][1], 64e6, NULL, NULL, NULL);
        st_time memo = pattern(t, &c, shapes[i][0], shapes[i][1], 64e6, NULL, rec, &followed);
        ck_assert_int_eq(memo, direct);
        ck_assert_msg(!followed, "groups %lld stride %lld followed another shape's recording",
                      (long long)shapes[i][0], (long long)shapes[i][1]);
    }
    st_mm_trace_free(rec);
    st_maxmin_free(pool);
    pool = NULL;
    st_topo_free(t);
}
END_TEST

START_TEST(test_a_recording_serves_a_larger_fabric_that_routes_its_gpus_alike)
{
    /* Twice the nodes: the same leaves and uplinks under GPUs 0..31 (st_topo_sig_of), but the
     * leaf tier's link ids start further on. A recording names links by level and offset
     * (st_mmx_segments), so the larger fabric follows the smaller one's to its end, and its
     * times are its own plain net's to the nanosecond. */
    st_cluster_cfg small = cluster(), large = cluster();
    large.nodes = 64;
    st_topo *ts = topo_of(&small), *tl = topo_of(&large);
    ck_assert_int_ne(st_topo_level_first(ts, ST_LEVEL_LEAF),
                     st_topo_level_first(tl, ST_LEVEL_LEAF));
    st_mm_trace *rec = st_mm_trace_new();
    pattern(ts, &small, 16, 16, 64e6, rec, NULL, NULL);
    st_maxmin_free(pool); /* the spare is made on its own fabric */
    pool = NULL;
    const double scale[] = {1, 2, 4};
    for (size_t i = 0; i < sizeof scale / sizeof *scale; i++) {
        int followed = 0;
        double b = 64e6 * scale[i];
        st_time direct = pattern(tl, &large, 16, 16, b, NULL, NULL, NULL);
        st_time memo = pattern(tl, &large, 16, 16, b, NULL, rec, &followed);
        ck_assert_int_eq(memo, direct);
        ck_assert_msg(followed, "bytes %g did not follow the smaller fabric's recording", b);
    }
    st_mm_trace_free(rec);
    st_maxmin_free(pool);
    pool = NULL;
    st_topo_free(ts);
    st_topo_free(tl);
}
END_TEST

START_TEST(test_a_recording_past_its_cap_is_cut)
{
    /* A recording that outgrows ST_MM_TRACE_CAP stops and says so; the run's times are the
     * plain solver's all the same. Many small patterns on one recording reach the cap soon. */
    st_cluster_cfg c = cluster();
    st_topo *t = topo_of(&c);
    st_mm_trace *rec = st_mm_trace_new();
    st_fabsim *fs = st_fabsim_new(t, &c);
    st_net_trace(st_fabsim_net(fs), rec, NULL, 0, NULL);
    ends e = {0, 0};
    int64_t src[16], dst[16];
    for (int i = 0; i < 16; i++) {
        src[i] = i;
        dst[i] = i + 16;
    }
    while (st_mm_trace_whole(rec)) {
        st_xfer_spec s = {
            .src = src, .dst = dst, .n = 16, .bytes = 1e3, .key = 7, .done = on_done, .ctx = &e};
        st_net_start(st_fabsim_net(fs), &s);
        e.left++;
    }
    ck_assert_uint_le(st_mm_trace_bytes(rec), 2 * ST_MM_TRACE_CAP);
    st_engine_run(st_fabsim_engine(fs), ST_TIME_MAX);
    ck_assert_int_eq(e.left, 0);
    st_fabsim_free(fs);
    st_mm_trace_free(rec);
    st_topo_free(t);
}
END_TEST

/* Two entities on four links, the first with weights wa on links 0, 1, 2, the second with wb
 * on 2, 3, solved once, recorded into rec and following follow (NULL: none); their rates into
 * r[0..2); returns whether the solver had to answer (st_mmx_diverged). */
static int two_entities(const double *wa, const double *wb, st_mm_trace *rec,
                        const st_mm_trace *follow, double *r)
{
    static const double cap[4] = {10, 12, 30, 40};
    static const int32_t la[3] = {0, 1, 2}, lb[2] = {2, 3};
    st_mmx *x = st_mmx_new(4, cap, rec, &follow, follow ? 1 : 0, NULL);
    int64_t a = st_mmx_add(x, la, wa, 3), b = st_mmx_add(x, lb, wb, 2);
    const int64_t *id;
    const double *rate;
    size_t n = st_mmx_solve(x, &id, &rate);
    ck_assert_uint_eq(n, 2);
    for (size_t i = 0; i < n; i++)
        r[id[i] == a ? 0 : id[i] == b ? 1 : 2] = rate[i];
    int diverged = st_mmx_diverged(x);
    st_mmx_free(x);
    return diverged;
}

START_TEST(test_weights_of_one_and_others_are_told_apart)
{
    /* A recording stores an add's weights unless every one is 1: an add with the same links
     * but a 2 where the recording has a 1, or a 1 where it has a 2, is not its call, and the
     * rates are the plain solver's all the same. The recordings here come from one scratch
     * recording, cleared between runs (st_mm_trace_clear): the first copied, the second taken
     * out (st_mm_trace_take) as the step model keeps them, the scratch left empty. */
    const double one[3] = {1, 1, 1}, two[3] = {1, 2, 1};
    const double *wa[2] = {one, two};
    st_mm_trace *scratch = st_mm_trace_new(), *rec[2];
    double plain[2][2], r[2];
    for (int i = 0; i < 2; i++) {
        ck_assert(two_entities(wa[i], one, NULL, NULL, plain[i]));
        st_mm_trace_clear(scratch);
        two_entities(wa[i], one, scratch, NULL, r);
        st_mm_trace *c = st_mm_trace_copy(scratch);
        rec[i] = i == 0 ? st_mm_trace_copy(scratch) : st_mm_trace_take(scratch);
        ck_assert_uint_eq(st_mm_trace_bytes(rec[i]), st_mm_trace_bytes(c));
        ck_assert_uint_eq(st_mm_trace_calls(scratch), i == 0 ? 3 : 0);
        st_mm_trace_free(c);
        ck_assert(st_mm_trace_whole(rec[i]));
        ck_assert_uint_eq(st_mm_trace_calls(rec[i]), 3);
    }
    ck_assert(plain[0][0] != plain[1][0]);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            int diverged = two_entities(wa[j], one, NULL, rec[i], r);
            ck_assert_int_eq(diverged, i != j);
            ck_assert(r[0] == plain[j][0] && r[1] == plain[j][1]);
        }
    st_mm_trace_free(rec[0]);
    st_mm_trace_free(rec[1]);
    st_mm_trace_free(scratch);
}
END_TEST

Suite *mm_trace_suite(void)
{
    Suite *s = suite_create("mm_trace");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_a_pattern_following_its_shape_ends_as_the_solver_says);
    tcase_add_test(tc, test_a_recording_of_another_shape_is_not_taken);
    tcase_add_test(tc, test_a_recording_serves_a_larger_fabric_that_routes_its_gpus_alike);
    tcase_add_test(tc, test_a_recording_past_its_cap_is_cut);
    tcase_add_test(tc, test_weights_of_one_and_others_are_told_apart);
    suite_add_tcase(s, tc);
    return s;
}
