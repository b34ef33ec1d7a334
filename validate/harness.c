/* The harness every validation set shares: run cases one at a time, keep their rows, and sum
 * them up by set against the set's goal. The sets differ only in how a case runs (fabric.c,
 * step.c, life.c) and in their goals. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"
#include "validate/validate_internal.h"

st_valid_harness *st__valid_harness_new(const st__valid_ops *ops, size_t n)
{
    st_valid_harness *h = st_xcalloc(1, sizeof *h);
    h->ops = ops;
    h->n = n;
    h->rows = st_xcalloc(n ? n : 1, sizeof *h->rows);
    h->ran = st_xcalloc(n ? n : 1, 1);
    return h;
}

int st__valid_harness_dir(const st__valid_ops *ops, const char *dir, st_valid_harness **out,
                          st_err *err)
{
    size_t n = 0;
    char **files = st__valid_case_files(dir, &n);
    *out = NULL;
    if (!n) {
        free(files);
        return st_err_set(err, ST_ENOTFOUND, (st_loc){0}, "no case files in '%s'", dir);
    }
    *out = st__valid_harness_new(ops, n);
    (*out)->files = files;
    return 0;
}

void st_valid_harness_free(st_valid_harness *h)
{
    if (!h)
        return;
    for (size_t i = 0; h->files && i < h->n; i++)
        free(h->files[i]);
    free(h->files);
    free(h->rows);
    free(h->ran);
    free(h->sets);
    free(h);
}

size_t st_valid_count(const st_valid_harness *h)
{
    return h->n;
}

int st_valid_case(st_valid_harness *h, size_t i, const st_valid_row **row, st_diag *d, st_err *err)
{
    if (i >= h->n)
        return st_err_set(err, ST_EINVAL, (st_loc){0}, "no case %zu", i);
    st_valid_row *r = &h->rows[i];
    *r =
        (st_valid_row){.note = "", .algo = "", .proto = "", .kind = ST_VALID_VALIDATION, .fits = 1};
    int rc = h->ops->run(h, i, r, d, err);
    h->ran[i] = rc == 0;
    if (!rc)
        *row = r;
    return rc;
}

const char *st_valid_kind_name(st_valid_kind k)
{
    static const char *const names[] = {"calibration", "validation", "reference"};
    return (int)k >= 0 && k <= ST_VALID_REFERENCE ? names[k] : "?";
}

/* ---- set summaries ------------------------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The |error| statistics of the counted rows of set that have a relative error. */
static void error_stats(const st_valid_harness *h, const char *set, st_valid_set *out)
{
    double sum = 0, *abs_e = st_xmalloc((h->n ? h->n : 1) * sizeof *abs_e);
    size_t k = 0;
    for (size_t i = 0; i < h->n; i++) {
        const st_valid_row *r = &h->rows[i];
        if (!h->ran[i] || r->kind != ST_VALID_VALIDATION || strcmp(r->set, set) != 0 || !r->fits ||
            r->bound_kind == ST_VALID_BOUND_FACTOR || r->bound_kind == ST_VALID_BOUND_ORDER ||
            r->bound_kind == ST_VALID_BOUND_RANGE || r->bound_kind == ST_VALID_BOUND_AT_MOST)
            continue;
        abs_e[k] = fabs(r->error);
        sum += abs_e[k];
        out->max_abs = fmax(out->max_abs, abs_e[k++]);
    }
    qsort(abs_e, k, sizeof *abs_e, cmp_double);
    out->n_err = (int)k;
    out->mean_abs = k ? sum / (double)k : 0;
    out->median_abs = !k ? 0 : k % 2 ? abs_e[k / 2] : (abs_e[k / 2 - 1] + abs_e[k / 2]) / 2;
    free(abs_e);
}

static void summarise(const st_valid_harness *h, const char *set, st_valid_set *out)
{
    *out = (st_valid_set){.goal = {INFINITY, INFINITY, INFINITY}};
    snprintf(out->name, sizeof out->name, "%s", set);
    if (h->ops->goal)
        out->goal = h->ops->goal(set);
    for (size_t i = 0; i < h->n; i++) {
        const st_valid_row *r = &h->rows[i];
        if (!h->ran[i] || r->kind != ST_VALID_VALIDATION || strcmp(r->set, set) != 0)
            continue;
        out->rows++;
        out->passed += r->pass;
        out->no_fit += !r->fits;
    }
    error_stats(h, set, out);
    /* A published run the memory model says cannot fit is a miss of the memory model: such a
     * row does not pass. */
    out->missed = out->passed < out->rows || out->mean_abs > out->goal.mean ||
                  out->median_abs > out->goal.median || out->max_abs > out->goal.max;
}

size_t st_valid_sets(st_valid_harness *h, const st_valid_set **sets)
{
    free(h->sets);
    h->sets = st_xcalloc(h->n ? h->n : 1, sizeof *h->sets);
    h->n_sets = 0;
    for (size_t i = 0; i < h->n; i++) {
        int first = h->ran[i];
        for (size_t j = 0; j < i && first; j++)
            first = !h->ran[j] || strcmp(h->rows[j].set, h->rows[i].set) != 0;
        if (first)
            summarise(h, h->rows[i].set, &h->sets[h->n_sets++]);
    }
    *sets = h->sets;
    return h->n_sets;
}
