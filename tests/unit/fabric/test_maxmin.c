/* Max-min solver: hand-computed allocations, weights, incremental re-solves, and the max-min
 * optimality conditions on random instances. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/fabric/maxmin.h"
#include "sim/rng.h"

#define EPS 1e-12

START_TEST(test_line_network_gives_long_flow_and_short_flows_one_half)
{
    /* Bertsekas and Gallager's example: flow 0 crosses three unit links, flows 1-3 one each. */
    double cap[3] = {1, 1, 1};
    st_maxmin *m = st_maxmin_new(3, cap);
    int32_t all[3] = {0, 1, 2};
    int64_t f0 = st_maxmin_add(m, all, NULL, 3);
    int64_t f[3];
    for (int32_t i = 0; i < 3; i++)
        f[i] = st_maxmin_add(m, &i, NULL, 1);
    ck_assert_uint_eq(st_maxmin_solve(m, NULL), 4);
    ck_assert_double_eq_tol(st_maxmin_rate(m, f0), 0.5, EPS);
    for (int i = 0; i < 3; i++) {
        ck_assert_double_eq_tol(st_maxmin_rate(m, f[i]), 0.5, EPS);
        ck_assert_double_eq_tol(st_maxmin_load(m, i), 1.0, EPS);
    }
    st_maxmin_free(m);
}
END_TEST

START_TEST(test_unequal_capacities_give_the_unbottlenecked_flow_the_rest)
{
    /* Link A (cap 1) carries f1 and f2, link B (cap 2) carries f2 and f3: A saturates at 0.5,
     * freezing f1 and f2; f3 then takes what f2 leaves on B. */
    double cap[2] = {1, 2};
    st_maxmin *m = st_maxmin_new(2, cap);
    int32_t a = 0, b = 1, ab[2] = {0, 1};
    int64_t f1 = st_maxmin_add(m, &a, NULL, 1);
    int64_t f2 = st_maxmin_add(m, ab, NULL, 2);
    int64_t f3 = st_maxmin_add(m, &b, NULL, 1);
    st_maxmin_solve(m, NULL);
    ck_assert_double_eq_tol(st_maxmin_rate(m, f1), 0.5, EPS);
    ck_assert_double_eq_tol(st_maxmin_rate(m, f2), 0.5, EPS);
    ck_assert_double_eq_tol(st_maxmin_rate(m, f3), 1.5, EPS);
    ck_assert_double_eq_tol(st_maxmin_load(m, 1), 2.0, EPS);
    st_maxmin_free(m);
}
END_TEST

START_TEST(test_weights_multiply_an_entitys_load_but_rates_rise_together)
{
    /* Link 0 (cap 3): a with weight 3 alone, so a = 1. Link 1 (cap 10): a with weight 3 and b
     * with weight 1; once a is frozen at 1 (load 3), b takes the remaining 7. Link 2 (cap 1):
     * c weight 2 and d weight 1 share at level 1/3 each, loads 2/3 and 1/3. */
    double cap[3] = {3, 10, 1};
    st_maxmin *m = st_maxmin_new(3, cap);
    int32_t la[2] = {0, 1}, lb = 1, lc = 2;
    double wa[2] = {3, 3}, wc = 2;
    int64_t a = st_maxmin_add(m, la, wa, 2);
    int64_t b = st_maxmin_add(m, &lb, NULL, 1);
    int64_t c = st_maxmin_add(m, &lc, &wc, 1);
    int64_t d = st_maxmin_add(m, &lc, NULL, 1);
    st_maxmin_solve(m, NULL);
    ck_assert_double_eq_tol(st_maxmin_rate(m, a), 1.0, EPS);
    ck_assert_double_eq_tol(st_maxmin_rate(m, b), 7.0, EPS);
    ck_assert_double_eq_tol(st_maxmin_rate(m, c), 1.0 / 3, EPS);
    ck_assert_double_eq_tol(st_maxmin_rate(m, d), 1.0 / 3, EPS);
    ck_assert_double_eq_tol(st_maxmin_load(m, 1), 10.0, EPS);
    ck_assert_double_eq_tol(st_maxmin_load(m, 2), 1.0, EPS);
    st_maxmin_free(m);
}
END_TEST

START_TEST(test_repeated_links_merge_into_one_summed_weight)
{
    /* A ring whose 4 members cross link 0 behaves as one entity of weight 4 on it. */
    double cap[2] = {8, 100};
    st_maxmin *m = st_maxmin_new(2, cap);
    int32_t l[6] = {0, 1, 0, 0, 1, 0};
    int64_t id = st_maxmin_add(m, l, NULL, 6);
    const int32_t *links;
    const double *w;
    ck_assert_int_eq(st_maxmin_entity_links(m, id, &links, &w), 2);
    ck_assert_int_eq(links[0], 0);
    ck_assert_int_eq(links[1], 1);
    ck_assert_double_eq(w[0], 4);
    ck_assert_double_eq(w[1], 2);
    st_maxmin_solve(m, NULL);
    ck_assert_double_eq_tol(st_maxmin_rate(m, id), 2.0, EPS);
    st_maxmin_free(m);
}
END_TEST

START_TEST(test_entity_without_links_is_unconstrained)
{
    double cap[1] = {1};
    st_maxmin *m = st_maxmin_new(1, cap);
    int64_t id = st_maxmin_add(m, NULL, NULL, 0);
    const int64_t *ch;
    ck_assert_uint_eq(st_maxmin_solve(m, &ch), 1);
    ck_assert_int_eq(ch[0], id);
    ck_assert(isinf(st_maxmin_rate(m, id)));
    ck_assert_double_eq(st_maxmin_load(m, 0), 0);
    st_maxmin_free(m);
}
END_TEST

START_TEST(test_removal_speeds_up_the_others_and_reports_them)
{
    double cap[1] = {10};
    st_maxmin *m = st_maxmin_new(1, cap);
    int32_t l = 0;
    int64_t a = st_maxmin_add(m, &l, NULL, 1);
    int64_t b = st_maxmin_add(m, &l, NULL, 1);
    const int64_t *ch;
    ck_assert_uint_eq(st_maxmin_solve(m, &ch), 2);
    ck_assert(ch[0] < ch[1]);
    ck_assert_double_eq_tol(st_maxmin_rate(m, a), 5, EPS);
    st_maxmin_remove(m, b);
    ck_assert_uint_eq(st_maxmin_solve(m, &ch), 1);
    ck_assert_int_eq(ch[0], a);
    ck_assert_double_eq_tol(st_maxmin_rate(m, a), 10, EPS);
    st_maxmin_remove(m, a);
    ck_assert_uint_eq(st_maxmin_solve(m, &ch), 0);
    ck_assert_double_eq(st_maxmin_load(m, 0), 0);
    /* A removed id is reused by the next add, and that entity is reported as new. */
    int64_t c = st_maxmin_add(m, &l, NULL, 1);
    ck_assert(c == a || c == b);
    ck_assert_uint_eq(st_maxmin_solve(m, &ch), 1);
    ck_assert_double_eq_tol(st_maxmin_rate(m, c), 10, EPS);
    st_maxmin_free(m);
}
END_TEST

START_TEST(test_unchanged_rates_are_not_reported)
{
    /* Adding an entity on a link that is not the bottleneck of the existing one leaves it. */
    double cap[2] = {1, 10};
    st_maxmin *m = st_maxmin_new(2, cap);
    int32_t l01[2] = {0, 1}, l1 = 1;
    int64_t a = st_maxmin_add(m, l01, NULL, 2);
    st_maxmin_solve(m, NULL);
    int64_t b = st_maxmin_add(m, &l1, NULL, 1);
    const int64_t *ch;
    ck_assert_uint_eq(st_maxmin_solve(m, &ch), 1);
    ck_assert_int_eq(ch[0], b);
    ck_assert_double_eq_tol(st_maxmin_rate(m, a), 1, EPS);
    ck_assert_double_eq_tol(st_maxmin_rate(m, b), 9, EPS);
    ck_assert_uint_eq(st_maxmin_solve(m, &ch), 0);
    st_maxmin_free(m);
}
END_TEST

/* A chain A-0-B-1-C-2-D is one component: removing B re-solves A, C and D without searching for
 * them, and leaves two pieces, {A, link 0} and {C, D, links 1-2}; removing A then solves its
 * piece alone (nothing is left on link 0), as a search from the dirty link finds, not the old
 * component's other piece. */
START_TEST(test_removals_from_one_component_re_solve_exactly_the_pieces_left)
{
    double cap[3] = {1, 1, 1};
    st_maxmin *m = st_maxmin_new(3, cap);
    int32_t l0 = 0, b[2] = {0, 1}, c[2] = {1, 2}, l2 = 2;
    int64_t ea = st_maxmin_add(m, &l0, NULL, 1), eb = st_maxmin_add(m, b, NULL, 2);
    int64_t ec = st_maxmin_add(m, c, NULL, 2), ed = st_maxmin_add(m, &l2, NULL, 1);
    ck_assert_uint_eq(st_maxmin_solve(m, NULL), 4);
    ck_assert_uint_eq(st_maxmin_solved_entities(m), 4);
    st_maxmin_remove(m, eb);
    st_maxmin_solve(m, NULL);
    ck_assert_uint_eq(st_maxmin_solved_entities(m), 3);
    ck_assert_double_eq_tol(st_maxmin_rate(m, ea), 1.0, EPS);
    ck_assert_double_eq_tol(st_maxmin_rate(m, ec), 0.5, EPS);
    ck_assert_double_eq_tol(st_maxmin_rate(m, ed), 0.5, EPS);
    st_maxmin_remove(m, ea);
    ck_assert_uint_eq(st_maxmin_solve(m, NULL), 0);
    ck_assert_uint_eq(st_maxmin_solved_entities(m), 0);
    ck_assert_double_eq_tol(st_maxmin_load(m, 0), 0.0, EPS);
    st_maxmin_remove(m, ed);
    st_maxmin_solve(m, NULL);
    ck_assert_uint_eq(st_maxmin_solved_entities(m), 1);
    ck_assert_double_eq_tol(st_maxmin_rate(m, ec), 1.0, EPS);
    st_maxmin_free(m);
}
END_TEST

/* Removing entities leaves every rate below the least removed one as it was, so a solve after
 * removals alone refills only the entities at or above it (docs/models/flow-model.md, "Solves
 * after removals"). Link 0 (cap 1) holds slow s1 and s2 at 0.5; link 1 (cap 10) holds s1 and
 * fast f1, f2 at 4.75 each. Removing f1 refills f2 alone, to 9.5; s1 and s2 are not visited. */
START_TEST(test_a_removal_refills_only_the_entities_at_or_above_its_rate)
{
    double cap[2] = {1, 10};
    st_maxmin *m = st_maxmin_new(2, cap);
    int32_t l0 = 0, l1 = 1, both[2] = {0, 1};
    int64_t s1 = st_maxmin_add(m, both, NULL, 2), s2 = st_maxmin_add(m, &l0, NULL, 1);
    int64_t f1 = st_maxmin_add(m, &l1, NULL, 1), f2 = st_maxmin_add(m, &l1, NULL, 1);
    st_maxmin_solve(m, NULL);
    ck_assert_double_eq_tol(st_maxmin_rate(m, f2), 4.75, EPS);
    st_maxmin_remove(m, f1);
    const int64_t *ch;
    ck_assert_uint_eq(st_maxmin_solve(m, &ch), 1);
    ck_assert_int_eq(ch[0], f2);
    ck_assert_uint_eq(st_maxmin_solved_entities(m), 1);
    ck_assert_double_eq_tol(st_maxmin_rate(m, f2), 9.5, EPS);
    ck_assert_double_eq_tol(st_maxmin_rate(m, s1), 0.5, EPS);
    ck_assert_double_eq_tol(st_maxmin_rate(m, s2), 0.5, EPS);
    ck_assert_double_eq_tol(st_maxmin_load(m, 1), 10.0, EPS);
    /* Removing a slow one refills everything at or above 0.5: s2 and f2. */
    st_maxmin_remove(m, s1);
    st_maxmin_solve(m, NULL);
    ck_assert_uint_eq(st_maxmin_solved_entities(m), 2);
    ck_assert_double_eq_tol(st_maxmin_rate(m, s2), 1.0, EPS);
    ck_assert_double_eq_tol(st_maxmin_rate(m, f2), 10.0, EPS);
    st_maxmin_free(m);
}
END_TEST

START_TEST(test_solve_touches_only_the_changed_component)
{
    enum { N = 10000 };
    double *cap = malloc(N * sizeof *cap);
    for (int i = 0; i < N; i++)
        cap[i] = 1 + i % 7;
    st_maxmin *m = st_maxmin_new(N, cap);
    int64_t *id = malloc(N * sizeof *id);
    for (int32_t i = 0; i < N; i++)
        id[i] = st_maxmin_add(m, &i, NULL, 1);
    ck_assert_uint_eq(st_maxmin_solve(m, NULL), N);
    ck_assert_uint_eq(st_maxmin_solved_entities(m), N);
    int32_t l = 4321;
    int64_t x = st_maxmin_add(m, &l, NULL, 1);
    const int64_t *ch;
    const int32_t *links;
    ck_assert_uint_eq(st_maxmin_solve(m, &ch), 2);
    ck_assert_uint_eq(st_maxmin_solved_entities(m), 2);
    ck_assert_uint_eq(st_maxmin_solved_links(m, &links), 1);
    ck_assert_int_eq(links[0], l);
    ck_assert_double_eq_tol(st_maxmin_rate(m, x), cap[l] / 2, EPS);
    st_maxmin_remove(m, id[17]);
    ck_assert_uint_eq(st_maxmin_solve(m, &ch), 0);
    ck_assert_uint_eq(st_maxmin_solved_entities(m), 0);
    ck_assert_uint_eq(st_maxmin_solved_links(m, NULL), 1);
    st_maxmin_free(m);
    free(id);
    free(cap);
}
END_TEST

/* ---- Random instances. ---- */

enum { R_LINKS = 50, R_ENTS = 100, R_MAXDEG = 5 };

typedef struct rinst {
    double cap[R_LINKS];
    int32_t link[R_ENTS][R_MAXDEG];
    double w[R_ENTS][R_MAXDEG];
    int deg[R_ENTS];
} rinst;

static void random_instance(st_rng *r, rinst *in, int weighted)
{
    for (int l = 0; l < R_LINKS; l++)
        in->cap[l] = 0.5 + 10 * st_rng_uniform(r);
    for (int e = 0; e < R_ENTS; e++) {
        in->deg[e] = 1 + (int)st_rng_uniform_int(r, R_MAXDEG);
        for (int j = 0; j < in->deg[e]; j++) {
            in->link[e][j] = (int32_t)st_rng_uniform_int(r, R_LINKS);
            in->w[e][j] = weighted ? 0.25 + 4 * st_rng_uniform(r) : 1;
        }
    }
}

/* Feasibility and the max-min optimality condition: every entity has a saturated link on which
 * no other entity has a higher rate. */
static void check_maxmin(const st_maxmin *m, const rinst *in, const int64_t *id, const int *on)
{
    for (int l = 0; l < R_LINKS; l++)
        ck_assert(st_maxmin_load(m, l) <= in->cap[l] * (1 + 1e-9));
    for (int e = 0; e < R_ENTS; e++) {
        if (!on[e])
            continue;
        double r = st_maxmin_rate(m, id[e]);
        ck_assert(r > 0 && isfinite(r));
        int bottleneck = 0;
        for (int j = 0; j < in->deg[e] && !bottleneck; j++) {
            int32_t l = in->link[e][j];
            if (st_maxmin_load(m, l) < in->cap[l] * (1 - 1e-9))
                continue;
            int highest = 1;
            for (int f = 0; f < R_ENTS && highest; f++)
                for (int k = 0; k < in->deg[f] && on[f]; k++)
                    if (in->link[f][k] == l && st_maxmin_rate(m, id[f]) > r * (1 + 1e-9))
                        highest = 0;
            bottleneck = highest;
        }
        ck_assert_msg(bottleneck, "entity %d has no bottleneck link", e);
    }
}

static int64_t add_inst(st_maxmin *m, const rinst *in, int e)
{
    return st_maxmin_add(m, in->link[e], in->w[e], in->deg[e]);
}

/* Every entity of in added to m (ids into id, all on) and solved once. */
static void add_all(st_maxmin *m, const rinst *in, int64_t *id, int *on)
{
    for (int e = 0; e < R_ENTS; e++) {
        id[e] = add_inst(m, in, e);
        on[e] = 1;
    }
    st_maxmin_solve(m, NULL);
}

/* m's rates and loads are those a fresh solver gives the entities still on, within 1e-9. */
static void assert_as_fresh(const st_maxmin *m, const rinst *in, const int64_t *id, const int *on)
{
    int64_t id2[R_ENTS];
    st_maxmin *fresh = st_maxmin_new(R_LINKS, in->cap);
    for (int e = 0; e < R_ENTS; e++)
        if (on[e])
            id2[e] = add_inst(fresh, in, e);
    st_maxmin_solve(fresh, NULL);
    for (int e = 0; e < R_ENTS; e++)
        if (on[e])
            ck_assert_double_eq_tol(st_maxmin_rate(m, id[e]), st_maxmin_rate(fresh, id2[e]),
                                    1e-9 * st_maxmin_rate(fresh, id2[e]));
    for (int l = 0; l < R_LINKS; l++)
        ck_assert_double_eq_tol(st_maxmin_load(m, l), st_maxmin_load(fresh, l), 1e-9 * in->cap[l]);
    st_maxmin_free(fresh);
}

START_TEST(test_random_instances_are_feasible_and_max_min_fair)
{
    st_rng *r = st_rng_new(12345, st_rng_tag("test"), (uint64_t)_i, st_rng_tag("maxmin"));
    rinst in;
    int64_t id[R_ENTS];
    int on[R_ENTS];
    for (int inst = 0; inst < 100; inst++) {
        random_instance(r, &in, _i);
        st_maxmin *m = st_maxmin_new(R_LINKS, in.cap);
        for (int e = 0; e < R_ENTS; e++) {
            id[e] = add_inst(m, &in, e);
            on[e] = 1;
        }
        st_maxmin_solve(m, NULL);
        check_maxmin(m, &in, id, on);
        st_maxmin_free(m);
    }
    st_rng_free(r);
}
END_TEST

START_TEST(test_incremental_solves_after_removals_match_a_fresh_solve)
{
    st_rng *r = st_rng_new(777, st_rng_tag("test"), (uint64_t)_i, st_rng_tag("maxmin-inc"));
    rinst in;
    int64_t id[R_ENTS];
    int on[R_ENTS];
    for (int inst = 0; inst < 100; inst++) {
        random_instance(r, &in, _i);
        st_maxmin *m = st_maxmin_new(R_LINKS, in.cap);
        add_all(m, &in, id, on);
        /* Rounds of removals and re-additions, each followed by an incremental solve. */
        for (int round = 0; round < 4; round++) {
            for (int k = 0; k < 15; k++) {
                int e = (int)st_rng_uniform_int(r, R_ENTS);
                if (on[e])
                    st_maxmin_remove(m, id[e]);
                else
                    id[e] = add_inst(m, &in, e);
                on[e] = !on[e];
            }
            st_maxmin_solve(m, NULL);
        }
        check_maxmin(m, &in, id, on);
        assert_as_fresh(m, &in, id, on);
        st_maxmin_free(m);
    }
    st_rng_free(r);
}
END_TEST

/* Rounds of removals alone (each solve refills only what is at or above the least removed
 * rate) end where a fresh solve of what is left does, and max-min fair at every round. */
START_TEST(test_solves_after_removals_alone_match_a_fresh_solve)
{
    st_rng *r = st_rng_new(31337, st_rng_tag("test"), (uint64_t)_i, st_rng_tag("maxmin-rm"));
    rinst in;
    int64_t id[R_ENTS];
    int on[R_ENTS];
    for (int inst = 0; inst < 100; inst++) {
        random_instance(r, &in, _i);
        st_maxmin *m = st_maxmin_new(R_LINKS, in.cap);
        add_all(m, &in, id, on);
        for (int round = 0; round < 6; round++) {
            for (int k = 0; k < 1 + round; k++) {
                int e = (int)st_rng_uniform_int(r, R_ENTS);
                if (on[e])
                    st_maxmin_remove(m, id[e]);
                on[e] = 0;
            }
            st_maxmin_solve(m, NULL);
            check_maxmin(m, &in, id, on);
        }
        assert_as_fresh(m, &in, id, on);
        st_maxmin_free(m);
    }
    st_rng_free(r);
}
END_TEST

/* A solver that drops its loads (st_maxmin_drop_loads) reports the same changes and rates, bit
 * for bit, through adds, removals and solves: no rate depends on a load. */
START_TEST(test_dropping_loads_changes_no_rate)
{
    st_rng *r = st_rng_new(4242, st_rng_tag("test"), (uint64_t)_i, st_rng_tag("maxmin-drop"));
    rinst in;
    int64_t id[R_ENTS];
    int on[R_ENTS];
    for (int inst = 0; inst < 50; inst++) {
        random_instance(r, &in, _i);
        st_maxmin *a = st_maxmin_new(R_LINKS, in.cap), *b = st_maxmin_new(R_LINKS, in.cap);
        st_maxmin_drop_loads(b);
        for (int e = 0; e < R_ENTS; e++) {
            id[e] = add_inst(a, &in, e);
            ck_assert_int_eq(add_inst(b, &in, e), id[e]);
            on[e] = 1;
        }
        for (int round = 0; round < 5; round++) {
            const int64_t *ca, *cb;
            size_t na = st_maxmin_solve(a, &ca), nb = st_maxmin_solve(b, &cb);
            ck_assert_uint_eq(na, nb);
            for (size_t i = 0; i < na; i++) {
                ck_assert_int_eq(ca[i], cb[i]);
                double ra = st_maxmin_rate(a, ca[i]), rb = st_maxmin_rate(b, cb[i]);
                ck_assert(memcmp(&ra, &rb, sizeof ra) == 0);
            }
            for (int k = 0; k < 10; k++) {
                int e = (int)st_rng_uniform_int(r, R_ENTS);
                if (on[e]) {
                    st_maxmin_remove(a, id[e]);
                    st_maxmin_remove(b, id[e]);
                } else {
                    id[e] = add_inst(a, &in, e);
                    ck_assert_int_eq(add_inst(b, &in, e), id[e]);
                }
                on[e] = !on[e];
            }
        }
        st_maxmin_free(a);
        st_maxmin_free(b);
    }
    st_rng_free(r);
}
END_TEST

/* A solver put back by st_maxmin_reset, after adds, removals, solves, a private link and a
 * capacity change, answers as a new one: the same ids, changes and rates, bit for bit. */
START_TEST(test_a_reset_solver_answers_as_a_new_one)
{
    st_rng *r = st_rng_new(99, st_rng_tag("test"), (uint64_t)_i, st_rng_tag("maxmin-reset"));
    rinst in, in2;
    int64_t id[R_ENTS];
    random_instance(r, &in, _i);
    st_maxmin *used = st_maxmin_new(R_LINKS, in.cap);
    for (int inst = 0; inst < 30; inst++) {
        for (int e = 0; e < R_ENTS; e++)
            id[e] = add_inst(used, &in, e);
        st_maxmin_solve(used, NULL);
        for (int e = 0; e < R_ENTS; e += 3)
            st_maxmin_remove(used, id[e]);
        st_maxmin_set_capacity(used, inst % R_LINKS, 1.5 + inst);
        int32_t cap_link = st_maxmin_add_link(used, 2.0);
        st_maxmin_add(used, &cap_link, NULL, 1);
        st_maxmin_solve(used, NULL);
        st_maxmin_reset(used);
        random_instance(r, &in2, _i);
        for (int l = 0; l < R_LINKS; l++) /* the capacities stay the first instance's */
            in2.cap[l] = in.cap[l];
        st_maxmin *fresh = st_maxmin_new(R_LINKS, in.cap);
        for (int e = 0; e < R_ENTS; e++)
            ck_assert_int_eq(add_inst(used, &in2, e), add_inst(fresh, &in2, e));
        ck_assert_int_eq(st_maxmin_add_link(used, 3.0), st_maxmin_add_link(fresh, 3.0));
        for (int round = 0; round < 3; round++) {
            const int64_t *ca, *cb;
            size_t na = st_maxmin_solve(used, &ca), nb = st_maxmin_solve(fresh, &cb);
            ck_assert_uint_eq(na, nb);
            for (size_t i = 0; i < na; i++) {
                ck_assert_int_eq(ca[i], cb[i]);
                double ra = st_maxmin_rate(used, ca[i]), rb = st_maxmin_rate(fresh, cb[i]);
                ck_assert(memcmp(&ra, &rb, sizeof ra) == 0);
            }
            for (int l = 0; l < R_LINKS; l++)
                ck_assert(st_maxmin_load(used, l) == st_maxmin_load(fresh, l));
            for (int e = round; e < R_ENTS; e += 7) {
                st_maxmin_remove(used, e);
                st_maxmin_remove(fresh, e);
            }
        }
        st_maxmin_free(fresh);
        st_maxmin_reset(used);
    }
    st_maxmin_free(used);
    st_rng_free(r);
}
END_TEST

/* The same 6,000 to 8,000 entities on three links and a private one, added to solver m: their
 * edge lists grow through ten sizes (maxmin_pool.c). */
static void add_crowd(st_maxmin *m, int round)
{
    int32_t priv = st_maxmin_add_link(m, 500.0);
    for (int e = 0; e < 6000 + 1000 * round; e++) {
        int32_t l[3] = {e % 3, (e + 1) % 3, priv};
        double w[3] = {1 + e % 5, 0.5, 1};
        st_maxmin_add(m, l, w, e % 4 == 0 ? 3 : 2);
    }
}

/* Links carrying thousands of entities, their lists given back to the pool by a reset (the
 * private link's) or a rebase onto fewer links and kept otherwise: the solver answers each
 * round as a new one, bit for bit. */
START_TEST(test_lists_of_thousands_of_entities_are_kept_and_given_back)
{
    const double cap[3] = {1000, 3000, 7000};
    st_maxmin *used = st_maxmin_new(3, cap);
    for (int round = 0; round < 3; round++) {
        st_maxmin *fresh = st_maxmin_new(3, cap);
        add_crowd(used, round);
        add_crowd(fresh, round);
        const int64_t *ca, *cb;
        size_t na = st_maxmin_solve(used, &ca), nb = st_maxmin_solve(fresh, &cb);
        ck_assert_uint_eq(na, nb);
        for (size_t i = 0; i < na; i++) {
            ck_assert_int_eq(ca[i], cb[i]);
            double ra = st_maxmin_rate(used, ca[i]), rb = st_maxmin_rate(fresh, cb[i]);
            ck_assert(memcmp(&ra, &rb, sizeof ra) == 0);
        }
        for (int32_t l = 0; l < 4; l++)
            ck_assert(st_maxmin_load(used, l) == st_maxmin_load(fresh, l));
        st_maxmin_free(fresh);
        if (round == 1) { /* link 2's list back to the pool, then a new link 2 */
            st_maxmin_rebase(used, 2, cap);
            st_maxmin_rebase(used, 3, cap);
        } else {
            st_maxmin_reset(used);
        }
    }
    st_maxmin_free(used);
}
END_TEST

/* A solver rebased (st_maxmin_rebase) onto other links, more or fewer and of other capacities,
 * after adds, removals, solves and a private link, answers as a new one made on them: the same
 * ids, changes, rates and loads, bit for bit. */
START_TEST(test_a_rebased_solver_answers_as_a_new_one)
{
    st_rng *r = st_rng_new(98, st_rng_tag("test"), (uint64_t)_i, st_rng_tag("maxmin-rebase"));
    rinst in;
    double cap[2 * R_LINKS];
    random_instance(r, &in, _i);
    st_maxmin *used = st_maxmin_new(R_LINKS, in.cap);
    for (int inst = 0; inst < 30; inst++) {
        for (int e = 0; e < R_ENTS; e++)
            add_inst(used, &in, e);
        st_maxmin_solve(used, NULL);
        for (int e = 0; e < R_ENTS; e += 3)
            st_maxmin_remove(used, e);
        int32_t cap_link = st_maxmin_add_link(used, 2.0);
        st_maxmin_add(used, &cap_link, NULL, 1);
        st_maxmin_solve(used, NULL);
        /* the next fabric: the instance's links, and every other time as many again */
        random_instance(r, &in, _i);
        int32_t n = inst % 2 ? R_LINKS : 2 * R_LINKS;
        for (int l = 0; l < n; l++)
            cap[l] = l < R_LINKS ? in.cap[l] : 1.0 + l;
        st_maxmin_rebase(used, n, cap);
        st_maxmin *fresh = st_maxmin_new(n, cap);
        for (int e = 0; e < R_ENTS; e++)
            ck_assert_int_eq(add_inst(used, &in, e), add_inst(fresh, &in, e));
        ck_assert_int_eq(st_maxmin_add_link(used, 3.0), st_maxmin_add_link(fresh, 3.0));
        for (int round = 0; round < 3; round++) {
            const int64_t *ca, *cb;
            size_t na = st_maxmin_solve(used, &ca), nb = st_maxmin_solve(fresh, &cb);
            ck_assert_uint_eq(na, nb);
            for (size_t i = 0; i < na; i++) {
                ck_assert_int_eq(ca[i], cb[i]);
                double ra = st_maxmin_rate(used, ca[i]), rb = st_maxmin_rate(fresh, cb[i]);
                ck_assert(memcmp(&ra, &rb, sizeof ra) == 0);
            }
            for (int l = 0; l < n; l++)
                ck_assert(st_maxmin_load(used, l) == st_maxmin_load(fresh, l));
            for (int e = round; e < R_ENTS; e += 7) {
                st_maxmin_remove(used, e);
                st_maxmin_remove(fresh, e);
            }
        }
        st_maxmin_free(fresh);
        st_maxmin_rebase(used, R_LINKS, in.cap);
    }
    st_maxmin_free(used);
    st_rng_free(r);
}
END_TEST

/* What the network does at one instant with many starts and ends: solve once after all of them.
 * It must give what solving after each one gives (the same fixed point, reached by the same
 * progressive filling of the final components): rates within the solver's 1e-12 "unchanged"
 * tolerance, which is all that solving in between can keep of an earlier rate. */
START_TEST(test_one_solve_after_a_batch_equals_a_solve_after_each)
{
    st_rng *r = st_rng_new(4242, st_rng_tag("test"), (uint64_t)_i, st_rng_tag("maxmin-batch"));
    rinst in;
    int64_t ia[R_ENTS], ib[R_ENTS];
    int on[R_ENTS] = {0};
    for (int inst = 0; inst < 100; inst++) {
        random_instance(r, &in, _i);
        st_maxmin *a = st_maxmin_new(R_LINKS, in.cap), *b = st_maxmin_new(R_LINKS, in.cap);
        for (int e = 0; e < R_ENTS; e++)
            on[e] = 0;
        /* Batches of adds and removes, the same calls on both solvers: a solves after every
         * call, b once per batch. */
        for (int batch = 0; batch < 6; batch++) {
            for (int k = 0; k < 25; k++) {
                int e = (int)st_rng_uniform_int(r, R_ENTS);
                if (on[e]) {
                    st_maxmin_remove(a, ia[e]);
                    st_maxmin_remove(b, ib[e]);
                } else {
                    ia[e] = add_inst(a, &in, e);
                    ib[e] = add_inst(b, &in, e);
                }
                on[e] = !on[e];
                st_maxmin_solve(a, NULL);
            }
            st_maxmin_solve(b, NULL);
            for (int e = 0; e < R_ENTS; e++)
                if (on[e])
                    ck_assert_double_eq_tol(st_maxmin_rate(a, ia[e]), st_maxmin_rate(b, ib[e]),
                                            1e-12 * st_maxmin_rate(b, ib[e]));
        }
        check_maxmin(b, &in, ib, on);
        st_maxmin_free(a);
        st_maxmin_free(b);
    }
    st_rng_free(r);
}
END_TEST

START_TEST(test_ring_of_32768_members_solves_as_one_entity)
{
    /* One entity of 32768 members over 65536 NIC links plus 64 shared uplinks: the shared uplinks
     * (each crossed by 512 members) are the bottleneck. */
    enum { MEMBERS = 32768, UP = 64 };
    int32_t n_links = 2 * MEMBERS + UP;
    double *cap = malloc((size_t)n_links * sizeof *cap);
    for (int32_t l = 0; l < n_links; l++)
        cap[l] = l < 2 * MEMBERS ? 50e9 : 400e9;
    st_maxmin *m = st_maxmin_new(n_links, cap);
    int32_t *path = malloc((size_t)MEMBERS * 3 * sizeof *path);
    for (int32_t i = 0; i < MEMBERS; i++) {
        path[3 * i] = 2 * i;
        path[3 * i + 1] = 2 * MEMBERS + i % UP;
        path[3 * i + 2] = 2 * ((i + 1) % MEMBERS) + 1;
    }
    int64_t id = st_maxmin_add(m, path, NULL, 3 * MEMBERS);
    st_maxmin_solve(m, NULL);
    ck_assert_double_eq_tol(st_maxmin_rate(m, id), 400e9 / (MEMBERS / UP), 1e-3);
    ck_assert_double_eq_tol(st_maxmin_load(m, 2 * MEMBERS), 400e9, 1e-3);
    st_maxmin_free(m);
    free(path);
    free(cap);
}
END_TEST

Suite *maxmin_suite(void)
{
    Suite *s = suite_create("maxmin");
    TCase *tc = tcase_create("hand");
    tcase_add_test(tc, test_line_network_gives_long_flow_and_short_flows_one_half);
    tcase_add_test(tc, test_unequal_capacities_give_the_unbottlenecked_flow_the_rest);
    tcase_add_test(tc, test_weights_multiply_an_entitys_load_but_rates_rise_together);
    tcase_add_test(tc, test_repeated_links_merge_into_one_summed_weight);
    tcase_add_test(tc, test_entity_without_links_is_unconstrained);
    tcase_add_test(tc, test_removal_speeds_up_the_others_and_reports_them);
    tcase_add_test(tc, test_unchanged_rates_are_not_reported);
    tcase_add_test(tc, test_solve_touches_only_the_changed_component);
    tcase_add_test(tc, test_removals_from_one_component_re_solve_exactly_the_pieces_left);
    tcase_add_test(tc, test_a_removal_refills_only_the_entities_at_or_above_its_rate);
    tcase_add_test(tc, test_ring_of_32768_members_solves_as_one_entity);
    tcase_add_test(tc, test_lists_of_thousands_of_entities_are_kept_and_given_back);
    suite_add_tcase(s, tc);
    TCase *rnd = tcase_create("random");
    tcase_set_timeout(rnd, 60);
    /* Loop index 0: unit weights; 1: random weights. 100 instances each, 200 in all. */
    tcase_add_loop_test(rnd, test_random_instances_are_feasible_and_max_min_fair, 0, 2);
    tcase_add_loop_test(rnd, test_incremental_solves_after_removals_match_a_fresh_solve, 0, 2);
    tcase_add_loop_test(rnd, test_solves_after_removals_alone_match_a_fresh_solve, 0, 2);
    tcase_add_loop_test(rnd, test_one_solve_after_a_batch_equals_a_solve_after_each, 0, 2);
    tcase_add_loop_test(rnd, test_dropping_loads_changes_no_rate, 0, 2);
    tcase_add_loop_test(rnd, test_a_reset_solver_answers_as_a_new_one, 0, 2);
    tcase_add_loop_test(rnd, test_a_rebased_solver_answers_as_a_new_one, 0, 2);
    suite_add_tcase(s, rnd);
    return s;
}
