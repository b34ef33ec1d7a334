/* The scheduler policies by name. Adding a policy: one file defining
 * `const st_sched_policy st__sched_NAME`, one X line in ST_SCHED_POLICIES below. */
#include <stdlib.h>
#include <string.h>

#include "models/sched/policy.h"
#include "sim/xalloc.h"

/* X(symbol, name): the registry, in the order `strata check` lists the names. */
#define ST_SCHED_POLICIES(X)                                                                       \
    X(st__sched_fifo, "fifo")                                                                      \
    X(st__sched_backfill, "backfill")                                                              \
    X(st__sched_sjf, "sjf")                                                                        \
    X(st__sched_srtf, "srtf")                                                                      \
    X(st__sched_srsf, "srsf")                                                                      \
    X(st__sched_gang, "gang")                                                                      \
    X(st__sched_tiresias, "tiresias")                                                              \
    X(st__sched_fair_share, "fair-share") X(st__sched_priority, "priority")

#define ST__SCHED_EXTERN(sym, name) extern const st_sched_policy sym;
ST_SCHED_POLICIES(ST__SCHED_EXTERN)
#undef ST__SCHED_EXTERN

#define ST__SCHED_PTR(sym, name) &sym,
static const st_sched_policy *const policies[] = {ST_SCHED_POLICIES(ST__SCHED_PTR)};
#undef ST__SCHED_PTR

#define ST__SCHED_NAME(sym, name) name,
const char *const st_sched_policy_names[] = {ST_SCHED_POLICIES(ST__SCHED_NAME) NULL};
#undef ST__SCHED_NAME

const st_sched_policy *st_sched_policy_find(const char *name)
{
    for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++)
        if (strcmp(policies[i]->name, name) == 0)
            return policies[i];
    return NULL;
}

const st_sched_policy *st_sched_policy_get(const char *name)
{
    const st_sched_policy *p = st_sched_policy_find(name ? name : "fifo");
    if (p && (p->abi != ST_SCHED_ABI || !p->configure || !p->release || !p->on_arrival ||
              !p->on_finish || !p->pick))
        ST_BUG("scheduler policy '%s' is incomplete", p->name);
    return p;
}
