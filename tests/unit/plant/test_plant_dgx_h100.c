/* The DGX H100 node of `strata validate --plant` (scenarios/validation/plant/dgx-h100-node.yaml):
 * its non-GPU draw is the sum of the parts its comment lists, each at its published maximum, and
 * the node's peak (its one-node rack's coincident peak) is the hand calculation the comment shows,
 * with every GPU at its 700 W power limit. */
#include <check.h>
#include <math.h>

#include "models/forecast/run.h"
#include "scenarios/scenario.h"

/* The node's parts besides its GPUs, W (the case file's comment gives each source). */
static double node_base_w(void)
{
    double cpus = 2 * 350.0;  /* two Xeon Platinum 8480C at the 8480+'s 350 W TDP */
    double optics = 4 * 17.0; /* four twin-port 800 Gb/s OSFP transceivers (MMS4X00-NS) */
    return cpus + optics;
}

START_TEST(test_dgx_h100_node_is_its_parts_at_the_gpus_power_limit)
{
    st_scn *s = NULL;
    st_diag d = {0};
    ck_assert_int_eq(
        st_scn_load_file(ST_SOURCE_DIR "/scenarios/validation/plant/dgx-h100-node.yaml", &s, &d),
        0);
    const st_cluster_cfg *c = st_scn_cluster(s);
    ck_assert_double_eq(node_base_w(), 768.0);
    ck_assert_double_eq(c->node.base_power_w, node_base_w());
    ck_assert_int_eq(c->gpus_per_node, 8);
    ck_assert_int_eq(c->racks.nodes_per_rack, 1);
    st_run_spec spec = {.c = c,
                        .w = st_scn_workload(s, 0),
                        .n = st_scn_workload_count(s),
                        .sched = st_scn_sched(s),
                        .seed = st_scn_seed(s)};
    st_run run;
    st_err err = {0};
    ck_assert_int_eq(st_run_forecast(&spec, &run, &err), 0);
    ck_assert_int_eq(run.has_plant, 1);
    const st_plant_result *p = &run.plant;
    /* the training peak is the rated one: all 8 GPUs at their power limit, none throttled */
    ck_assert_double_eq(c->gpu->tdp_w, 700.0);
    ck_assert_double_lt(fabs(p->jobs[0].peak_w / (8 * 700.0) - 1), 1e-12);
    ck_assert_double_eq(p->throttle_fraction, 0.0); /* air at 24 C: no GPU throttles */
    /* (768 + 8 x 700) W through the 96% supplies: 6,633.3 W, the one rack's peak */
    double eta = st_plant_preset_get()->psu_efficiency;
    ck_assert_int_eq(p->racks, 1);
    ck_assert_double_lt(fabs(p->rack_peak_w / ((768.0 + 8 * 700.0) / eta) - 1), 1e-12);
    ck_assert_double_lt(fabs(p->rack_peak_w - 6633.3), 0.05);
    st_run_release(&run);
    st_scn_free(s);
}
END_TEST

Suite *plant_dgx_h100_suite(void)
{
    Suite *s = suite_create("plant_dgx_h100");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_dgx_h100_node_is_its_parts_at_the_gpus_power_limit);
    suite_add_tcase(s, tc);
    return s;
}
