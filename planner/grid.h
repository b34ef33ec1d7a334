/* The grid of a sweep: one axis per `--set PATH=V1,V2,...`, every combination of their values a
 * point, numbered so that the last axis varies fastest (the nested loops the --set options
 * read as, outermost first). */
#ifndef ST_PLANNER_GRID_H
#define ST_PLANNER_GRID_H

#include <stddef.h>

#define ST_GRID_MAX_AXES   16
#define ST_GRID_MAX_VALUES 10000   /* values in one axis, ranges expanded */
#define ST_GRID_MAX_POINTS 1000000 /* points in the whole grid */

typedef struct st_grid_axis {
    char *path;    /* the scenario key's dotted path (scenarios/override.h) */
    char **values; /* n values, in the order given, ranges expanded */
    size_t n, cap;
} st_grid_axis;

typedef struct st_grid {
    st_grid_axis ax[ST_GRID_MAX_AXES];
    size_t n_ax;
    size_t n_points; /* the product of the axes' sizes; 1 with no axis */
} st_grid;

/* Add the axis `PATH=ITEM,ITEM,...` to g. An item is a value (any YAML scalar without a comma,
 * checked later by the loader), `A..B*K` (A, A*K, A*K^2, ... up to B: K > 1, A > 0) or
 * `A..B+S` (A, A+S, ... up to B: S > 0), with A <= B plain numbers. Returns 0, or -1 with the
 * reason in why: text that is not UTF-8, no '=', a path's syntax (st_scn_set_check), an empty item,
 * a bad range, a path given twice, or more than the limits above. */
int st_grid_add(st_grid *g, const char *arg, char *why, size_t n);

/* The index into g->ax[axis].values of point p's value (p < g->n_points). */
size_t st_grid_value(const st_grid *g, size_t p, size_t axis);

void st_grid_free(st_grid *g);

#endif
