/* The rules a training workload's parallel plan must follow (Megatron-LM's own argument checks
 * and the ZeRO stages' constraints), stated once: the loader reports them at the input, and the
 * defaults the plan leaves out are derived here by the same arithmetic. */
#ifndef ST_MODELS_SILICON_PLAN_CHECK_H
#define ST_MODELS_SILICON_PLAN_CHECK_H

#include <stdint.h>

#include "models/config/config.h"

/* The most GPUs one plan may span; tp*cp*pp*dp beyond it is refused (ST_ELIMIT). */
#define ST_PLAN_MAX_GPUS 1e9

/* One broken rule. key names the value at fault as a path under the workload's mapping
 * ("parallel.tp", "gpus", "global_batch"; "parallel" for the plan as a whole, "" for the
 * workload itself); the loader points at that key, or at the deepest mapping on the path that
 * the input has. msg has no "workload 'name': " prefix. */
typedef struct st_plan_issue {
    int code; /* ST_EINVAL, or ST_ELIMIT for a plan beyond ST_PLAN_MAX_GPUS */
    const char *key;
    char msg[200];
} st_plan_issue;

/* Fill what a training plan leaves out: gpus = tp*cp*pp*dp when gpus is 0, parallel.dp =
 * gpus / (tp*cp*pp) when dp is 0 and it divides, and global_batch = dp x micro-batch (1 for
 * auto) when it is 0. A value that cannot be derived stays 0, and st_plan_check says why. */
void st_plan_fill(st_workload_cfg *w);

/* Check a filled training plan (its defaults filled) against the GPU count and the model's
 * shape, in a fixed order: the GPU count first (tp*cp*pp*dp = gpus, within the cluster c), of
 * which only the first broken rule is reported since the next depend on it, then each shape
 * rule (heads and K/V heads over tp, seq_len over cp, layers over pp*virtual_stages; those on
 * the model skipped when w->model is NULL) and the ZeRO stage's gradient and weight-gather
 * options, which do not depend on the GPU count. Writes at most cap (>= 1) issues to
 * out and returns how many it wrote; 0 means the plan is sound. */
int st_plan_check(const st_workload_cfg *w, const st_cluster_cfg *c, st_plan_issue *out, int cap);

/* Check that global_batch splits into micro-batches of `microbatch` sequences over dp, and, for
 * an interleaved schedule, into groups of pp micro-batches. microbatch 0 is auto: the dp split
 * is checked with micro-batches of 1, and the interleaving rule waits for the size the step
 * model picks. Same contract as st_plan_check; the interleaving rule is checked only once the
 * split holds. */
int st_plan_check_batch(const st_workload_cfg *w, int64_t microbatch, st_plan_issue *out, int cap);

#endif
