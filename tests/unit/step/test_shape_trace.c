/* The step model's recordings by pattern shape (models/step/shape_trace.h): a pattern finds the
 * recordings of its shape whatever its bytes, and none of a shape that differs in any other
 * field of the collective memo's key; a shape keeps ST_SHAPE_TRACE_PER at most. */
#include <check.h>

#include "models/step/shape_trace.h"

static const st_coll_memo_key base = {.op = ST_COLL_SEND_RECV,
                                      .n = 2,
                                      .stride = 8192,
                                      .groups = 8192,
                                      .gstride = 1,
                                      .bytes = 33554432,
                                      .place = 0,
                                      .fabric = 2};

START_TEST(test_a_shape_is_found_whatever_its_bytes_and_only_by_its_fields)
{
    st__shape_traces *s = st__shape_traces_new();
    st_mm_trace *t = st_mm_trace_new();
    st__shape_traces_put(s, &base, t);
    const st_mm_trace *const *got;
    st_coll_memo_key k = base;
    k.bytes = 67108864; /* the next micro-batch size: the same shape */
    ck_assert_uint_eq(st__shape_traces_find(s, &k, &got), 1);
    ck_assert_ptr_eq(got[0], t);
    k.bytes = 1.5;
    ck_assert_uint_eq(st__shape_traces_find(s, &k, &got), 1);
    /* Each other field tells shapes apart. */
    for (int f = 0; f < 7; f++) {
        k = base;
        switch (f) {
        case 0:
            k.op = ST_COLL_ALL_REDUCE;
            break;
        case 1:
            k.n = 4;
            break;
        case 2:
            k.stride = 4096;
            break;
        case 3:
            k.groups = 4096;
            break;
        case 4:
            k.gstride = 2;
            break;
        case 5:
            k.place = 1;
            break;
        default:
            k.fabric = 1;
        }
        ck_assert_msg(st__shape_traces_find(s, &k, &got) == 0, "field %d ignored", f);
    }
    ck_assert_uint_eq(st__shape_traces_count(s), 1);
    st__shape_traces_free(s);
}
END_TEST

START_TEST(test_a_shape_keeps_a_bounded_number_of_recordings)
{
    st__shape_traces *s = st__shape_traces_new();
    for (int i = 0; i < ST_SHAPE_TRACE_PER + 3; i++)
        st__shape_traces_put(s, &base, st_mm_trace_new()); /* those past the bound are freed */
    const st_mm_trace *const *got;
    ck_assert_uint_eq(st__shape_traces_find(s, &base, &got), ST_SHAPE_TRACE_PER);
    ck_assert_uint_eq(st__shape_traces_count(s), ST_SHAPE_TRACE_PER);
    ck_assert_uint_le(st__shape_traces_bytes(s), ST_SHAPE_TRACE_BUDGET);
    st__shape_traces_free(s);
}
END_TEST

Suite *shape_trace_suite(void)
{
    Suite *s = suite_create("shape_trace");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_a_shape_is_found_whatever_its_bytes_and_only_by_its_fields);
    tcase_add_test(tc, test_a_shape_keeps_a_bounded_number_of_recordings);
    suite_add_tcase(s, tc);
    return s;
}
