/* An ordered set of job ids for the policies: its members in the order of a key the policy gives
 * each (two 64-bit words, compared as one 128-bit number), each with its GPU count and one
 * figure of the policy's (aux), so that a pick finds the first member that fits in b GPUs (and
 * whose figure passes a test), or the GPUs of every member ranked before a key, in O(log n)
 * instead of scanning or sorting its queue. A B+ tree (Bayer and McCreight, "Organization and
 * maintenance of large ordered indexes", Acta Informatica 1, 1972; Comer, "The ubiquitous
 * B-tree", ACM Computing Surveys 11(2), 1979) whose leaves hold the members' keys, ids, GPUs and
 * figures, and whose inner nodes hold, per child, its last key, its members, its GPUs in all, its
 * least GPU count and its least figure: a query reads a few contiguous nodes, three levels for
 * a hundred thousand members, where a binary tree over the ids chased twenty scattered nodes and
 * called the policy's comparator at each.
 * Several sets may share one pool (one root each); an id is in at most one of them.
 * Internal to models/sched. */
#ifndef ST_MODELS_SCHED_RANKSET_H
#define ST_MODELS_SCHED_RANKSET_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "models/sched/policy.h"

#define ST__RSET_NONE SIZE_MAX

/* A member's place: members order by hi, then lo. Keys are unique within a set (a policy whose
 * order ties puts the job id in lo), and a member's key is the one it was added with: to move a
 * member, remove it and add it again with its new key. */
typedef struct st__rkey {
    uint64_t hi, lo;
} st__rkey;

static inline int st__rkey_less(const st__rkey *a, const st__rkey *b)
{
    return a->hi < b->hi || (a->hi == b->hi && a->lo < b->lo);
}

/* A double as a key word in the double's order (x not NaN): a non-negative value's sign bit
 * set, a negative value's bits flipped, -0.0 as +0.0 (they compare equal, so a policy's tie
 * break decides between them, as with the doubles). */
static inline uint64_t st__rkey_double(double x)
{
    uint64_t u;
    x = x == 0 ? 0 : x;
    memcpy(&u, &x, sizeof u);
    return u >> 63 ? ~u : u | (uint64_t)1 << 63;
}

/* A signed integer as a key word in its order. */
static inline uint64_t st__rkey_int(int64_t x)
{
    return (uint64_t)x ^ (uint64_t)1 << 63;
}

/* A test on a member's figure. It must be monotone (ok(x) and y <= x imply ok(y)), so that a
 * subtree whose least figure fails holds no member that passes. */
typedef int (*st__rset_ok_fn)(const void *ctx, double aux);

struct st__rnode; /* rankset.c */

typedef struct st__rset {
    struct st__rnode *node; /* the tree nodes of every set of the pool */
    size_t n_node, cap;     /* nodes handed out, room */
    uint32_t *spare;        /* freed nodes, for reuse */
    size_t n_spare;
    uint32_t *leaf; /* by id: the leaf node that holds it, UINT32_MAX while in no set */
    size_t n;       /* ids below n */
    int figures;    /* a member was added with a figure other than 0 */
} st__rset;

/* A pool for ids below n (at most 2^32 - 1); st__rset_release frees it. A root is a size_t the
 * caller keeps, ST__RSET_NONE when its set is empty. */
void st__rset_init(st__rset *s, size_t n);
void st__rset_release(st__rset *s);

/* Add id (not in any set of the pool) to the set at *root, at key (no member of that set has
 * it: an ST_BUG), with its GPUs and figure. O(log n). */
void st__rset_add(st__rset *s, size_t *root, size_t id, st__rkey key, int64_t gpus, double aux);
/* Remove id, a member of the set at *root. O(log n). */
void st__rset_remove(st__rset *s, size_t *root, size_t id);
/* Whether id is in a set of the pool. */
int st__rset_has(const st__rset *s, size_t id);

/* The first member of the set at root, in key order, with at most b GPUs and, when ok is not
 * NULL, ok(c, its figure) true; ST__RSET_NONE when none. O(log n) when only one of the two tests
 * can fail (ok NULL, or every member of the same GPU count): a subtree whose least figures pass
 * then surely holds a member that passes; with both, correct but possibly slower. */
size_t st__rset_first(const st__rset *s, size_t root, int64_t b, st__rset_ok_fn ok, const void *c);

/* The first member of the set at root whose key is above *after (NULL: from the first) with at
 * most b GPUs; ST__RSET_NONE when none. O(log n). */
size_t st__rset_first_after(const st__rset *s, size_t root, const st__rkey *after, int64_t b);

/* A test on a member's key that holds for a prefix of the set's order and fails after it. */
typedef int (*st__rset_pred_fn)(const void *ctx, const st__rkey *key);

/* The longest prefix of the set at root whose members all pass pred: its length (*n) and its
 * members' GPUs (*gpus). O(log n). */
void st__rset_prefix(const st__rset *s, size_t root, st__rset_pred_fn pred, const void *ctx,
                     size_t *n, int64_t *gpus);
/* The members of the set at root whose key is below *bound: their count (*n) and GPUs (*gpus).
 * O(log n). */
void st__rset_below(const st__rset *s, size_t root, const st__rkey *bound, size_t *n,
                    int64_t *gpus);
/* The first member of the set at root at which its members' GPUs, counted in order from the
 * first, reach need, with their count (*n) and GPUs (*gpus) up to it included; ST__RSET_NONE
 * when even all of them fall short (then *n and *gpus are the whole set's). O(log n). */
size_t st__rset_reach(const st__rset *s, size_t root, int64_t need, size_t *n, int64_t *gpus);
/* The k-th member (from 0) of the set at root; ST__RSET_NONE when k is past its end. O(log n). */
size_t st__rset_at(const st__rset *s, size_t root, size_t k);
/* A member's place in its set's tree, for walking the set in order: st__rset_seek finds it,
 * st__rset_step moves it on. Valid until the set changes. */
typedef struct st__rset_pos {
    uint32_t node, slot;
} st__rset_pos;

/* The k-th member (from 0) of the set at root, its place in *p; ST__RSET_NONE when k is past its
 * end. O(log n). */
size_t st__rset_seek(const st__rset *s, size_t root, size_t k, st__rset_pos *p);
/* The member after the k-th, whose place *p holds, and its place in *p; ST__RSET_NONE past the
 * end. O(1) but once per leaf, O(log n) there. */
size_t st__rset_step(const st__rset *s, size_t root, size_t k, st__rset_pos *p);
/* The set at root's last member; ST__RSET_NONE when it is empty. O(log n). */
size_t st__rset_last(const st__rset *s, size_t root);
/* The set at root's members, and their GPUs in all. O(1). */
size_t st__rset_size(const st__rset *s, size_t root);
int64_t st__rset_gpus(const st__rset *s, size_t root);

/* Start every member of the set at *root that fits in the free GPUs, in the set's order, as a
 * scan down the queue would: the first member that fits, again and again while GPUs are free
 * (the free GPUs only shrink, so a member passed over would not fit later). The started leave
 * the set; those the placement cannot fit now stay. scratch holds the pool's n ids. */
void st__rset_start_fitting(st__rset *s, size_t *root, st_sched_view *v, size_t *scratch);

#endif
