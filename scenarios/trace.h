/* Reading a job trace (the scenario's `trace:` section): the file's rows become st_trace_job
 * records owned by the scenario. Internal to scenarios/. */
#ifndef ST_SCENARIOS_TRACE_H
#define ST_SCENARIOS_TRACE_H

#include "scenarios/load_internal.h"

/* The most rows a trace may have: 2^22 = 4,194,304, above the public GPU-cluster job traces
 * (Helios, SC'21, reports 3.36 M jobs; the Philly list has 82,247). The cluster run keeps
 * about 430 bytes a job (1.8 GB at the cap; a 10^7-row trace took 4.26 GB before the cap), and
 * the file itself is capped at ST_CSV_MAX_BYTES (scenarios/csv_in.h). */
#define ST_TRACE_MAX_ROWS (1u << 22)

/* Read ld->s->trace.file in ld->s->trace.format into ld->s->trace.jobs and its tenants, opening
 * it once (a missing file, a directory, a FIFO or a file over the cap is an error at `at`, the
 * `file` key's value, before a byte is read). A row that does not parse, breaks a sign rule,
 * holds a NUL or a name that is not printable UTF-8 is malformed: a warning FILE:LINE:COL for
 * the first few and one summary warning at `at` with the total, the row skipped, or with
 * `malformed: refuse` an error. A value past a model's bound (models/config/limits.h), a header
 * column named twice and a row past ST_TRACE_MAX_ROWS are errors FILE:LINE:COL whatever
 * `malformed:` says; a missing column is an error at `at`. Returns 0, or -1 after adding errors
 * to the loader's diagnostics. */
int st__trace_read(st_ld *ld, const st_ynode *at);

#endif
