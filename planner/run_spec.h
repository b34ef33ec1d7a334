/* The forecast a scenario asks for (models/forecast/run.h's st_run_spec), built in one place so
 * that `strata run`, `audit`, `compare` and every `sweep` point forecast the same thing. */
#ifndef ST_PLANNER_RUN_SPEC_H
#define ST_PLANNER_RUN_SPEC_H

#include <stdint.h>

#include "models/forecast/run.h"
#include "scenarios/scenario.h"

/* Scenario s as `strata run` forecasts it at seed: its cluster, workloads, failures,
 * scheduler, trace, horizon, audit limits and cost. A command sets what it varies on top
 * (policy, placement, replicas, trace output). s must outlive the spec. */
st_run_spec st_plan_run_spec(const st_scn *s, uint64_t seed);

#endif
