/* Recorded max-min solves (models/fabric/mm_trace.h): a recording is a list of calls, each with
 * its arguments and answer in side arrays, its link ids by segment (st_mmx_segments); a follower
 * walks it call by call. */
#include "models/fabric/mm_trace.h"

#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"

enum { OP_ADD, OP_REMOVE, OP_ADD_LINK, OP_SET_CAP, OP_SOLVE };

/* One call: an add's n links, or a solve's n changed ids and rates, start at off in the side
 * arrays, and an add's n weights at woff, or woff is ALL_ONES: every weight 1, none stored (a
 * collective's transfers cross each link of a member's route with weight 1, and half a
 * recording's bytes were those ones). id is an add's answer, a removal's entity, a link's id
 * (by segment, as the links); v a capacity. */
typedef struct mm_op {
    int64_t id;
    double v;
    size_t off, woff;
    int32_t n;
    uint8_t kind;
} mm_op;

#define ALL_ONES SIZE_MAX

struct st_mm_trace {
    mm_op *op;
    size_t n_op, op_cap;
    uint64_t *link; /* adds' links, by segment (seg_id) */
    double *w;      /* adds' weights, but for those all 1 */
    size_t n_lw, n_w, link_cap, w_cap;
    int64_t *ch; /* solves' changed ids */
    double *rate;
    size_t n_ch, ch_cap, rate_cap;
    int cut; /* outgrew ST_MM_TRACE_CAP: no longer recorded */
};

/* At most this many segments (st_mmx_segments): a topology's levels and its private links.
 * seg_id compares with each start written out, for 8. */
#define SEG_MAX 8
_Static_assert(SEG_MAX == 8, "seg_id compares with seg[1 .. 7]");

struct st_mmx {
    int32_t n_links;      /* the fabric's, before any private link is added */
    int32_t seg[SEG_MAX]; /* first link id of each segment, ascending; seg[0] is 0, and those
                             past n_seg INT32_MAX, which no link reaches */
    int n_seg;
    uint64_t *canon; /* the call being made's links by segment */
    size_t canon_cap;
    int32_t *ids; /* materialise's scratch: a recorded add's links as this solver's ids */
    size_t ids_cap;
    const double *capacity;
    st_maxmin *mm;    /* NULL until needed */
    st_maxmin **pool; /* where a spare solver of these links waits, or NULL */
    st_mm_trace *rec;
    const st_mm_trace **cand; /* the recordings that matched every call so far */
    size_t n_cand;
    const st_mm_trace *cur; /* one of them, once a call matched: the calls so far */
    size_t pos;             /* calls so far */
    int diverged;
    double *rates; /* st_mmx_solve's answer when solving */
    size_t rates_cap;
};

/* One call: its kind and arguments (an add's id and a link's are answers, not compared), an
 * add's links as the solver names them. */
typedef struct mm_call {
    int kind;
    int64_t id;
    double v;
    int n;
    const int32_t *link;
    const double *w;
} mm_call;

/* Link l by segment, the segments starting at g[0..SEG_MAX): the segment's index in the high 32
 * bits, l's offset into it in the low. Two solvers whose links differ by a shift per segment
 * (the same fabric's levels on two GPU counts) name a link alike, and the order of links is the
 * order of these ids. */
static inline uint64_t seg_in(const int32_t *g, int32_t l)
{
    /* The last segment that starts at or before l (the starts ascend, g[0] = 0 <= l): a
     * binary search of the eight in three steps, each a comparison added in, without a branch
     * (every link of every add comes through here); counting the seven later starts l reached
     * took seven comparisons. */
    int s = (l >= g[4]) << 2;
    s += (l >= g[s + 2]) << 1;
    s += l >= g[s + 1];
    return (uint64_t)s << 32 | (uint32_t)(l - g[s]);
}

/* Link l of x by segment (seg_in). */
static uint64_t seg_id(const st_mmx *x, int32_t l)
{
    return seg_in(x->seg, l);
}

/* The link of x that seg_id names. */
static int32_t link_of(const st_mmx *x, uint64_t c)
{
    int s = (int)(c >> 32);
    if (s >= x->n_seg)
        ST_BUG("max-min recording names segment %d of %d", s, x->n_seg);
    return x->seg[s] + (int32_t)(uint32_t)c;
}

/* links[0..n) by segment into x->canon. */
static const uint64_t *canon(st_mmx *x, const int32_t *links, int n)
{
    size_t k = n > 0 ? (size_t)n : 0;
    x->canon = st_xgrow(x->canon, sizeof *x->canon, k + 1, &x->canon_cap);
    /* The starts in a local copy, which the stores into canon cannot change: read once. */
    int32_t g[SEG_MAX];
    memcpy(g, x->seg, sizeof g);
    uint64_t *out = x->canon;
    for (size_t i = 0; i < k; i++)
        out[i] = seg_in(g, links[i]);
    return out;
}

st_mm_trace *st_mm_trace_new(void)
{
    return st_xcalloc(1, sizeof(st_mm_trace));
}

void st_mm_trace_free(st_mm_trace *t)
{
    if (!t)
        return;
    free(t->op);
    free(t->link);
    free(t->w);
    free(t->ch);
    free(t->rate);
    free(t);
}

void st_mm_trace_clear(st_mm_trace *t)
{
    t->n_op = t->n_lw = t->n_w = t->n_ch = 0;
    t->cut = 0;
}

/* A copy of a[0..n) of `size` bytes each in an allocation of that size (NULL when n is 0). */
static void *dup_of(const void *a, size_t n, size_t size)
{
    if (n == 0)
        return NULL;
    void *d = st_xmalloc(n * size);
    memcpy(d, a, n * size);
    return d;
}

st_mm_trace *st_mm_trace_copy(const st_mm_trace *t)
{
    st_mm_trace *c = st_xmalloc(sizeof *c);
    *c = (st_mm_trace){.op = dup_of(t->op, t->n_op, sizeof *t->op),
                       .n_op = t->n_op,
                       .op_cap = t->n_op,
                       .link = dup_of(t->link, t->n_lw, sizeof *t->link),
                       .w = dup_of(t->w, t->n_w, sizeof *t->w),
                       .n_lw = t->n_lw,
                       .n_w = t->n_w,
                       .link_cap = t->n_lw,
                       .w_cap = t->n_w,
                       .ch = dup_of(t->ch, t->n_ch, sizeof *t->ch),
                       .rate = dup_of(t->rate, t->n_ch, sizeof *t->rate),
                       .n_ch = t->n_ch,
                       .ch_cap = t->n_ch,
                       .rate_cap = t->n_ch,
                       .cut = t->cut};
    return c;
}

/* a[0..n), an allocation of cap, cut to n (NULL when n is 0): realloc shrinks in place. */
static void *fit(void *a, size_t n, size_t size)
{
    if (n == 0) {
        free(a);
        return NULL;
    }
    return st_xrealloc(a, n * size);
}

/* Room for cap elements of `size` bytes, or NULL for none. */
static void *room(size_t cap, size_t size)
{
    return cap ? st_xmalloc(cap * size) : NULL;
}

st_mm_trace *st_mm_trace_take(st_mm_trace *t)
{
    st_mm_trace *c = st_xmalloc(sizeof *c);
    *c = (st_mm_trace){.op = fit(t->op, t->n_op, sizeof *t->op),
                       .n_op = t->n_op,
                       .op_cap = t->n_op,
                       .link = fit(t->link, t->n_lw, sizeof *t->link),
                       .w = fit(t->w, t->n_w, sizeof *t->w),
                       .n_lw = t->n_lw,
                       .n_w = t->n_w,
                       .link_cap = t->n_lw,
                       .w_cap = t->n_w,
                       .ch = fit(t->ch, t->n_ch, sizeof *t->ch),
                       .rate = fit(t->rate, t->n_ch, sizeof *t->rate),
                       .n_ch = t->n_ch,
                       .ch_cap = t->n_ch,
                       .rate_cap = t->n_ch,
                       .cut = t->cut};
    t->op = room(t->op_cap, sizeof *t->op);
    t->link = room(t->link_cap, sizeof *t->link);
    t->w = room(t->w_cap, sizeof *t->w);
    t->ch = room(t->ch_cap, sizeof *t->ch);
    t->rate = room(t->rate_cap, sizeof *t->rate);
    st_mm_trace_clear(t);
    return c;
}

size_t st_mm_trace_bytes(const st_mm_trace *t)
{
    return sizeof *t + t->n_op * sizeof *t->op + t->n_lw * sizeof *t->link + t->n_w * sizeof *t->w +
           t->n_ch * (sizeof *t->ch + sizeof *t->rate);
}

size_t st_mm_trace_calls(const st_mm_trace *t)
{
    return t->n_op;
}

int st_mm_trace_whole(const st_mm_trace *t)
{
    return !t->cut;
}

/* Whether w[0..n) (NULL: all 1) are all 1. */
static int all_ones(const double *w, size_t n)
{
    for (size_t i = 0; w && i < n; i++)
        if (w[i] != 1.0)
            return 0;
    return 1;
}

/* An add's recorded weights: NULL when all are 1 (st_maxmin_add reads NULL so). */
static const double *weights_of(const st_mm_trace *t, const mm_op *o)
{
    return o->woff == ALL_ONES ? NULL : t->w + o->woff;
}

/* Append a call (its side data copied; an add's weights w NULL: all 1) unless the recording is
 * cut or this would cut it. */
static void put(st_mm_trace *t, mm_op o, const uint64_t *link, const double *w, const int64_t *ch)
{
    if (t->cut)
        return;
    if (st_mm_trace_bytes(t) > ST_MM_TRACE_CAP) {
        t->cut = 1;
        return;
    }
    size_t n = o.n > 0 ? (size_t)o.n : 0;
    if (o.kind == OP_ADD) {
        t->link = st_xgrow(t->link, sizeof *t->link, t->n_lw + n, &t->link_cap);
        if (n && link) /* never NULL with n > 0; the test tells the compiler so */
            memcpy(t->link + t->n_lw, link, n * sizeof *link);
        o.off = t->n_lw;
        t->n_lw += n;
        o.woff = ALL_ONES;
        if (!all_ones(w, n)) {
            t->w = st_xgrow(t->w, sizeof *t->w, t->n_w + n, &t->w_cap);
            memcpy(t->w + t->n_w, w, n * sizeof *w);
            o.woff = t->n_w;
            t->n_w += n;
        }
    } else if (o.kind == OP_SOLVE) {
        t->ch = st_xgrow(t->ch, sizeof *t->ch, t->n_ch + n, &t->ch_cap);
        t->rate = st_xgrow(t->rate, sizeof *t->rate, t->n_ch + n, &t->rate_cap);
        if (n && ch && w) {
            memcpy(t->ch + t->n_ch, ch, n * sizeof *ch);
            memcpy(t->rate + t->n_ch, w, n * sizeof *w);
        }
        o.off = t->n_ch;
        t->n_ch += n;
    }
    t->op = st_xgrow(t->op, sizeof *t->op, t->n_op + 1, &t->op_cap);
    t->op[t->n_op++] = o;
}

st_mmx *st_mmx_new(int32_t n_links, const double *capacity, st_mm_trace *rec,
                   const st_mm_trace *const *follow, size_t n_follow, st_maxmin **pool)
{
    st_mmx *x = st_xcalloc(1, sizeof *x);
    x->n_links = n_links;
    x->capacity = capacity;
    x->pool = pool;
    x->rec = rec;
    if (n_follow) {
        x->cand = st_xmalloc(n_follow * sizeof *x->cand);
        memcpy(x->cand, follow, n_follow * sizeof *x->cand);
    }
    x->n_cand = n_follow;
    x->diverged = n_follow == 0;
    x->n_seg = 1; /* one segment from link 0 until st_mmx_segments */
    for (int i = 1; i < SEG_MAX; i++)
        x->seg[i] = INT32_MAX;
    return x;
}

void st_mmx_segments(st_mmx *x, const int32_t *first, int n)
{
    if (n < 1 || n > SEG_MAX || first[0] != 0)
        ST_BUG("max-min segments: %d, the first from %d", n, n > 0 ? (int)first[0] : -1);
    for (int i = 1; i < n; i++)
        if (first[i] < first[i - 1])
            ST_BUG("max-min segment %d starts before the one before it", i);
    if (x->pos || x->mm || (x->rec && x->rec->n_op))
        ST_BUG("st_mmx_segments after a call");
    for (int i = 0; i < SEG_MAX; i++)
        x->seg[i] = i < n ? first[i] : INT32_MAX;
    x->n_seg = n;
}

void st_mmx_free(st_mmx *x)
{
    if (!x)
        return;
    if (x->mm && x->pool && !*x->pool) {
        st_maxmin_reset(x->mm);
        *x->pool = x->mm;
    } else {
        st_maxmin_free(x->mm);
    }
    free(x->cand);
    free(x->rates);
    free(x->canon);
    free(x->ids);
    free(x);
}

/* Build the solver and make on it the calls followed so far: the same calls, so the same
 * state (the answers, already given, are checked against the recording's). */
static void materialise(st_mmx *x)
{
    if (x->pool && *x->pool) { /* reset: as a new one, bit for bit */
        x->mm = *x->pool;
        *x->pool = NULL;
    } else {
        x->mm = st_maxmin_new(x->n_links, x->capacity);
    }
    if (x->rec || x->cand)
        st_maxmin_drop_loads(x->mm); /* a recording holds rates only */
    const st_mm_trace *t = x->cur;
    for (size_t i = 0; t && i < x->pos; i++) {
        const mm_op *o = &t->op[i];
        switch (o->kind) {
        case OP_ADD: {
            size_t k = o->n > 0 ? (size_t)o->n : 0;
            x->ids = st_xgrow(x->ids, sizeof *x->ids, k + 1, &x->ids_cap);
            for (size_t j = 0; j < k; j++)
                x->ids[j] = link_of(x, t->link[o->off + j]);
            if (st_maxmin_add(x->mm, x->ids, weights_of(t, o), o->n) != o->id)
                ST_BUG("max-min replay: an add answered another id than recorded");
            break;
        }
        case OP_REMOVE:
            st_maxmin_remove(x->mm, o->id);
            break;
        case OP_ADD_LINK:
            if (st_maxmin_add_link(x->mm, o->v) != link_of(x, (uint64_t)o->id))
                ST_BUG("max-min replay: a link added under another id than recorded");
            break;
        case OP_SET_CAP:
            st_maxmin_set_capacity(x->mm, link_of(x, (uint64_t)o->id), o->v);
            break;
        default:
            if (st_maxmin_solve(x->mm, NULL) != (size_t)o->n)
                ST_BUG("max-min replay: a solve changed other rates than recorded");
        }
    }
}

/* Whether the recorded links rec[0..k) by segment are x's links[0..k): each names a segment of
 * x and an offset inside it, and x's link there is the link. As seg_id(x, links[i]) == rec[i],
 * without the search for each link's segment (most adds a follower makes match). */
static int same_links(const st_mmx *x, const uint64_t *rec, const int32_t *links, size_t k)
{
    for (size_t i = 0; i < k; i++) {
        uint64_t s = rec[i] >> 32;
        uint32_t off = (uint32_t)rec[i];
        if (s >= (uint64_t)x->n_seg)
            return 0;
        int32_t end = s + 1 < SEG_MAX ? x->seg[s + 1] : INT32_MAX;
        if (off >= (uint32_t)(end - x->seg[s]) || x->seg[s] + (int32_t)off != links[i])
            return 0;
    }
    return 1;
}

/* Whether recorded call o of t is call c to x: the same kind and arguments, doubles bit for
 * bit. */
static int matches(const st_mmx *x, const st_mm_trace *t, const mm_op *o, const mm_call *c)
{
    if (o->kind != c->kind)
        return 0;
    switch (c->kind) {
    case OP_ADD: {
        size_t k = c->n > 0 ? (size_t)c->n : 0;
        const double *w = weights_of(t, o);
        return o->n == c->n && (k == 0 || (same_links(x, t->link + o->off, c->link, k) &&
                                           (w ? c->w && memcmp(w, c->w, k * sizeof *c->w) == 0
                                              : all_ones(c->w, k))));
    }
    case OP_REMOVE:
        return o->id == c->id;
    case OP_ADD_LINK:
        return memcmp(&o->v, &c->v, sizeof o->v) == 0;
    case OP_SET_CAP:
        return o->id == c->id && memcmp(&o->v, &c->v, sizeof o->v) == 0;
    default:
        return 1;
    }
}

/* Stop following. A follower records nothing while it follows (most patterns follow to their
 * end, and their recording would be thrown away: models/step/pattern_time.c); the calls it
 * followed are the first pos calls of the recording it followed, answers included, so they go
 * into rec now, through put, as each would have gone in at its call. An added link's id is
 * recorded as this solver names it (seg_id of the link the follower answered), not copied. */
static void diverge(st_mmx *x)
{
    if (x->diverged)
        return;
    x->diverged = 1;
    const st_mm_trace *t = x->cur;
    for (size_t i = 0; x->rec && t && i < x->pos; i++) {
        mm_op o = t->op[i];
        if (o.kind == OP_ADD_LINK)
            o.id = (int64_t)seg_id(x, link_of(x, (uint64_t)o.id));
        if (o.kind == OP_SOLVE && o.n > 0)
            put(x->rec, o, NULL, t->rate + o.off, t->ch + o.off);
        else if (o.kind == OP_ADD && o.n > 0)
            put(x->rec, o, t->link + o.off, weights_of(t, &o), NULL);
        else /* nothing on the side: no offset into arrays that may be NULL */
            put(x->rec, o, NULL, NULL, NULL);
    }
}

/* The recorded answer to call c, when a recording matched every call so far and this one
 * (the call is then counted); else NULL, the follower stops following, and the real solver is
 * built for the caller to answer with. */
static const mm_op *answer(st_mmx *x, const mm_call *c)
{
    if (!x->diverged) {
        size_t k = 0;
        for (size_t i = 0; i < x->n_cand; i++) {
            const st_mm_trace *t = x->cand[i];
            if (x->pos < t->n_op && matches(x, t, &t->op[x->pos], c))
                x->cand[k++] = t;
        }
        if (k) {
            x->n_cand = k;
            x->cur = x->cand[0];
            return &x->cur->op[x->pos++];
        }
        diverge(x);
    }
    if (!x->mm)
        materialise(x);
    return NULL;
}

int32_t st_mmx_add_link(st_mmx *x, double capacity)
{
    const mm_op *o = answer(x, &(mm_call){.kind = OP_ADD_LINK, .v = capacity});
    int32_t l = o ? link_of(x, (uint64_t)o->id) : st_maxmin_add_link(x->mm, capacity);
    if (x->rec && !o)
        put(x->rec, (mm_op){.kind = OP_ADD_LINK, .id = (int64_t)seg_id(x, l), .v = capacity}, NULL,
            NULL, NULL);
    return l;
}

void st_mmx_set_capacity(st_mmx *x, int32_t link, double capacity)
{
    int64_t c = (int64_t)seg_id(x, link);
    if (answer(x, &(mm_call){.kind = OP_SET_CAP, .id = c, .v = capacity}))
        return;
    st_maxmin_set_capacity(x->mm, link, capacity);
    if (x->rec)
        put(x->rec, (mm_op){.kind = OP_SET_CAP, .id = c, .v = capacity}, NULL, NULL, NULL);
}

int64_t st_mmx_add(st_mmx *x, const int32_t *links, const double *weights, int n)
{
    const mm_op *o = answer(x, &(mm_call){.kind = OP_ADD, .n = n, .link = links, .w = weights});
    int64_t id = o ? o->id : st_maxmin_add(x->mm, links, weights, n);
    /* by segment only for a recording: a plain solver's adds and a follower's pay nothing */
    if (x->rec && !o)
        put(x->rec, (mm_op){.kind = OP_ADD, .id = id, .n = n}, canon(x, links, n), weights, NULL);
    return id;
}

void st_mmx_remove(st_mmx *x, int64_t id)
{
    if (answer(x, &(mm_call){.kind = OP_REMOVE, .id = id}))
        return;
    st_maxmin_remove(x->mm, id);
    if (x->rec)
        put(x->rec, (mm_op){.kind = OP_REMOVE, .id = id}, NULL, NULL, NULL);
}

size_t st_mmx_solve(st_mmx *x, const int64_t **changed, const double **rates)
{
    const mm_op *o = answer(x, &(mm_call){.kind = OP_SOLVE});
    size_t n;
    if (o) {
        n = (size_t)o->n;
        *changed = x->cur->ch + o->off;
        *rates = x->cur->rate + o->off;
    } else {
        n = st_maxmin_solve(x->mm, changed);
        if (n > INT32_MAX)
            ST_BUG("max-min solve changed %zu rates; a recording holds at most 2^31", n);
        x->rates = st_xgrow(x->rates, sizeof *x->rates, n + 1, &x->rates_cap);
        for (size_t i = 0; i < n; i++)
            x->rates[i] = st_maxmin_rate(x->mm, (*changed)[i]);
        *rates = x->rates;
    }
    if (x->rec && !o)
        put(x->rec, (mm_op){.kind = OP_SOLVE, .n = (int32_t)n}, NULL, *rates, *changed);
    return n;
}

st_maxmin *st_mmx_solver(st_mmx *x)
{
    diverge(x);
    if (!x->mm)
        materialise(x);
    return x->mm;
}

const st_maxmin *st_mmx_built(const st_mmx *x)
{
    return x->mm;
}

int st_mmx_diverged(const st_mmx *x)
{
    return x->diverged;
}
