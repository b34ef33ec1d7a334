/* Event queue: an implicit 4-ary min-heap of inline keys, each pointing at a pool slot that holds
 * the payload; the pool keeps a back-pointer to the heap position so a handle finds its event in
 * O(1) and cancel/reschedule cost one sift, O(log n). A pop leaves the root vacant for the next
 * push to fill (see `vacant`). */
#include "sim/evq.h"

#include <stdlib.h>
#include <string.h>

#include "sim/err.h"
#include "sim/xalloc.h"

/* A heap entry is the whole key in 16 bytes: the time, then one word holding the priority, the
 * sequence number and the pool slot, w = prio << 56 | seq << 28 | slot. Comparing (t, w) orders
 * by (t, prio, seq), since no two pending events share (prio, seq), and the slot rides along for
 * free: a sift reads one cache line per level (a family of four children, the array being
 * offset so families start on a line) instead of also reading a parallel slot array. 4-ary
 * rather than binary: half the depth, and the extra compares are on a line already loaded.
 * The price is a 28-bit seq, renumbered when it runs out (see renumber()). */
typedef struct hkey {
    st_time t;
    uint64_t w;
} hkey;

#define SLOT_BITS  28
#define SEQ_SHIFT  SLOT_BITS
#define SEQ_BITS   28
#define PRIO_SHIFT 56
#define SLOT_MASK  ((1u << SLOT_BITS) - 1)
#define SEQ_MASK   ((((uint64_t)1 << SEQ_BITS) - 1) << SEQ_SHIFT)
#define SEQ_LIMIT  ((uint64_t)1 << SEQ_BITS)

typedef struct ev_slot {
    st_payload data;
    uint32_t kind;
    uint32_t gen; /* bumped when the event fires or is cancelled: older handles become stale */
} ev_slot;

/* All arrays have room for `cap` elements, since each pending event has one heap entry and one
 * slot. pos is separate from ev_slot because sifting writes it for every entry it moves and a
 * 4-byte array stays in cache far better than the payloads. */
struct st_evq {
    hkey *key; /* the heap; key[0] is the earliest event */
    size_t n;
    uint32_t *pos; /* pos[slot]: heap index of a pending slot; meaningless for a free one */
    ev_slot *slots;
    size_t nslots;  /* slots ever handed out; the free ones are listed in free[] */
    uint32_t *free; /* stack of free slot numbers: LIFO reuse keeps recently used slots hot */
    size_t nfree;
    size_t cap;
    void *key_mem; /* the allocation behind key */
    uint64_t seq;  /* next seq to hand out, < seq_limit */
    uint64_t seq_limit;
    uint64_t total; /* schedules and reschedules ever */
    /* 1: key[0] is vacant and key[1 .. n) hold the pending events. A pop leaves the root so,
     * rather than moving the last entry there and sifting it down at once: a handler usually
     * schedules an event next (the next arrival, the finish of a job it starts), which then
     * goes into the vacant root and is sifted down, one sift instead of two (the last entry's
     * down and the new one's up). Anything else first fills the root as a pop would have. */
    int vacant;
    hkey last; /* the last popped key, for the duplicate check (valid when popped is 1) */
    int popped;
};

#define FREE_POS UINT32_MAX /* "no position": lookup's answer for a stale handle */
#define LINE     64
/* 2^15 keys are 512 KiB, about where the heap stops fitting in a core's L2. */
#define PREFETCH_MIN ((size_t)1 << 15)

static inline int less(const hkey *a, const hkey *b)
{
    return a->t < b->t || (a->t == b->t && a->w < b->w);
}

static inline uint32_t slot_of(hkey k)
{
    return (uint32_t)(k.w & SLOT_MASK);
}

/* The heap array and size as local values: sifting stores 64-bit keys, which the compiler must
 * assume may alias a size_t field of *q, so reading q->n in the loop would reload it after every
 * store. */
typedef struct heapv {
    hkey *key;
    uint32_t *pos;
    size_t n;
} heapv;

static inline heapv view(const st_evq *q)
{
    return (heapv){q->key, q->pos, q->n};
}

/* Write x at heap index i and record the back-pointer. */
static inline void put(heapv h, size_t i, hkey x)
{
    h.key[i] = x;
    h.pos[slot_of(x)] = (uint32_t)i;
}

/* Move x up from the hole at i until its parent is smaller. Moves, not swaps: each level costs
 * one entry copy and one back-pointer write. */
static void sift_up(heapv h, size_t i, hkey x)
{
    while (i > 0) {
        size_t p = (i - 1) / 4;
        if (!less(&x, &h.key[p]))
            break;
        put(h, i, h.key[p]);
        i = p;
    }
    put(h, i, x);
}

/* Index of the smallest of the children c..min(c+4, n)-1; c < n. The full-family case is a
 * two-round tournament so the compiler can use conditional moves instead of branches. */
static inline size_t min_child(const hkey *k, size_t n, size_t c)
{
    if (c + 3 < n) {
        size_t a = less(&k[c + 1], &k[c]) ? c + 1 : c;
        size_t b = less(&k[c + 3], &k[c + 2]) ? c + 3 : c + 2;
        return less(&k[b], &k[a]) ? b : a;
    }
    size_t m = c;
    for (size_t j = c + 1; j < n; j++)
        if (less(&k[j], &k[m]))
            m = j;
    return m;
}

/* Move x down from the hole at i until no child is smaller.
 *
 * On a heap larger than the caches every level is a serial miss, so each level starts loading
 * the 16 grandchildren (four lines) while its own compares run. Small heaps skip that, since
 * their lines are already in cache. The prefetch is written out here rather than in a helper
 * because GCC judges a helper doing only prefetches side-effect free and deletes the call. */
static void sift_down(heapv h, size_t i, hkey x)
{
    int prefetch = h.n >= PREFETCH_MIN;
    for (;;) {
        size_t c = 4 * i + 1;
        if (c >= h.n)
            break;
        size_t g = 4 * c + 1;
        if (prefetch && g + 15 < h.n) {
            const char *k = (const char *)&h.key[g];
            __builtin_prefetch(k);
            __builtin_prefetch(k + LINE);
            __builtin_prefetch(k + 2 * LINE);
            __builtin_prefetch(k + 3 * LINE);
        }
        size_t m = min_child(h.key, h.n, c);
        if (!less(&h.key[m], &x))
            break;
        put(h, i, h.key[m]);
        i = m;
    }
    put(h, i, x);
}

/* Put x into the hole at i, which may be anywhere: up if it beats its parent, else down. */
static void place(heapv h, size_t i, hkey x)
{
    if (i > 0 && less(&x, &h.key[(i - 1) / 4]))
        sift_up(h, i, x);
    else
        sift_down(h, i, x);
}

/* A copy of the first n elements of old (elem bytes each) in a new block of cap elements whose
 * element 1 starts a cache line, so families 4i+1..4i+4 never straddle two lines. */
static void *realign(void **mem, const void *old, size_t n, size_t cap, size_t elem)
{
    if (cap > ((size_t)-1 - LINE) / elem)
        ST_BUG("event queue too large");
    char *raw = st_xmalloc(cap * elem + LINE);
    size_t mis = (uintptr_t)(raw + elem) % LINE;
    char *base = raw + (mis ? LINE - mis : 0);
    if (n)
        memcpy(base, old, n * elem);
    free(*mem);
    *mem = raw;
    return base;
}

static void grow(st_evq *q, size_t need)
{
    size_t c = q->cap;
    q->pos = st_xgrow(q->pos, sizeof *q->pos, need, &c);
    c = q->cap;
    q->slots = st_xgrow(q->slots, sizeof *q->slots, need, &c);
    c = q->cap;
    q->free = st_xgrow(q->free, sizeof *q->free, need, &c);
    q->key = realign(&q->key_mem, q->key, q->n, c, sizeof *q->key);
    q->cap = c;
}

/* The payload copied a word at a time. A caller builds it on its stack a field at a time (an
 * id in u[0], the rest zeroed by other stores), and a struct copy (or a loop the compiler
 * vectorises) reads it back 16 bytes at a time: each such read spans two of those stores, which
 * the store buffer cannot forward, so it waits for them to reach the cache; perf put 70% of
 * st_evq_push's samples there. The reads are volatile so that they stay single words. */
static void copy_payload(st_payload *to, const st_payload *from)
{
    const volatile uint64_t *w = from->u;
    for (int k = 0; k < 4; k++)
        to->u[k] = w[k];
}

static uint32_t slot_acquire(st_evq *q)
{
    if (q->nfree)
        return q->free[--q->nfree];
    if (q->nslots >= ST_EVQ_MAX_PENDING)
        ST_BUG("more than %u events pending", ST_EVQ_MAX_PENDING);
    if (q->nslots == q->cap)
        grow(q, q->nslots + 1);
    uint32_t s = (uint32_t)q->nslots++;
    q->slots[s].gen = 1;
    return s;
}

static void slot_release(st_evq *q, uint32_t s)
{
    uint32_t g = q->slots[s].gen + 1;
    q->slots[s].gen = g ? g : 1; /* 0 is reserved for ST_EV_NONE */
    q->free[q->nfree++] = s;
}

/* The vacant root filled as a pop fills it: the last entry moves there and sifts down. */
static void fill_root(st_evq *q)
{
    if (!q->vacant)
        return;
    q->vacant = 0;
    if (--q->n)
        sift_down(view(q), 0, q->key[q->n]);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* When the 28-bit counter runs out, replace each pending event's seq by its rank among the
 * pending seqs. The relabelling is monotone, so no comparison changes: the heap stays valid and
 * the firing order is exactly what 64-bit seqs would give. It costs O(n log n) once per
 * 2^28 - n schedules, a fraction of a percent even with millions pending. */
static void renumber(st_evq *q)
{
    fill_root(q);
    q->popped = 0; /* a pending event may now take the last popped one's seq */
    uint64_t *v = st_xmalloc((q->n ? q->n : 1) * sizeof *v);
    for (size_t i = 0; i < q->n; i++) /* (seq, heap index): both fit in 32 bits */
        v[i] = ((q->key[i].w & SEQ_MASK) << (32 - SEQ_SHIFT)) | i;
    qsort(v, q->n, sizeof *v, cmp_u64);
    for (size_t r = 0; r < q->n; r++) {
        hkey *k = &q->key[v[r] & UINT32_MAX];
        k->w = (k->w & ~SEQ_MASK) | ((uint64_t)r << SEQ_SHIFT);
    }
    free(v);
    q->seq = q->n;
    if (q->seq >= q->seq_limit)
        ST_BUG("%zu events pending leave no sequence numbers", q->n);
}

static uint64_t next_seq(st_evq *q)
{
    if (q->seq >= q->seq_limit)
        renumber(q);
    q->total++;
    return q->seq++;
}

st_evq *st_evq_new(size_t hint)
{
    st_evq *q = st_xcalloc(1, sizeof *q);
    q->seq_limit = SEQ_LIMIT;
    if (hint)
        grow(q, hint);
    return q;
}

void st_evq_free(st_evq *q)
{
    if (!q)
        return;
    free(q->key_mem);
    free(q->pos);
    free(q->slots);
    free(q->free);
    free(q);
}

st_ev_handle st_evq_push(st_evq *q, st_time t, unsigned prio, uint32_t kind, const st_payload *data)
{
    if (prio > ST_EV_PRIO_MAX)
        ST_BUG("event priority %u out of range 0..%d", prio, ST_EV_PRIO_MAX);
    uint32_t s = slot_acquire(q);
    ev_slot *sl = &q->slots[s];
    sl->kind = kind;
    if (data)
        copy_payload(&sl->data, data);
    else
        memset(&sl->data, 0, sizeof sl->data);
    hkey x = {t, (uint64_t)prio << PRIO_SHIFT | next_seq(q) << SEQ_SHIFT | s};
    if (q->vacant) { /* into the root a pop left vacant */
        q->vacant = 0;
        sift_down(view(q), 0, x);
    } else {
        sift_up(view(q), q->n++, x);
    }
    return (st_ev_handle){s, sl->gen};
}

int st_evq_pop_until(st_evq *q, st_time horizon, st_event *out)
{
    fill_root(q);
    if (!q->n || q->key[0].t > horizon)
        return 0;
    hkey top = q->key[0];
    uint32_t s = slot_of(top);
    const ev_slot *sl = &q->slots[s];
    out->t = top.t;
    out->prio = (uint8_t)(top.w >> PRIO_SHIFT);
    out->kind = sl->kind;
    out->handle = (st_ev_handle){s, sl->gen};
    out->data = sl->data;
    slot_release(q, s);
    /* Every key eventually reaches the root, and two equal ones would pop one after the other,
     * so comparing each popped key with the one popped before catches a duplicate (t, prio,
     * seq), which only memory corruption can produce, for two compares. */
    if (q->popped && q->last.t == top.t &&
        (q->last.w & ~(uint64_t)SLOT_MASK) == (top.w & ~(uint64_t)SLOT_MASK))
        ST_BUG("duplicate event key (t=%lld ns, w=%#llx)", (long long)top.t,
               (unsigned long long)top.w);
    q->last = top;
    q->popped = 1;
    if (q->n == 1) {
        q->n = 0;
        return 1;
    }
    q->vacant = 1;
    /* Start loading the payload of the next event to fire, unless the handler schedules an
     * earlier one: the smallest of the root's children. The handler of this event runs in
     * between, which hides most of what is otherwise a cache miss per event on a large queue
     * (slots are reused in no particular order). */
    if (q->n >= PREFETCH_MIN)
        __builtin_prefetch(&q->slots[slot_of(q->key[min_child(q->key, q->n, 1)])]);
    return 1;
}

int st_evq_pop(st_evq *q, st_event *out)
{
    return st_evq_pop_until(q, ST_TIME_MAX, out);
}

static st_ev_key public_key(hkey k)
{
    return (st_ev_key){k.t, (unsigned)(k.w >> PRIO_SHIFT), (k.w & SEQ_MASK) >> SEQ_SHIFT};
}

int st_evq_peek(const st_evq *q, st_ev_key *out)
{
    if (q->n == (size_t)q->vacant)
        return 0;
    /* under a vacant root, the earliest is the smallest of its children */
    *out = public_key(q->key[q->vacant ? min_child(q->key, q->n, 1) : 0]);
    return 1;
}

/* The heap index of the event h names, or FREE_POS when h is stale or ST_EV_NONE. A handle that
 * cannot have come from this queue (slot never issued, generation 0 on a real slot) is a bug in
 * the caller, reported rather than silently ignored. */
static uint32_t lookup(const st_evq *q, st_ev_handle h)
{
    if (h.gen == 0 && h.slot == 0)
        return FREE_POS;
    if (h.slot >= q->nslots || h.gen == 0)
        ST_BUG("corrupt event handle (slot %u, generation %u; %zu slots issued)", h.slot, h.gen,
               q->nslots);
    if (q->slots[h.slot].gen != h.gen)
        return FREE_POS;
    return q->pos[h.slot];
}

int st_evq_cancel(st_evq *q, st_ev_handle h)
{
    fill_root(q); /* the entry that fills a cancelled one's place may sift up to the root */
    uint32_t i = lookup(q, h);
    if (i == FREE_POS)
        return ST_ENOTFOUND;
    slot_release(q, h.slot);
    if (i < --q->n)
        place(view(q), i, q->key[q->n]);
    return 0;
}

int st_evq_reschedule(st_evq *q, st_ev_handle h, st_time t)
{
    fill_root(q);
    uint32_t i = lookup(q, h);
    if (i == FREE_POS)
        return ST_ENOTFOUND;
    uint64_t seq = next_seq(q); /* may renumber, but never moves entries */
    hkey x = {t, (q->key[i].w & ~SEQ_MASK) | seq << SEQ_SHIFT};
    place(view(q), i, x);
    return 0;
}

int st_evq_pending(const st_evq *q, st_ev_handle h)
{
    return h.gen != 0 && h.slot < q->nslots && q->slots[h.slot].gen == h.gen;
}

int st_evq_key(const st_evq *q, st_ev_handle h, st_ev_key *out)
{
    uint32_t i = lookup(q, h);
    if (i == FREE_POS)
        return ST_ENOTFOUND;
    *out = public_key(q->key[i]);
    return 0;
}

st_payload *st_evq_payload(st_evq *q, st_ev_handle h)
{
    return lookup(q, h) == FREE_POS ? NULL : &q->slots[h.slot].data;
}

size_t st_evq_size(const st_evq *q)
{
    return q->n - (size_t)q->vacant;
}

uint64_t st_evq_seq(const st_evq *q)
{
    return q->total;
}

void st__evq_set_seq_limit(st_evq *q, uint64_t limit)
{
    if (limit == 0 || limit > SEQ_LIMIT)
        ST_BUG("seq limit %llu out of range", (unsigned long long)limit);
    q->seq_limit = limit;
}

int st__evq_check(const st_evq *q)
{
    size_t first = (size_t)q->vacant; /* a vacant root holds no event */
    if (q->n - first + q->nfree != q->nslots || q->nslots > q->cap || q->seq > q->seq_limit ||
        (q->vacant && !q->n))
        return -1;
    for (size_t i = first; i < q->n; i++) {
        uint32_t s = slot_of(q->key[i]);
        if (s >= q->nslots || q->pos[s] != i)
            return -2;
        /* Strictly greater than the parent: equal keys would be a duplicate. */
        if (i > 0 && (i - 1) / 4 >= first && !less(&q->key[(i - 1) / 4], &q->key[i]))
            return -3;
        if ((q->key[i].w & SEQ_MASK) >> SEQ_SHIFT >= q->seq)
            return -4;
    }
    /* Free slots: issued, not in the heap, listed once. With the count above, every slot is then
     * either pending or free. */
    unsigned char *seen = st_xcalloc(q->nslots ? q->nslots : 1, 1);
    int rc = 0;
    for (size_t k = 0; k < q->nfree && !rc; k++) {
        uint32_t s = q->free[k];
        if (s >= q->nslots || seen[s] || q->slots[s].gen == 0)
            rc = -5;
        else if (q->pos[s] >= first && q->pos[s] < q->n && slot_of(q->key[q->pos[s]]) == s)
            rc = -6;
        else
            seen[s] = 1;
    }
    free(seen);
    return rc;
}
