/* Incremental max-min fair rate allocation by progressive filling (Bertsekas and Gallager,
 * "Data Networks", section 6.5.2), with weights: an entity crossing a link with weight w puts
 * w times its rate on that link. Entities come and go; a solve recomputes only the connected
 * part of the entity-link graph that changed. Knows nothing of topologies or time. */
#ifndef ST_MODELS_MAXMIN_H
#define ST_MODELS_MAXMIN_H

#include <stddef.h>
#include <stdint.h>

typedef struct st_maxmin st_maxmin;

/* A solver over n_links links with the given capacities (copied; > 0). */
st_maxmin *st_maxmin_new(int32_t n_links, const double *capacity);
void st_maxmin_free(st_maxmin *m);

/* Add an entity that crosses links[0..n) with weights[0..n) (> 0; NULL = all 1; a link may
 * appear more than once, weights add up). Returns its id, stable until removed. Its rate is 0
 * until the next solve. An entity with n == 0 is unconstrained: a solve gives it rate
 * INFINITY. */
int64_t st_maxmin_add(st_maxmin *m, const int32_t *links, const double *weights, int n);

/* Remove an entity; its links' other entities are re-solved at the next solve. */
void st_maxmin_remove(st_maxmin *m, int64_t id);

/* Recompute the rates touched by adds and removes since the last solve. Returns how many
 * entities changed rate and points *changed at their ids (valid until the next call). */
size_t st_maxmin_solve(st_maxmin *m, const int64_t **changed);

double st_maxmin_rate(const st_maxmin *m, int64_t id);

/* Sum over entities of weight x rate on a link, after the last solve. */
double st_maxmin_load(const st_maxmin *m, int32_t link);

#endif
