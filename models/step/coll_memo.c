/* A hash table of collective-pattern times (models/step/coll_memo.h): entries kept densely in
 * insertion order, found through an open-addressed index with linear probing. */
#include "models/step/coll_memo.h"

#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"

typedef struct entry {
    st_coll_memo_key k;
    double time_s;
} entry;

/* slot[i] is 0 when empty, else 1 + the entry's index; the index has a power-of-two size kept
 * at least twice the entries, so probes stay short and a probe always meets an empty slot. */
struct st_coll_memo {
    entry *ent;
    size_t n, cap;
    uint32_t *slot;
    size_t nslot; /* a power of two, or 0 before the first put */
};

static uint64_t bits_of(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* Fold v into h (boost's hash_combine), then scramble with splitmix64's finaliser so that
 * fields differing only in high bits (byte counts, strides) still spread over the low bits the
 * index uses. */
static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9u;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebu;
    return h ^ (h >> 31);
}

static uint64_t key_hash(const st_coll_memo_key *k)
{
    uint64_t h = mix(0, (uint64_t)k->op);
    h = mix(h, (uint64_t)k->n);
    h = mix(h, (uint64_t)k->stride);
    h = mix(h, (uint64_t)k->groups);
    h = mix(h, (uint64_t)k->gstride);
    h = mix(h, (uint64_t)k->place);
    h = mix(h, (uint64_t)k->fabric);
    return mix(h, bits_of(k->bytes));
}

static int key_eq(const st_coll_memo_key *a, const st_coll_memo_key *b)
{
    return a->op == b->op && a->n == b->n && a->stride == b->stride && a->groups == b->groups &&
           a->gstride == b->gstride && a->place == b->place && a->fabric == b->fabric &&
           bits_of(a->bytes) == bits_of(b->bytes);
}

/* The slot that holds k, or the empty slot where it would go. */
static size_t probe(const st_coll_memo *m, const st_coll_memo_key *k)
{
    size_t mask = m->nslot - 1, i = (size_t)key_hash(k) & mask;
    while (m->slot[i] && !key_eq(&m->ent[m->slot[i] - 1].k, k))
        i = (i + 1) & mask;
    return i;
}

/* Rebuild the index at twice the size from the entries, in their insertion order. */
static void grow(st_coll_memo *m)
{
    size_t nslot = m->nslot ? 2 * m->nslot : 64;
    if (nslot > (size_t)UINT32_MAX)
        ST_BUG("collective memo too large: %zu entries", m->n);
    free(m->slot);
    m->slot = st_xcalloc(nslot, sizeof *m->slot);
    m->nslot = nslot;
    for (size_t e = 0; e < m->n; e++)
        m->slot[probe(m, &m->ent[e].k)] = (uint32_t)(e + 1);
}

st_coll_memo *st_coll_memo_new(void)
{
    return st_xcalloc(1, sizeof(st_coll_memo));
}

void st_coll_memo_free(st_coll_memo *m)
{
    if (!m)
        return;
    free(m->ent);
    free(m->slot);
    free(m);
}

int st_coll_memo_find(const st_coll_memo *m, const st_coll_memo_key *k, double *time_s)
{
    if (!m->n)
        return 0;
    uint32_t s = m->slot[probe(m, k)];
    if (!s)
        return 0;
    *time_s = m->ent[s - 1].time_s;
    return 1;
}

void st_coll_memo_put(st_coll_memo *m, const st_coll_memo_key *k, double time_s)
{
    if (2 * (m->n + 1) > m->nslot)
        grow(m);
    size_t i = probe(m, k);
    if (m->slot[i])
        ST_BUG("collective pattern put twice in the memo");
    m->ent = st_xgrow(m->ent, sizeof *m->ent, m->n + 1, &m->cap);
    m->ent[m->n] = (entry){.k = *k, .time_s = time_s};
    m->slot[i] = (uint32_t)(++m->n);
}

size_t st_coll_memo_count(const st_coll_memo *m)
{
    return m->n;
}
