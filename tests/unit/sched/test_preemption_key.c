/* `scheduler.preemption: false` holds every preemptive policy to no preemption: on one 8-GPU
 * node, A (8 GPUs, 100 s) at 0 and B (8 GPUs, 20 s) at 10, srtf, srsf and tiresias (a 100
 * GPU-s limit) would preempt A for B; with the key false A runs to 100 and B follows. */
#include <check.h>
#include <stdlib.h>

#include "models/sched/cluster.h"

static const char *const preemptive[] = {"srtf", "srsf", "tiresias", "fair-share"};

START_TEST(test_preemption_false_keeps_running_jobs)
{
    st_cluster_cfg c = {.nodes = 1, .gpus_per_node = 8, .nvlink_domain = 8};
    const st_cluster_job jobs[] = {{0, 100, 100, 8, 0, 1}, {10, 20, 20, 8, 0, 0}};
    static const char *const tenants[] = {"a", "b"};
    static const st_quota quota[] = {{"a", 1, {0}}};
    for (int off = 0; off < 2; off++) {
        st_sched_cfg cfg = {.preemption = off ? 0 : -1, .quotas = quota, .n_quotas = 1};
        cfg.tiresias = (st_tiresias_cfg){.queues = 2, .limit_gpu_s = {100}};
        st_cluster_spec sp = {.c = &c,
                              .sched = &cfg,
                              .policy = preemptive[_i],
                              .jobs = jobs,
                              .n = 2,
                              .tenants = tenants,
                              .n_tenants = 2};
        st_cluster_result r;
        st_err err = {0};
        ck_assert_int_eq(st_cluster_run(&sp, &r, &err), 0);
        if (off) {
            ck_assert_int_eq(r.st.preemptions, 0);
            ck_assert_double_eq(r.job[0].end_s, 100);
            ck_assert_double_eq(r.job[1].start_s, 100);
        } else {
            ck_assert_msg(r.st.preemptions >= 1, "%s: %lld preemptions", preemptive[_i],
                          (long long)r.st.preemptions);
        }
        st_cluster_result_release(&r);
    }
}
END_TEST

Suite *preemption_key_suite(void)
{
    Suite *s = suite_create("preemption_key");
    TCase *tc = tcase_create("core");
    tcase_add_loop_test(tc, test_preemption_false_keeps_running_jobs, 0, 4);
    suite_add_tcase(s, tc);
    return s;
}
