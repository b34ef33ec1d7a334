/* The policies' ordered sets (models/sched/rankset.h) against a plain model: thousands of seeded
 * adds and removes over two sets sharing one pool, and after each, every query (first fit, first
 * fit past a member, first fit whose figure passes, prefix, reach, k-th member, size, GPUs)
 * compared with a scan of the members in order. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "models/sched/rankset.h"

enum { N = 200, STEPS = 2000 };

typedef struct model {
    double key[N];   /* the order: key, then id */
    int64_t gpus[N]; /* the member's GPUs */
    double aux[N];
    int in[N]; /* 0: out, 1 or 2: in that set */
} model;

static int before(const void *ctx, size_t a, size_t b)
{
    const model *m = ctx;
    return m->key[a] < m->key[b] || (m->key[a] == m->key[b] && a < b);
}

static uint64_t next(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static const model *sorted_by; /* the model members() sorts by */

static int by_order(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return before(sorted_by, x, y) ? -1 : before(sorted_by, y, x);
}

/* The members of set k in order. */
static size_t members(const model *m, int k, size_t *out)
{
    size_t n = 0;
    for (size_t id = 0; id < N; id++)
        if (m->in[id] == k)
            out[n++] = id;
    sorted_by = m;
    qsort(out, n, sizeof *out, by_order);
    return n;
}

static int below_half(const void *ctx, double aux)
{
    (void)ctx;
    return aux <= 0.5;
}

static const model *cut_model;
static double cut_key;

static int cut_pred(const void *ctx, size_t id)
{
    (void)ctx;
    return cut_model->key[id] < cut_key;
}

static void check_queries(const st__rset *s, size_t root, const model *m, int k, uint64_t *x)
{
    size_t ord[N], n = members(m, k, ord);
    int64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        ck_assert_uint_eq(st__rset_at(s, root, i), ord[i]);
        total += m->gpus[ord[i]];
    }
    ck_assert_uint_eq(st__rset_at(s, root, n), ST__RSET_NONE);
    ck_assert_uint_eq(st__rset_size(s, root), n);
    ck_assert_int_eq(st__rset_gpus(s, root), total);
    int64_t b = (int64_t)(next(x) % 10);
    size_t after = n ? ord[next(x) % n] : ST__RSET_NONE, want = ST__RSET_NONE, want_after = want,
           want_ok = want;
    int past = 0;
    for (size_t i = 0; i < n; i++) {
        if (m->gpus[ord[i]] <= b && want == ST__RSET_NONE)
            want = ord[i];
        if (m->gpus[ord[i]] <= b && past && want_after == ST__RSET_NONE)
            want_after = ord[i];
        if (m->gpus[ord[i]] <= b && m->aux[ord[i]] <= 0.5 && want_ok == ST__RSET_NONE)
            want_ok = ord[i];
        past |= ord[i] == after;
    }
    ck_assert_uint_eq(st__rset_first(s, root, b, NULL, NULL), want);
    ck_assert_uint_eq(st__rset_first_after(s, root, after, b), want_after);
    ck_assert_uint_eq(st__rset_first(s, root, b, below_half, NULL), want_ok);
    cut_model = m;
    cut_key = (double)(next(x) % 20);
    size_t cn = 0, got_n;
    int64_t cg = 0, got_g;
    while (cn < n && m->key[ord[cn]] < cut_key)
        cg += m->gpus[ord[cn++]];
    st__rset_prefix(s, root, cut_pred, NULL, &got_n, &got_g);
    ck_assert_uint_eq(got_n, cn);
    ck_assert_int_eq(got_g, cg);
    int64_t need = (int64_t)(next(x) % 40) + 1, acc = 0;
    size_t at = ST__RSET_NONE, an = n;
    for (size_t i = 0; i < n; i++) {
        acc += m->gpus[ord[i]];
        if (acc >= need) {
            at = ord[i];
            an = i + 1;
            break;
        }
    }
    ck_assert_uint_eq(st__rset_reach(s, root, need, &got_n, &got_g), at);
    ck_assert_uint_eq(got_n, an);
    ck_assert_int_eq(got_g, at == ST__RSET_NONE ? total : acc);
}

START_TEST(test_rankset_matches_a_scan)
{
    static model m;
    st__rset s;
    size_t root[3] = {ST__RSET_NONE, ST__RSET_NONE, ST__RSET_NONE};
    uint64_t x = 88172645463325252u;
    st__rset_init(&s, N, before, &m);
    for (int step = 0; step < STEPS; step++) {
        size_t id = next(&x) % N;
        if (m.in[id]) {
            st__rset_remove(&s, &root[m.in[id]], id);
            m.in[id] = 0;
        } else {
            m.key[id] = (double)(next(&x) % 20); /* many ties: the id breaks them */
            m.gpus[id] = (int64_t)(next(&x) % 8) + 1;
            m.aux[id] = (double)(next(&x) % 100) / 100;
            m.in[id] = 1 + (int)(next(&x) % 2);
            st__rset_add(&s, &root[m.in[id]], id, m.gpus[id], m.aux[id]);
        }
        ck_assert_int_eq(st__rset_has(&s, id), m.in[id] != 0);
        check_queries(&s, root[1], &m, 1, &x);
        check_queries(&s, root[2], &m, 2, &x);
    }
    st__rset_release(&s);
}
END_TEST

Suite *rankset_suite(void)
{
    Suite *s = suite_create("rankset");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_rankset_matches_a_scan);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return s;
}
