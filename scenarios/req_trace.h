/* Reading a service's request trace (`requests: {mode: trace}`) into its rows. Internal to
 * scenarios/. */
#ifndef ST_SCENARIOS_REQ_TRACE_H
#define ST_SCENARIOS_REQ_TRACE_H

#include "scenarios/load_internal.h"

/* Read ic->trace_file in ic->trace_format into ic->trace (owned by the scenario), sorted by
 * arrival and timed from the first, with ic's count, rate (the rows' mean), mean lengths and
 * longest request set from them. `at` is the `file` key's value: a missing file, a directory,
 * a FIFO, a file over the cap, a missing column and a file of no request are errors there; a
 * malformed row is a warning FILE:LINE:COL (skipped) or, with malformed: refuse, an error; a
 * value past a bound, a column named twice or a row past ST_REQ_TRACE_MAX_ROWS an error either
 * way. Returns 0, or -1 after reporting. */
int st__req_trace_read(st_ld *ld, const st_ynode *at, st_inference_cfg *ic);

#endif
