/* An ordered set of job ids for the policies: its members in the order a policy's comparator
 * gives, each with its GPU count and one figure of the policy's (aux), so that a pick finds the
 * first member that fits in b GPUs (and whose figure passes a test), or the GPUs of every member
 * ranked before a job, in O(log n) instead of scanning or sorting its queue. A treap (Seidel and
 * Aragon, "Randomized search trees", Algorithmica 16, 1996) whose nodes are the job ids, each
 * subtree holding its size, its GPUs in all, its least GPU count and its least figure; node
 * priorities are a fixed hash of the id, so runs are reproducible.
 * Several sets may share one node pool (one root each); an id is in at most one of them.
 * Internal to models/sched. */
#ifndef ST_MODELS_SCHED_RANKSET_H
#define ST_MODELS_SCHED_RANKSET_H

#include <stddef.h>
#include <stdint.h>

#include "models/sched/policy.h"

#define ST__RSET_NONE SIZE_MAX

/* The policy's order: 1 when job a goes before job b (a != b). A strict total order, and a
 * member's place in it must not change while it is in a set: remove it, change its key, add it
 * again. */
typedef int (*st__rset_before_fn)(const void *ctx, size_t a, size_t b);

/* A test on a member's figure. It must be monotone (ok(x) and y <= x imply ok(y)), so that a
 * subtree whose least figure fails holds no member that passes. */
typedef int (*st__rset_ok_fn)(const void *ctx, double aux);

/* A node: a job id's place in its set. One cache line. */
typedef struct st__rnode {
    size_t kid[2];       /* left and right child; ST__RSET_NONE: none */
    int64_t gpus, least; /* its GPUs, the least in its subtree */
    int64_t sum;         /* its subtree's GPUs */
    size_t size;         /* its subtree's members */
    double aux, amin;    /* its figure, the least in its subtree */
} st__rnode;

typedef struct st__rset {
    st__rset_before_fn before;
    const void *ctx;
    st__rnode *node;   /* by id */
    unsigned char *in; /* by id: in a set of this pool */
    size_t n;          /* ids below n */
} st__rset;

/* A pool for ids below n ordered by before(ctx, ., .); st__rset_release frees it. A root is a
 * size_t the caller keeps, ST__RSET_NONE when its set is empty. */
void st__rset_init(st__rset *s, size_t n, st__rset_before_fn before, const void *ctx);
void st__rset_release(st__rset *s);

/* Add id (not in any set of the pool) to the set at *root, with its GPUs and figure. O(log n). */
void st__rset_add(st__rset *s, size_t *root, size_t id, int64_t gpus, double aux);
/* Remove id, a member of the set at *root. O(log n). */
void st__rset_remove(st__rset *s, size_t *root, size_t id);
/* Whether id is in a set of the pool. */
int st__rset_has(const st__rset *s, size_t id);

/* The first member of the set at root, in the policy's order, with at most b GPUs and, when ok is
 * not NULL, ok(c, its figure) true; ST__RSET_NONE when none. O(log n) when only one of the two
 * tests can fail (ok NULL, or every member of the same GPU count): a subtree whose least figures
 * pass then surely holds a member that passes; with both, correct but possibly slower. */
size_t st__rset_first(const st__rset *s, size_t root, int64_t b, st__rset_ok_fn ok, const void *c);

/* The first member of the set at root after job `after` in the policy's order (after need not be
 * a member; ST__RSET_NONE: from the first) with at most b GPUs; ST__RSET_NONE when none.
 * O(log n). */
size_t st__rset_first_after(const st__rset *s, size_t root, size_t after, int64_t b);

/* A test on a member that holds for a prefix of the set's order and fails after it. */
typedef int (*st__rset_pred_fn)(const void *ctx, size_t id);

/* The longest prefix of the set at root whose members all pass pred: its length (*n) and its
 * members' GPUs (*gpus). O(log n). */
void st__rset_prefix(const st__rset *s, size_t root, st__rset_pred_fn pred, const void *ctx,
                     size_t *n, int64_t *gpus);
/* The first member of the set at root at which its members' GPUs, counted in order from the
 * first, reach need, with their count (*n) and GPUs (*gpus) up to it included; ST__RSET_NONE
 * when even all of them fall short (then *n and *gpus are the whole set's). O(log n). */
size_t st__rset_reach(const st__rset *s, size_t root, int64_t need, size_t *n, int64_t *gpus);
/* The k-th member (from 0) of the set at root; ST__RSET_NONE when k is past its end. O(log n). */
size_t st__rset_at(const st__rset *s, size_t root, size_t k);
/* The set at root's members, and their GPUs in all. */
size_t st__rset_size(const st__rset *s, size_t root);
int64_t st__rset_gpus(const st__rset *s, size_t root);

/* Start every member of the set at *root that fits in the free GPUs, in the set's order, as a
 * scan down the queue would: the first member that fits, again and again while GPUs are free
 * (the free GPUs only shrink, so a member passed over would not fit later). The started leave
 * the set; those the placement cannot fit now stay. scratch holds the pool's n ids. */
void st__rset_start_fitting(st__rset *s, size_t *root, st_sched_view *v, size_t *scratch);

#endif
