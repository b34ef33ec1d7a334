/* Incremental max-min fair rate allocation by progressive filling (Bertsekas and Gallager,
 * "Data Networks", section 6.5.2), with weights: an entity crossing a link with weight w puts
 * w times its rate on that link. Entities come and go; a solve recomputes only the connected
 * part of the entity-link graph that changed. Knows nothing of topologies or time. */
#ifndef ST_MODELS_FABRIC_MAXMIN_H
#define ST_MODELS_FABRIC_MAXMIN_H

#include <stddef.h>
#include <stdint.h>

typedef struct st_maxmin st_maxmin;

/* A solver over n_links links with the given capacities (copied; finite and > 0, else ST_BUG).
 * Never returns NULL. st_maxmin_free(NULL) is a no-op. */
st_maxmin *st_maxmin_new(int32_t n_links, const double *capacity);
void st_maxmin_free(st_maxmin *m);

/* Put m back as st_maxmin_new left it: no entities, the links st_maxmin_add_link appended gone,
 * every capacity as given, loads kept again. It then answers every sequence of calls as a new
 * solver does, bit for bit, ids included. Costs the links and entities used since, not the
 * fabric's size, and keeps the allocations: a caller solving many patterns on one fabric reuses
 * one solver. */
void st_maxmin_reset(st_maxmin *m);

/* Put m back as st_maxmin_new(n_links, capacity) would make it (capacities copied; finite and
 * > 0, else ST_BUG), on links of another fabric or the same: it then answers every sequence of
 * calls as that new solver does, bit for bit. Costs the links, and keeps the allocations
 * (growing them for more links): a caller solving on fabric after fabric reuses one solver
 * instead of allocating and first touching 10^5 links' worth of memory for each. */
void st_maxmin_rebase(st_maxmin *m, int32_t n_links, const double *capacity);

/* Append a link of the given capacity (finite and > 0, else ST_BUG) and return its id: the
 * number of links before. For private limits, such as a transfer's own rate cap. */
int32_t st_maxmin_add_link(st_maxmin *m, double capacity);
/* Change a link's capacity (finite and > 0); the entities on it are re-solved at the next
 * solve. */
void st_maxmin_set_capacity(st_maxmin *m, int32_t link, double capacity);
/* Add an entity that crosses links[0..n) with weights[0..n) (> 0; NULL = all 1; a link may
 * appear more than once, weights add up). Returns its id, stable until removed (ids of removed
 * entities are reused). Its rate is 0 until the next solve. An entity with n == 0 is
 * unconstrained: a solve gives it rate INFINITY. A link out of range or a weight that is not
 * finite and > 0 is an ST_BUG. */
int64_t st_maxmin_add(st_maxmin *m, const int32_t *links, const double *weights, int n);

/* Remove an entity; its links' other entities are re-solved at the next solve. An id that is not
 * a live entity is an ST_BUG (so are st_maxmin_rate and st_maxmin_entity_links on one). */
void st_maxmin_remove(st_maxmin *m, int64_t id);

/* Recompute the rates touched by adds and removes since the last solve: only the connected
 * components of the entity <-> link graph that contain an added entity or a link of a removed
 * one, in O((E + L) log L) for their E edges and L links. Returns how many entities changed rate
 * and points *changed (if not NULL) at their ids, ascending (valid until the next call that
 * changes m). Every entity added since the last solve is listed; an older one only if its rate
 * moved by more than a relative 1e-12 (otherwise it keeps its old rate exactly). */
size_t st_maxmin_solve(st_maxmin *m, const int64_t **changed);

double st_maxmin_rate(const st_maxmin *m, int64_t id);

/* Sum over entities of weight x rate on a link, after the last solve. */
double st_maxmin_load(const st_maxmin *m, int32_t link);

/* Stop keeping link loads: a solve then skips their sums (a pass over the solved edges that no
 * rate depends on), and st_maxmin_load is an ST_BUG. For a user that reads rates only. */
void st_maxmin_drop_loads(st_maxmin *m);

/* A link's capacity, as given to st_maxmin_new. */
double st_maxmin_capacity(const st_maxmin *m, int32_t link);

/* The merged links of a live entity (each once, in first-appearance order) into *links and, if
 * weights is not NULL, their summed weights into *weights; returns their number. Both arrays are
 * borrowed and stay valid until the entity is removed. */
int st_maxmin_entity_links(const st_maxmin *m, int64_t id, const int32_t **links,
                           const double **weights);

/* What the last solve visited: its links into *links (if not NULL; valid until the next solve),
 * returning their number, and the number of its entities. Their loads are the only ones that
 * solve may have changed, so a caller tracking peak utilisation looks at these alone. */
size_t st_maxmin_solved_links(const st_maxmin *m, const int32_t **links);
size_t st_maxmin_solved_entities(const st_maxmin *m);

#endif
