/* Recordings by pattern shape (models/step/shape_trace.h): the collective memo's hash table
 * finds a shape's slot, its time field holding the slot's index (a whole number below 2^32,
 * exact in a double). */
#include "models/step/shape_trace.h"

#include <stdlib.h>

#include "sim/xalloc.h"

typedef struct shape {
    st_mm_trace *t[ST_SHAPE_TRACE_PER];
    size_t n;
} shape;

struct st__shape_traces {
    st_coll_memo *index; /* shape key (bytes 0) -> index into sh */
    shape *sh;
    size_t n, cap, bytes, count;
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

void st__shape_traces_put(st__shape_traces *s, const st_coll_memo_key *k, st_mm_trace *t)
{
    size_t b = st_mm_trace_bytes(t);
    shape *h = find(s, k);
    if (!st_mm_trace_whole(t) || (h && h->n == ST_SHAPE_TRACE_PER) ||
        b > ST_SHAPE_TRACE_BUDGET - s->bytes) {
        st_mm_trace_free(t);
        return;
    }
    if (!h) {
        st_coll_memo_key q = shape_of(k);
        s->sh = st_xgrow(s->sh, sizeof *s->sh, s->n + 1, &s->cap);
        st_coll_memo_put(s->index, &q, (double)s->n);
        h = &s->sh[s->n++];
        h->n = 0;
    }
    h->t[h->n++] = t;
    s->bytes += b;
    s->count++;
}

size_t st__shape_traces_count(const st__shape_traces *s)
{
    return s->count;
}

size_t st__shape_traces_bytes(const st__shape_traces *s)
{
    return s->bytes;
}
