/* A preemption costs a training job its checkpoint's commit (the save, GPUs still held) and its
 * restore (on resuming), both from the storage model. On scenarios/examples/preemption.yaml (one
 * 8-GPU server, `long` checkpointing asynchronously to a parallel file system, `short` arriving
 * at 10 min) srtf preempts `long` once; on one server the two run one after the other, so
 * without the charge `long` would end at its run time plus `short`'s. */
#include <check.h>
#include <string.h>

#include "models/forecast/run.h"
#include "scenarios/scenario.h"

START_TEST(test_preempted_training_job_pays_its_commit_and_restore)
{
    st_diag d = {0};
    st_scn *s = NULL;
    ck_assert_int_eq(st_scn_load_file(ST_SOURCE_DIR "/scenarios/examples/preemption.yaml", &s, &d),
                     0);
    st_run_spec sp = {.c = st_scn_cluster(s),
                      .w = st_scn_workload(s, 0),
                      .n = st_scn_workload_count(s),
                      .sched = st_scn_sched(s),
                      .seed = st_scn_seed(s)};
    st_run r;
    st_err err = {0};
    ck_assert_msg(st_run_forecast(&sp, &r, &err) == 0, "forecast: %s", err.msg);
    const st_forecast *lg = &r.f[0], *sh = &r.f[1];
    ck_assert_str_eq(lg->w->name, "long");
    ck_assert_int_eq(lg->preemptions, 1);
    ck_assert(lg->has_ckpt && lg->ckpt.commit_s > lg->ckpt.stall_s); /* async: commit, not stall */
    double save = lg->ckpt.commit_s, restore = lg->ckpt.restore_s;
    ck_assert(save > 0 && restore > 0);
    ck_assert_double_eq_tol(lg->preempted_s, save + restore, 1e-9);
    ck_assert_double_eq_tol(r.cluster.st.preempted_s, save + restore, 1e-9);
    /* `short` waits for the save; `long` ends save + restore after a free preemption's end. */
    ck_assert_double_eq_tol(sh->start_s, 600 + save, 1e-9);
    ck_assert(lg->has_end && sh->has_end);
    double d_long = r.cluster.job[0].duration_s, d_short = r.cluster.job[1].duration_s;
    ck_assert_double_eq_tol(lg->end_s, d_long + d_short + save + restore, 1e-6);
    ck_assert_double_eq(sh->preempted_s, 0);
    st_run_release(&r);
    st_scn_free(s);
}
END_TEST

Suite *preempt_cost_suite(void)
{
    Suite *s = suite_create("preempt_cost");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_preempted_training_job_pays_its_commit_and_restore);
    suite_add_tcase(s, tc);
    return s;
}
