/* Reading a job trace (the scenario's `trace:` section): the file's rows become st_trace_job
 * records owned by the scenario. Internal to scenarios/. */
#ifndef ST_SCENARIOS_TRACE_H
#define ST_SCENARIOS_TRACE_H

#include "scenarios/load_internal.h"

/* Read ld->s->trace.file in ld->s->trace.format into ld->s->trace.jobs and its tenants. A row
 * that does not parse is a warning FILE:LINE:COL and is skipped, or with `malformed: refuse` an
 * error; a missing column or an unreadable file is an error located at `at` (the `file` key's
 * value). Returns 0, or -1 after adding errors to the loader's diagnostics. */
int st__trace_read(st_ld *ld, const st_ynode *at);

#endif
