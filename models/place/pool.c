/* The free-GPU pool of a cluster run: flags per GPU and free counts per node and per leaf. */
#include "models/place/pool.h"

#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"

/* Whether the count mask is kept: free counts 0..per_node fit in a word. */
static int has_mask(const st_pool *p)
{
    return p->per_node < 64;
}

/* Node k into or out of the bitmap of free count c. */
static void bucket_set(st_pool *p, int64_t c, int64_t k)
{
    int64_t w = k >> 6;
    p->bits[c * p->words + w] |= (uint64_t)1 << (k & 63);
    p->sum[c * p->swords + (w >> 6)] |= (uint64_t)1 << (w & 63);
    if (p->ncount[c]++ == 0 && has_mask(p))
        p->counts |= (uint64_t)1 << c;
}

static void bucket_clear(st_pool *p, int64_t c, int64_t k)
{
    int64_t w = k >> 6;
    uint64_t *b = &p->bits[c * p->words + w];
    *b &= ~((uint64_t)1 << (k & 63));
    if (!*b)
        p->sum[c * p->swords + (w >> 6)] &= ~((uint64_t)1 << (w & 63));
    if (--p->ncount[c] == 0 && has_mask(p))
        p->counts &= ~((uint64_t)1 << c);
}

/* The lowest node >= from with free count c, or -1. */
static int64_t bucket_next(const st_pool *p, int64_t c, int64_t from)
{
    if (from >= p->nodes)
        return -1;
    const uint64_t *b = p->bits + c * p->words, *s = p->sum + c * p->swords;
    int64_t w = from >> 6;
    uint64_t x = b[w] & (~(uint64_t)0 << (from & 63));
    if (x)
        return (w << 6) + __builtin_ctzll(x);
    if (++w >= p->words)
        return -1;
    int64_t sw = w >> 6;
    uint64_t y = s[sw] & (~(uint64_t)0 << (w & 63));
    while (!y) {
        if (++sw >= p->swords)
            return -1;
        y = s[sw];
    }
    int64_t nw = (sw << 6) + __builtin_ctzll(y);
    return (nw << 6) + __builtin_ctzll(b[nw]);
}

void st_pool_init(st_pool *p, const st_cluster_cfg *c)
{
    memset(p, 0, sizeof *p);
    p->per_node = c->gpus_per_node > 0 ? c->gpus_per_node : 1;
    p->nodes = c->nodes > 0 ? c->nodes : 0;
    p->total = p->nodes * p->per_node;
    p->per_leaf = c->fabric.nodes_per_leaf >= 1 && c->fabric.nodes_per_leaf < p->nodes
                      ? c->fabric.nodes_per_leaf
                      : (p->nodes ? p->nodes : 1);
    p->leaves = (p->nodes + p->per_leaf - 1) / p->per_leaf;
    p->free = p->total;
    p->busy = st_xcalloc(p->total ? (size_t)p->total : 1, 1);
    p->node_free = st_xcalloc(p->nodes ? (size_t)p->nodes : 1, sizeof *p->node_free);
    p->leaf_free = st_xcalloc(p->leaves ? (size_t)p->leaves : 1, sizeof *p->leaf_free);
    p->words = (p->nodes + 63) / 64;
    p->swords = (p->words + 63) / 64;
    size_t counts = (size_t)p->per_node + 1;
    p->bits = st_xcalloc(counts * (size_t)(p->words ? p->words : 1), sizeof *p->bits);
    p->sum = st_xcalloc(counts * (size_t)(p->swords ? p->swords : 1), sizeof *p->sum);
    p->ncount = st_xcalloc(counts, sizeof *p->ncount);
    p->node_used = st_xcalloc(p->nodes ? (size_t)p->nodes : 1, 1);
    p->leaf_used = st_xcalloc(p->leaves ? (size_t)p->leaves : 1, 1);
    for (int64_t k = 0; k < p->nodes; k++) {
        p->node_free[k] = (int32_t)p->per_node;
        p->leaf_free[k / p->per_leaf] += p->per_node;
        bucket_set(p, p->per_node, k);
    }
}

void st_pool_release(st_pool *p)
{
    free(p->busy);
    free(p->node_free);
    free(p->leaf_free);
    free(p->bits);
    free(p->sum);
    free(p->ncount);
    free(p->node_used);
    free(p->leaf_used);
    memset(p, 0, sizeof *p);
}

/* gpus[0 .. n) held (busy) or free again. A job's GPUs come node by node, so each run of them on
 * one node moves that node between the count bitmaps once. */
static void mark(st_pool *p, const int64_t *gpus, int64_t n, int busy)
{
    for (int64_t r = 0; r < n;) {
        if (gpus[r] < 0 || gpus[r] >= p->total)
            ST_BUG("GPU %lld is %s", (long long)gpus[r], busy ? "already held" : "not held");
        int64_t node = gpus[r] / p->per_node, lo = node * p->per_node, c = 0;
        for (; r < n && gpus[r] >= lo && gpus[r] < lo + p->per_node; r++, c++) {
            if (p->busy[gpus[r]] == busy)
                ST_BUG("GPU %lld is %s", (long long)gpus[r], busy ? "already held" : "not held");
            p->busy[gpus[r]] = (uint8_t)busy;
        }
        int64_t d = busy ? -c : c;
        bucket_clear(p, p->node_free[node], node);
        bucket_set(p, p->node_free[node] + d, node);
        p->node_free[node] += (int32_t)d;
        p->leaf_free[node / p->per_leaf] += d;
        p->free += d;
    }
}

void st_pool_take(st_pool *p, const int64_t *gpus, int64_t n)
{
    mark(p, gpus, n, 1);
}

void st_pool_give(st_pool *p, const int64_t *gpus, int64_t n)
{
    mark(p, gpus, n, 0);
}

void st_pool_collect(const st_pool *p, int64_t node, int64_t want, int64_t *gpus, int64_t *have)
{
    for (int64_t g = node * p->per_node; g < (node + 1) * p->per_node && *have < want; g++)
        if (!p->busy[g])
            gpus[(*have)++] = g;
}

/* The lowest node of [lo, hi) not flagged in used with free count c, or -1. */
static int64_t first_unused(const st_pool *p, int64_t c, int64_t lo, int64_t hi,
                            const uint8_t *used)
{
    int64_t k = bucket_next(p, c, lo);
    while (k >= 0 && k < hi && used[k])
        k = bucket_next(p, c, k + 1);
    return k >= 0 && k < hi ? k : -1;
}

/* The free GPUs of nodes [lo, hi) (skipping those flagged in used), the smallest count >= m
 * first, else the largest count, ties to the lowest node; -1 when they have none. Through the
 * count bitmaps: a few word operations per count instead of a scan of the nodes (the scan was
 * 94% of bench_cluster's synthetic year). */
static int64_t pick_node(const st_pool *p, int64_t lo, int64_t hi, const uint8_t *used, int64_t m)
{
    if (has_mask(p)) { /* the same order, over the counts some node has */
        uint64_t up =
            m > 1 ? m > 63 ? 0 : p->counts & (~(uint64_t)0 << m) : p->counts & ~(uint64_t)1;
        for (; up; up &= up - 1) {
            int64_t k = first_unused(p, __builtin_ctzll(up), lo, hi, used);
            if (k >= 0)
                return k;
        }
        int64_t top = m - 1 < p->per_node ? m - 1 : p->per_node; /* counts 1 .. top, down */
        uint64_t down = top >= 1 ? p->counts & (((uint64_t)2 << top) - 2) : 0;
        for (; down; down &= ~((uint64_t)1 << (63 - __builtin_clzll(down)))) {
            int64_t k = first_unused(p, 63 - __builtin_clzll(down), lo, hi, used);
            if (k >= 0)
                return k;
        }
        return -1;
    }
    for (int64_t c = m > 1 ? m : 1; c <= p->per_node; c++) {
        int64_t k = first_unused(p, c, lo, hi, used);
        if (k >= 0)
            return k;
    }
    for (int64_t c = m - 1 < p->per_node ? m - 1 : p->per_node; c >= 1; c--) {
        int64_t k = first_unused(p, c, lo, hi, used);
        if (k >= 0)
            return k;
    }
    return -1;
}

int64_t st_pool_fill_nodes(const st_pool *p, int64_t lo, int64_t hi, int64_t want, int64_t *gpus,
                           int64_t *have, uint8_t *used)
{
    int64_t before = *have;
    while (*have < want) {
        int64_t k = pick_node(p, lo, hi, used, want - *have);
        if (k < 0)
            break;
        used[k] = 1;
        st_pool_collect(p, k, want, gpus, have);
    }
    return *have - before;
}
