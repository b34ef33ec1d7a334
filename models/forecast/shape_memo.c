/* The shape memo (shape_memo.h): an open-addressing hash table (linear probing, kept at most
 * half full) over FNV-1a hashes of the owner and the shape; keys live in one growing array. */
#include "models/forecast/shape_memo.h"

#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"

/* The first-appearance ordinal of id among seen[0..*n), appended when new. */
static int64_t ordinal(int64_t *seen, int64_t *n, int64_t id)
{
    for (int64_t k = *n; k-- > 0;)
        if (seen[k] == id)
            return k;
    seen[*n] = id;
    return (*n)++;
}

size_t st__shape_key(const st_topo *t, const st_cluster_cfg *c, const int64_t *gpus, int64_t n,
                     int64_t *key)
{
    int64_t gpn = c->gpus_per_node > 0 ? c->gpus_per_node : 1;
    int64_t dom = c->nvlink_domain > 0 ? c->nvlink_domain : gpn;
    int64_t *seen = st_xmalloc(4 * (size_t)(n > 0 ? n : 1) * sizeof *seen);
    int64_t cnt[4] = {0};
    for (int64_t r = 0; r < n; r++) {
        int64_t g = gpus[r];
        int64_t id[4] = {st_topo_pod_of(t, g), st_topo_leaf_of(t, g), (g + c->nvlink_skew) / dom,
                         g / gpn};
        for (int l = 0; l < 4; l++)
            key[5 * r + l] = ordinal(seen + (size_t)l * (size_t)n, &cnt[l], id[l]);
        key[5 * r + 4] = g % gpn;
    }
    free(seen);
    return 5 * (size_t)n;
}

static uint64_t hash_of(int64_t owner, const int64_t *key, size_t n)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a 64 (Fowler, Noll, Vo) */
    h = (h ^ (uint64_t)owner) * 1099511628211ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint64_t)key[i]) * 1099511628211ull;
    return h;
}

void st__shape_memo_init(st__shape_memo *m)
{
    memset(m, 0, sizeof *m);
}

void st__shape_memo_release(st__shape_memo *m)
{
    free(m->slot);
    free(m->keys);
    memset(m, 0, sizeof *m);
}

/* The slot holding (owner, key), or the empty one where it would go. */
static size_t find(const st__shape_memo *m, uint64_t h, int64_t owner, const int64_t *key, size_t n)
{
    size_t i = (size_t)h & (m->cap - 1);
    for (;; i = (i + 1) & (m->cap - 1)) {
        const st__shape_entry *e = &m->slot[i];
        if (!e->n)
            return i;
        if (e->hash == h && e->owner == owner && e->n == n &&
            memcmp(m->keys + e->at, key, n * sizeof *key) == 0)
            return i;
    }
}

int st__shape_memo_get(const st__shape_memo *m, int64_t owner, const int64_t *key, size_t n,
                       double *value)
{
    if (!m->cap || !n)
        return 0;
    const st__shape_entry *e = &m->slot[find(m, hash_of(owner, key, n), owner, key, n)];
    if (!e->n)
        return 0;
    *value = e->value;
    return 1;
}

static void grow(st__shape_memo *m)
{
    size_t cap = m->cap ? 2 * m->cap : 64;
    st__shape_entry *old = m->slot;
    size_t old_cap = m->cap;
    m->slot = st_xcalloc(cap, sizeof *m->slot);
    m->cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].n) {
            size_t j = (size_t)old[i].hash & (cap - 1);
            while (m->slot[j].n)
                j = (j + 1) & (cap - 1);
            m->slot[j] = old[i];
        }
    free(old);
}

void st__shape_memo_put(st__shape_memo *m, int64_t owner, const int64_t *key, size_t n,
                        double value)
{
    if (!n)
        return;
    if (2 * (m->used + 1) > m->cap)
        grow(m);
    uint64_t h = hash_of(owner, key, n);
    st__shape_entry *e = &m->slot[find(m, h, owner, key, n)];
    if (e->n) {
        e->value = value;
        return;
    }
    m->keys = st_xgrow(m->keys, sizeof *m->keys, m->n_keys + n, &m->keys_cap);
    memcpy(m->keys + m->n_keys, key, n * sizeof *key);
    *e = (st__shape_entry){h, owner, m->n_keys, n, value};
    m->n_keys += n;
    m->used++;
}
