/* Placement changes speed: a training job's step, and so its life, is forecast on the GPUs the
 * cluster run gives it. On scenarios/examples/placement-speed.yaml (four 8-GPU servers, two to a
 * leaf, 2:1 oversubscribed uplinks) the two-server job `wide` lands across both leaves under
 * `pack` and inside one under `topology-aware`. */
#include <check.h>
#include <string.h>

#include "models/forecast/run.h"
#include "scenarios/scenario.h"

typedef struct placed {
    st_scn *s;
    st_run r;
} placed;

static void run_under(const char *placement, placed *o)
{
    st_diag d = {0};
    memset(o, 0, sizeof *o);
    ck_assert_int_eq(
        st_scn_load_file(ST_SOURCE_DIR "/scenarios/examples/placement-speed.yaml", &o->s, &d), 0);
    st_run_spec sp = {.c = st_scn_cluster(o->s),
                      .w = st_scn_workload(o->s, 0),
                      .n = st_scn_workload_count(o->s),
                      .sched = st_scn_sched(o->s),
                      .placement = placement,
                      .seed = st_scn_seed(o->s)};
    st_err err = {0};
    ck_assert_msg(st_run_forecast(&sp, &o->r, &err) == 0, "forecast: %s", err.msg);
}

static void release(placed *o)
{
    st_run_release(&o->r);
    st_scn_free(o->s);
}

/* The leaf GPU g hangs from: 16 GPUs (two servers of 8) to a leaf in the example. */
static int64_t leaf_of(int64_t g)
{
    return g / 16;
}

START_TEST(test_a_job_across_two_oversubscribed_leaves_finishes_later_than_inside_one)
{
    placed pack, topo;
    run_under("pack", &pack);
    run_under("topology-aware", &topo);
    const st_forecast *wp = &pack.r.f[1], *wt = &topo.r.f[1];
    ck_assert_str_eq(wp->w->name, "wide");
    /* Where it lands: servers 1 and 2 (both leaves) under pack, servers 2 and 3 (leaf 1). */
    ck_assert_int_ne(leaf_of(wp->gpus[0]), leaf_of(wp->gpus[15]));
    ck_assert_int_eq(leaf_of(wt->gpus[0]), leaf_of(wt->gpus[15]));
    ck_assert_msg(wp->step.step_time_s > 1.1 * wt->step.step_time_s, "step %.6g s vs %.6g s",
                  wp->step.step_time_s, wt->step.step_time_s);
    ck_assert(wp->has_end && wt->has_end);
    ck_assert_msg(wp->end_s > wt->end_s, "end %.6g s vs %.6g s", wp->end_s, wt->end_s);
    ck_assert(pack.r.cluster.st.mean_jct_s > topo.r.cluster.st.mean_jct_s);
    /* `small` is on server 0 under both: its step is the packed one, bit for bit. */
    ck_assert_int_eq(pack.r.f[0].gpus[0], 0);
    ck_assert_int_eq(topo.r.f[0].gpus[0], 0);
    ck_assert(pack.r.f[0].step.step_time_s == topo.r.f[0].step.step_time_s);
    release(&pack);
    release(&topo);
}
END_TEST

Suite *placed_step_suite(void)
{
    Suite *s = suite_create("placed_step");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_a_job_across_two_oversubscribed_leaves_finishes_later_than_inside_one);
    suite_add_tcase(s, tc);
    return s;
}
