/* Recordings by pattern shape (models/step/shape_trace.h): the collective memo's hash table
 * finds a shape's slot, its time field holding the slot's index (a whole number below 2^32,
 * exact in a double). */
#include "models/step/shape_trace.h"

#include <stdlib.h>

#include "sim/xalloc.h"

typedef struct shape {
    st_mm_trace *t[ST_SHAPE_TRACE_PER];
    size_t n;
    st__instant *first; /* its first instant, or NULL */
} shape;

struct st__shape_traces {
    st_coll_memo *index; /* shape key (bytes 0) -> index into sh */
    shape *sh;
    size_t n, cap, bytes, count;
    size_t instant_bytes;
};

st__shape_traces *st__shape_traces_new(void)
{
    st__shape_traces *s = st_xcalloc(1, sizeof *s);
    s->index = st_coll_memo_new();
    return s;
}

void st__shape_traces_free(st__shape_traces *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        for (size_t j = 0; j < s->sh[i].n; j++)
            st_mm_trace_free(s->sh[i].t[j]);
    for (size_t i = 0; i < s->n; i++)
        st__instant_free(s->sh[i].first);
    free(s->sh);
    st_coll_memo_free(s->index);
    free(s);
}

static st_coll_memo_key shape_of(const st_coll_memo_key *k)
{
    st_coll_memo_key q = *k;
    q.bytes = 0; /* no pattern has 0 bytes (st__step_coll_time returns before): no clash */
    return q;
}

static shape *find(const st__shape_traces *s, const st_coll_memo_key *k)
{
    st_coll_memo_key q = shape_of(k);
    double i;
    return st_coll_memo_find(s->index, &q, &i) ? &s->sh[(size_t)i] : NULL;
}

size_t st__shape_traces_find(const st__shape_traces *s, const st_coll_memo_key *k,
                             const st_mm_trace *const **t)
{
    shape *h = find(s, k);
    *t = h ? (const st_mm_trace *const *)h->t : NULL;
    return h ? h->n : 0;
}

/* k's shape, added empty when it is not in s yet. */
static shape *find_or_add(st__shape_traces *s, const st_coll_memo_key *k)
{
    shape *h = find(s, k);
    if (h)
        return h;
    st_coll_memo_key q = shape_of(k);
    s->sh = st_xgrow(s->sh, sizeof *s->sh, s->n + 1, &s->cap);
    st_coll_memo_put(s->index, &q, (double)s->n);
    h = &s->sh[s->n++];
    h->n = 0;
    h->first = NULL;
    return h;
}

void st__shape_traces_put(st__shape_traces *s, const st_coll_memo_key *k, st_mm_trace *t)
{
    size_t b = st_mm_trace_bytes(t);
    shape *h = find(s, k);
    if (!st_mm_trace_whole(t) || (h && h->n == ST_SHAPE_TRACE_PER) ||
        b > ST_SHAPE_TRACE_BUDGET - s->bytes) {
        st_mm_trace_free(t);
        return;
    }
    h = find_or_add(s, k);
    h->t[h->n++] = t;
    s->bytes += b;
    s->count++;
}

void st__instant_free(st__instant *i)
{
    if (!i)
        return;
    for (size_t k = 0; k < i->n_prep; k++)
        st_coll_prep_free(i->prep[k]);
    free(i->prep);
    free(i->run);
    free(i->rate);
    free(i->floor);
    free(i);
}

const st__instant *st__shape_instant_find(const st__shape_traces *s, const st_coll_memo_key *k)
{
    const shape *h = find(s, k);
    return h ? h->first : NULL;
}

static size_t instant_bytes(const st__instant *i)
{
    size_t b = sizeof *i + i->n_runs * sizeof *i->run + i->n_prep * sizeof *i->prep +
               i->n_x * (sizeof *i->rate + sizeof *i->floor);
    for (size_t k = 0; k < i->n_prep; k++)
        b += st_coll_prep_bytes(i->prep[k]);
    return b;
}

void st__shape_instant_put(st__shape_traces *s, const st_coll_memo_key *k, st__instant *i)
{
    size_t b = instant_bytes(i);
    const shape *h = find(s, k);
    if ((h && h->first) || b > ST_SHAPE_INSTANT_BUDGET - s->instant_bytes) {
        st__instant_free(i);
        return;
    }
    find_or_add(s, k)->first = i;
    s->instant_bytes += b;
}

size_t st__shape_traces_count(const st__shape_traces *s)
{
    return s->count;
}

size_t st__shape_traces_bytes(const st__shape_traces *s)
{
    return s->bytes;
}
