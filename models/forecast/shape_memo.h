/* A memo of step times by placement shape: what a job of one owner (a training workload, or a
 * trace.models entry on one GPU count) steps at on a GPU list, kept by the list's shape, so that
 * the thousands of placements a trace's jobs get cost one step simulation per distinct shape.
 * Internal to models/forecast. */
#ifndef ST_MODELS_FORECAST_SHAPE_MEMO_H
#define ST_MODELS_FORECAST_SHAPE_MEMO_H

#include <stddef.h>
#include <stdint.h>

#include "models/config/config.h"
#include "models/fabric/topo.h"

typedef struct st__shape_entry {
    uint64_t hash;
    int64_t owner;
    size_t at, n; /* its key in keys[at .. at + n) */
    double value;
} st__shape_entry;

typedef struct st__shape_memo {
    st__shape_entry *slot; /* cap slots, open addressing; n == 0: empty */
    size_t cap, used;
    int64_t *keys;
    size_t n_keys, keys_cap;
} st__shape_memo;

/* The shape of gpus[0..n) on t into key[0 .. 5n): for each rank in order, the first-appearance
 * ordinals of its pod, leaf, NVLink domain and node, and its GPU's index in its node (its rail).
 * On a fabric whose leaves, pods and nodes are alike (Strata's are: one cluster_cfg) two lists of
 * one shape cross the same number of links of each tier in the same pattern, so a step times the
 * same on both up to which equal-cost spine an ECMP hash picks. Returns the key's length. */
size_t st__shape_key(const st_topo *t, const st_cluster_cfg *c, const int64_t *gpus, int64_t n,
                     int64_t *key);

void st__shape_memo_init(st__shape_memo *m);
void st__shape_memo_release(st__shape_memo *m);

/* The value kept for (owner, key[0..n)): 1 and *value, or 0 when none is. */
int st__shape_memo_get(const st__shape_memo *m, int64_t owner, const int64_t *key, size_t n,
                       double *value);

/* Keep value for (owner, key[0..n)) (copied), replacing what was kept. */
void st__shape_memo_put(st__shape_memo *m, int64_t owner, const int64_t *key, size_t n,
                        double value);

#endif
