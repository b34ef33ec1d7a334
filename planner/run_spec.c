/* The forecast a scenario asks for (run_spec.h). */
#include "planner/run_spec.h"

st_run_spec st_plan_run_spec(const st_scn *s, uint64_t seed)
{
    return (st_run_spec){.c = st_scn_cluster(s),
                         .w = st_scn_workload(s, 0),
                         .n = st_scn_workload_count(s),
                         .failures = st_scn_failures(s),
                         .sched = st_scn_sched(s),
                         .job_trace = st_scn_trace(s),
                         .horizon_s = st_scn_horizon_s(s),
                         .audit = st_scn_audit(s),
                         .cost = st_scn_cost(s),
                         .seed = seed};
}
