/* The scheduler policies by name, and the instance lifecycle. Adding a policy: one file defining
 * `const st_sched_policy st__sched_NAME`, one X line in ST_SCHED_POLICIES below. */
#include <stdlib.h>
#include <string.h>

#include "models/sched/policy.h"
#include "sim/xalloc.h"

/* X(symbol, name): the registry, in the order `strata check` lists the names. */
#define ST_SCHED_POLICIES(X) X(st__sched_fifo, "fifo")

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

int st_scheduler_init(st_scheduler *s, const st_sched_cfg *cfg, const st_cluster_cfg *c,
                      st_err *err)
{
    const char *name = cfg && cfg->policy ? cfg->policy : "fifo";
    memset(s, 0, sizeof *s);
    const st_sched_policy *p = st_sched_policy_find(name);
    if (!p)
        return st_err_set(err, ST_EINVAL, cfg ? cfg->policy_loc : (st_loc){0},
                          "unknown scheduler policy '%s'", name);
    if (p->abi != ST_SCHED_ABI || !p->configure || !p->release || !p->submit)
        ST_BUG("scheduler policy '%s' is incomplete", p->name);
    s->policy = p;
    s->state = st_xcalloc(1, p->state_size ? p->state_size : 1);
    return p->configure(s->state, cfg, c, err);
}

void st_scheduler_release(st_scheduler *s)
{
    if (s->policy)
        s->policy->release(s->state);
    free(s->state);
    memset(s, 0, sizeof *s);
}

int st_scheduler_submit(st_scheduler *s, const st_sched_job *job, st_sched_start *out)
{
    return s->policy->submit(s->state, job, out);
}
