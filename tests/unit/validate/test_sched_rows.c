/* The scheduler rows of `strata validate --sched` (validate/sched.c): every ordering holds; the
 * Helios setup gives one row per Philly VC, the busy ones (shrunk) ordered SRTF < SJF < FIFO and
 * the light ones policy-independent within 1%; the Muri replay rows give the artifact's own mean
 * JCTs (its simulator run on trace3: SRTF 193,081.796 s, SRSF 185,021.880 s). */
#include <check.h>
#include <string.h>

#include "validate/validate.h"

START_TEST(test_sched_rows_hold)
{
    st_valid_harness *h = st_valid_sched_new(ST_SOURCE_DIR "/scenarios/validation/sched");
    int busy = 0, light = 0, replay = 0;
    for (size_t i = 0; i < st_valid_count(h); i++) {
        const st_valid_row *r;
        st_diag d = {0};
        st_err err = {0};
        ck_assert_int_eq(st_valid_case(h, i, &r, &d, &err), 0);
        ck_assert_msg(r->pass, "%s does not hold", r->name);
        if (strncmp(r->name, "helios-", 7) == 0 && r->bound_kind == ST_VALID_BOUND_FACTOR) {
            light++;
            ck_assert_double_le(r->predicted, 1.01);
        } else if (strncmp(r->name, "helios-", 7) == 0) {
            busy++;
            ck_assert_str_eq(r->order[0], "srtf");
            ck_assert_str_eq(r->order[2], "fifo");
        }
        if (strcmp(r->name, "muri-replay-trace3") == 0) {
            replay++;
            ck_assert_str_eq(r->order[0], "srsf");
            ck_assert_double_eq_tol(r->order_value[0], 185021.880164, 1e-5);
            ck_assert_double_eq_tol(r->order_value[1], 193081.796024, 1e-5);
        }
    }
    ck_assert_int_eq(busy, 6);
    ck_assert_int_eq(light, 4);
    ck_assert_int_eq(replay, 1);
    st_valid_harness_free(h);
}
END_TEST

Suite *sched_rows_suite(void)
{
    Suite *s = suite_create("sched_rows");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_sched_rows_hold);
    suite_add_tcase(s, tc);
    return s;
}
