/* The policies' ordered sets (models/sched/rankset.h) against a plain model: seeded adds and
 * removes over two sets sharing one pool, and after each, every query (first fit, first fit past
 * a member, first fit whose figure passes, prefix, members below a key, reach, k-th member, a
 * walk in order from one, last member, size, GPUs) compared with a scan of the members in
 * order; once with 200 ids, queries after every step, and once with 20,000, so that the trees
 * grow levels deep, split and empty their nodes, queries every few thousand steps. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "models/sched/rankset.h"

enum { N = 20000 };

typedef struct model {
    double key[N];   /* the order: key, then id */
    int64_t gpus[N]; /* the member's GPUs */
    double aux[N];
    int in[N]; /* 0: out, 1 or 2: in that set */
    size_t n;  /* ids below n */
} model;

static st__rkey key_of(const model *m, size_t id)
{
    return (st__rkey){st__rkey_double(m->key[id]), id};
}

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
    for (size_t id = 0; id < m->n; id++)
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

static int cut_pred(const void *ctx, const st__rkey *key)
{
    (void)ctx;
    return cut_model->key[key->lo] < cut_key;
}

static void check_queries(const st__rset *s, size_t root, const model *m, int k, uint64_t *x)
{
    static size_t ord[N];
    size_t n = members(m, k, ord);
    int64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        ck_assert_uint_eq(st__rset_at(s, root, i), ord[i]);
        total += m->gpus[ord[i]];
    }
    ck_assert_uint_eq(st__rset_at(s, root, n), ST__RSET_NONE);
    st__rset_pos p;
    size_t from = n ? (size_t)(next(x) % n) : 0, id = st__rset_seek(s, root, from, &p);
    for (size_t i = from; i < n; i++) { /* a walk from a random member to the end */
        ck_assert_uint_eq(id, ord[i]);
        id = st__rset_step(s, root, i, &p);
    }
    ck_assert_uint_eq(id, ST__RSET_NONE);
    ck_assert_uint_eq(st__rset_seek(s, root, n, &p), ST__RSET_NONE);
    ck_assert_uint_eq(st__rset_last(s, root), n ? ord[n - 1] : ST__RSET_NONE);
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
    st__rkey ak = after != ST__RSET_NONE ? key_of(m, after) : (st__rkey){0, 0};
    ck_assert_uint_eq(st__rset_first_after(s, root, after != ST__RSET_NONE ? &ak : NULL, b),
                      after != ST__RSET_NONE ? want_after : want);
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
    st__rkey bound = {st__rkey_double(cut_key), 0}; /* the same members: key below cut_key */
    st__rset_below(s, root, &bound, &got_n, &got_g);
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

/* steps adds and removes over ids below n, the queries checked every `every` steps; the sets
 * are emptied at the end, member by member. */
static void run(size_t n, int steps, int every)
{
    static model m;
    st__rset s;
    size_t root[3] = {ST__RSET_NONE, ST__RSET_NONE, ST__RSET_NONE};
    uint64_t x = 88172645463325252u;
    memset(&m, 0, sizeof m);
    m.n = n;
    st__rset_init(&s, n);
    for (int step = 0; step < steps; step++) {
        size_t id = next(&x) % n;
        if (m.in[id]) {
            st__rset_remove(&s, &root[m.in[id]], id);
            m.in[id] = 0;
        } else {
            m.key[id] = (double)(next(&x) % 20); /* many ties: the id breaks them */
            m.key[id] = next(&x) % 7 == 0 ? -m.key[id] : m.key[id]; /* and -0.0 ties 0.0 */
            m.gpus[id] = (int64_t)(next(&x) % 8) + 1;
            m.aux[id] = (double)(next(&x) % 100) / 100;
            m.in[id] = 1 + (int)(next(&x) % 2);
            st__rset_add(&s, &root[m.in[id]], id, key_of(&m, id), m.gpus[id], m.aux[id]);
        }
        ck_assert_int_eq(st__rset_has(&s, id), m.in[id] != 0);
        if (step % every == 0 || step == steps - 1) {
            check_queries(&s, root[1], &m, 1, &x);
            check_queries(&s, root[2], &m, 2, &x);
        }
    }
    for (size_t id = 0; id < n; id++)
        if (m.in[id]) {
            st__rset_remove(&s, &root[m.in[id]], id);
            m.in[id] = 0;
        }
    ck_assert_uint_eq(root[1], ST__RSET_NONE);
    ck_assert_uint_eq(root[2], ST__RSET_NONE);
    st__rset_release(&s);
}

START_TEST(test_rankset_matches_a_scan)
{
    run(200, 2000, 1);
}
END_TEST

START_TEST(test_deep_rankset_matches_a_scan)
{
    run(N, 200000, 4999);
}
END_TEST

Suite *rankset_suite(void)
{
    Suite *s = suite_create("rankset");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_rankset_matches_a_scan);
    tcase_add_test(tc, test_deep_rankset_matches_a_scan);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return s;
}
