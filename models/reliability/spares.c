/* The nodes out for repair as a binary min-heap of their repair ends (spares.h). */
#include "models/reliability/spares.h"

#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"

static void push(st_spares *s, st_time t)
{
    s->back = st_xgrow(s->back, sizeof *s->back, s->n + 1, &s->cap);
    size_t i = s->n++;
    while (i > 0 && s->back[(i - 1) / 2] > t) {
        s->back[i] = s->back[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    s->back[i] = t;
}

static st_time pop(st_spares *s)
{
    st_time top = s->back[0], last = s->back[--s->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= s->n)
            break;
        if (c + 1 < s->n && s->back[c + 1] < s->back[c])
            c++;
        if (s->back[c] >= last)
            break;
        s->back[i] = s->back[c];
        i = c;
    }
    if (s->n)
        s->back[i] = last;
    return top;
}

void st_spares_take(st_spares *s, st_time back, int64_t k)
{
    for (int64_t j = 0; s->on_hand >= 0 && j < k; j++)
        push(s, back);
}

/* The k-th smallest (0-based) of t[0 .. n), k < n, t reordered: Hoare's selection with a
 * median-of-three pivot, O(n) on average where a sort was O(n log n) at every failure of a job
 * with hundreds of nodes out. */
static st_time kth(st_time *t, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        st_time a = t[lo], b = t[mid], c = t[hi];
        st_time p = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
        size_t i = lo, j = hi;
        while (i <= j) {
            while (t[i] < p)
                i++;
            while (t[j] > p)
                j--;
            if (i <= j) {
                st_time x = t[i];
                t[i++] = t[j];
                t[j] = x;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return t[k];
    }
    return t[k];
}

st_time st_spares_ready(st_spares *s, st_time now, st_time when)
{
    if (s->on_hand < 0)
        return when;
    while (s->n && s->back[0] <= now) /* repaired by now: spares again */
        pop(s);
    if ((int64_t)s->n <= s->on_hand)
        return when;
    /* More out than on hand: up once all but on_hand of them are back, the (n - on_hand)-th
     * repair to end (the heap keeps them all: a failure before then counts them again). */
    st_time *t = st_xmalloc(s->n * sizeof *t);
    memcpy(t, s->back, s->n * sizeof *t);
    st_time back = kth(t, s->n, s->n - (size_t)s->on_hand - 1);
    free(t);
    return back > when ? back : when;
}

void st_spares_release(st_spares *s)
{
    free(s->back);
    s->back = NULL;
    s->n = s->cap = 0;
}
