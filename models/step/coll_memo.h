/* The step model's memo of collective-pattern times: each distinct pattern is simulated once
 * per context and its time looked up after that. Hashed by the whole pattern, no size cap. */
#ifndef ST_MODELS_STEP_COLL_MEMO_H
#define ST_MODELS_STEP_COLL_MEMO_H

#include <stddef.h>
#include <stdint.h>

#include "models/fabric/collective.h"

/* A collective pattern: `groups` copies of `op` over n ranks each, rank i of group g being rank
 * g * gstride + i * stride of the job, all started together, each rank moving `bytes`. `place`
 * names the GPUs the job's ranks are on: 0, rank r on GPU r (the packed placement from GPU 0),
 * else the step context's place-th distinct GPU list (st_step_ctx_place). `fabric` is 0 in a
 * context's own memo, else, in a memo contexts share (st_step_memo), the class of fabric and GPU
 * the pattern ran on. Two keys are the same pattern when every field is equal, bytes bit for
 * bit. */
typedef struct st_coll_memo_key {
    st_coll_op op;
    int64_t n, stride, groups, gstride;
    double bytes;
    int64_t place;
    int64_t fabric;
} st_coll_memo_key;

typedef struct st_coll_memo st_coll_memo;

/* An empty memo. Never returns NULL. */
st_coll_memo *st_coll_memo_new(void);

/* Free m and its entries. st_coll_memo_free(NULL) is a no-op. */
void st_coll_memo_free(st_coll_memo *m);

/* 1 and *time_s the remembered time when k has been put, else 0 (*time_s untouched). Lookups
 * only: nothing about the table's order ever leaves it. */
int st_coll_memo_find(const st_coll_memo *m, const st_coll_memo_key *k, double *time_s);

/* Remember time_s for k, which must not be in m yet (ST_BUG otherwise: a caller puts what it
 * failed to find). The table grows as needed; k is copied. */
void st_coll_memo_put(st_coll_memo *m, const st_coll_memo_key *k, double time_s);

/* Patterns remembered. */
size_t st_coll_memo_count(const st_coll_memo *m);

#endif
