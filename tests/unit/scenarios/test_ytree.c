/* The located YAML tree (scenarios/ytree.c): how aliases and merge keys count toward the limit
 * of 10^6 nodes a document may expand to. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/ytree.h"

/* A mapping of n entries `<prefix>K: 0`, anchored as &prefix, under key prefix. */
static size_t anchored_map(char *y, size_t cap, const char *prefix, int n)
{
    size_t at = (size_t)snprintf(y, cap, "%s: &%s {", prefix, prefix);
    for (int k = 0; k < n; k++)
        at += (size_t)snprintf(y + at, cap - at, "%s%s%d: 0", k ? ", " : "", prefix, k);
    return at + (size_t)snprintf(y + at, cap - at, "}\n");
}

/* Two anchored mappings of n entries each, merged by `c: {<<: [*a, *b]}`, and a list of pad
 * zeros. The document expands to 1 (root) + 3 keys a, b, c + 2 anchored mappings of 1 + 2n nodes
 * + c's mapping, its `<<` and its list (3) + the 4n merged keys and values + pad's key, list and
 * zeros (2 + pad): 8n + 11 + pad nodes. */
static int parse_merge_of_two(int n, int pad, st_err *err)
{
    size_t cap = 32 * (size_t)n + 1024, at = 0;
    char *y = malloc(cap);
    ck_assert_ptr_nonnull(y);
    at += anchored_map(y + at, cap - at, "a", n);
    at += anchored_map(y + at, cap - at, "b", n);
    at += (size_t)snprintf(y + at, cap - at, "c: {<<: [*a, *b]}\npad: [");
    for (int k = 0; k < pad; k++)
        at += (size_t)snprintf(y + at, cap - at, "%s0", k ? ", " : "");
    at += (size_t)snprintf(y + at, cap - at, "]\n");
    ck_assert_uint_lt(at, cap);
    st_ytree *t = NULL;
    memset(err, 0, sizeof *err);
    int rc = st_ytree_parse("t.yaml", y, at, &t, err);
    if (!rc) {
        const st_ynode *c = st_ynode_get(st_ytree_root(t), "c");
        ck_assert_uint_eq(c->n, 2 * (size_t)n); /* every entry of both merged */
    }
    st_ytree_free(t);
    free(y);
    return rc;
}

/* `<<: [*a, *b]` counts each merged entry once: the aliases in the list were counted as they
 * were read and again when the merge copied their entries, so a document of 10^6 nodes with
 * 4 * 124998 of them merged was refused at about 1.5 * 10^6. */
START_TEST(test_a_merge_of_a_list_of_aliases_counts_each_entry_once)
{
    enum { N = 124998 }; /* 8N + 11 = 999995 nodes before the pad */
    st_err err;
    int rc = parse_merge_of_two(N, 5, &err); /* exactly the limit */
    ck_assert_msg(rc == 0, "%s:%u:%u: %s", err.loc.file, err.loc.line, err.loc.col, err.msg);
    rc = parse_merge_of_two(N, 6, &err); /* one node past it */
    ck_assert_int_eq(rc, ST_ELIMIT);
    ck_assert_ptr_nonnull(strstr(err.msg, "expands to more than 1000000 nodes"));
}
END_TEST

Suite *ytree_suite(void)
{
    Suite *s = suite_create("ytree");
    TCase *tc = tcase_create("ytree");
    tcase_set_timeout(tc, 60); /* two documents of 10^6 nodes: 12 s under ASan */
    tcase_add_test(tc, test_a_merge_of_a_list_of_aliases_counts_each_entry_once);
    suite_add_tcase(s, tc);
    return s;
}
