/* The placement policies by name, and the instance lifecycle every caller uses. A new policy is
 * one file defining a const st_place_policy and one line in `policies` below. */
#include <stdlib.h>
#include <string.h>

#include "models/place/policy.h"
#include "sim/xalloc.h"

/* X(symbol, name): the registry, in the order the names are listed. */
#define ST_PLACE_POLICIES(X)                                                                       \
    X(st__place_pack, "pack")                                                                      \
    X(st__place_best_fit, "best-fit")                                                              \
    X(st__place_topology_aware, "topology-aware") X(st__place_random, "random")

#define ST__PLACE_EXTERN(sym, name) extern const st_place_policy sym;
ST_PLACE_POLICIES(ST__PLACE_EXTERN)
#undef ST__PLACE_EXTERN

#define ST__PLACE_PTR(sym, name) &sym,
static const st_place_policy *const policies[] = {ST_PLACE_POLICIES(ST__PLACE_PTR)};
#undef ST__PLACE_PTR

#define ST__PLACE_NAME(sym, name) name,
const char *const st_place_policy_names[] = {ST_PLACE_POLICIES(ST__PLACE_NAME) NULL};
#undef ST__PLACE_NAME

const st_place_policy *st_place_policy_find(const char *name)
{
    for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++)
        if (strcmp(policies[i]->name, name) == 0)
            return policies[i];
    return NULL;
}

void st_placer_init(st_placer *pl, const st_place_policy *p, const st_cluster_cfg *c)
{
    if (p->abi != ST_PLACE_ABI || !p->init || !p->place || !p->take)
        ST_BUG("placement policy '%s' is incomplete", p->name);
    pl->policy = p;
    pl->state = st_xcalloc(1, p->state_size ? p->state_size : 1);
    p->init(pl->state, c);
}

void st_placer_release(st_placer *pl)
{
    free(pl->state);
    pl->state = NULL;
}

void st_placer_seed(st_placer *pl, uint64_t seed)
{
    if (pl->policy->seed)
        pl->policy->seed(pl->state, seed);
}

int st_placer_place(st_placer *pl, const st_place_req *req, int64_t *gpus)
{
    return pl->policy->place(pl->state, req, gpus);
}

int st_placer_take(st_placer *pl, const st_pool *pool, int64_t n, int64_t *gpus)
{
    if (n < 1 || n > pool->free)
        return ST_ERANGE;
    return pl->policy->take(pl->state, pool, n, gpus);
}
