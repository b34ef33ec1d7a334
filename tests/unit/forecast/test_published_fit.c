/* A run that ran on real hardware must fit in the memory model. Narayanan et al. (SC21, arXiv
 * 2104.04473) Table 2 trained GPT 530B under ZeRO-3 on 640 A100 80GB at microbatch 4 and
 * measured 138 TFLOP/s per GPU, so its plan fitted in what CUDA lets a framework allocate. With
 * the reserved term (CUDA context, NCCL buffers) counted, the capacity it is judged against must
 * be that allocatable total, not the datasheet's 80 GB read as 80e9 bytes. */
#include <check.h>
#include <math.h>

#include "models/forecast/run.h"
#include "scenarios/scenario.h"

static void forecast_file(const char *path, int *fits, double *total, double *capacity)
{
    st_scn *s = NULL;
    st_diag d = {0};
    ck_assert_int_eq(st_scn_load_file(path, &s, &d), 0);
    st_run_spec spec = {.c = st_scn_cluster(s),
                        .w = st_scn_workload(s, 0),
                        .n = st_scn_workload_count(s),
                        .failures = st_scn_failures(s),
                        .sched = st_scn_sched(s),
                        .seed = st_scn_seed(s)};
    st_run run;
    st_err err = {0};
    ck_assert_int_eq(st_run_forecast(&spec, &run, &err), 0);
    *fits = run.f[0].mem.fits;
    *total = run.f[0].mem.total;
    *capacity = run.f[0].mem.capacity;
    st_run_release(&run);
    st_scn_free(s);
}

START_TEST(test_sc21_zero3_530b_on_640_a100_fits)
{
    int fits = 0;
    double total = 0, capacity = 0;
    forecast_file(ST_SOURCE_DIR "/scenarios/validation/sc21-zero3-530b-640gpu.yaml", &fits, &total,
                  &capacity);
    ck_assert_msg(fits, "published run forecast not to fit: %.4g of %.4g bytes", total, capacity);
    /* and it is near the limit, as the paper says (it did not fit on 560 GPUs). The figures
     * docs/models/memory-model.md quotes: 79.91 GB, under 80e9 bytes now, 5.2 GB to spare */
    ck_assert_double_gt(total, 0.9 * capacity);
    ck_assert_double_lt(fabs(total / 79.91e9 - 1), 1e-3);
    ck_assert_double_lt(fabs((capacity - total) / 5.19e9 - 1), 1e-2);
}
END_TEST

Suite *published_fit_suite(void)
{
    Suite *s = suite_create("published_fit");
    TCase *tc = tcase_create("sc21");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_sc21_zero3_530b_on_640_a100_fits);
    suite_add_tcase(s, tc);
    return s;
}
