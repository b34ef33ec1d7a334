/* Chrome / Perfetto trace-event JSON of one simulated step: a process per pipeline stage, with
 * a compute thread (forward, backward, optimizer), a thread for the sends each way and one for
 * the data-parallel communication after the pipeline; one complete ("X") event per span.
 * docs/guide/scenario-reference.md (the trace file) lists what the spans are. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "sim/strfmt.h"
#include "sim/xalloc.h"

static void name_track(cJSON *ev, int64_t pid, int tid, const char *what, const char *name)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "ph", "M");
    cJSON_AddStringToObject(m, "name", what);
    cJSON_AddNumberToObject(m, "pid", (double)pid);
    cJSON_AddNumberToObject(m, "tid", tid);
    cJSON_AddStringToObject(cJSON_AddObjectToObject(m, "args"), "name", name);
    cJSON_AddItemToArray(ev, m);
}

static void add_span(cJSON *ev, const st_pipe_span *s)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "name", s->name);
    cJSON_AddStringToObject(e, "ph", "X");
    cJSON_AddNumberToObject(e, "pid", (double)s->stage);
    cJSON_AddNumberToObject(e, "tid", s->stream);
    cJSON_AddNumberToObject(e, "ts", s->start_s * 1e6); /* the format counts microseconds */
    cJSON_AddNumberToObject(e, "dur", s->dur_s * 1e6);
    cJSON_AddItemToArray(ev, e);
}

char *st_report_trace(const st_workload_cfg *w, const st_pipe_trace *t)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *ev = cJSON_AddArrayToObject(root, "traceEvents");
    cJSON_AddStringToObject(root, "displayTimeUnit", "ms");
    for (int64_t s = 0; s < w->parallel.pp; s++) {
        char *name = st_xasprintf("%s: pipeline stage %lld", w->name, (long long)s);
        name_track(ev, s, 0, "process_name", name);
        free(name);
        name_track(ev, s, 0, "thread_name", "compute");
        name_track(ev, s, 1, "thread_name", "sends to the next stage");
        name_track(ev, s, 2, "thread_name", "sends to the previous stage");
        name_track(ev, s, ST_PIPE_STREAM_DP, "thread_name", "data-parallel communication");
    }
    for (size_t i = 0; i < t->n; i++)
        add_span(ev, &t->spans[i]);
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    if (!text)
        ST_BUG("cJSON_PrintUnformatted failed");
    char *out = st_xstrdup(text);
    cJSON_free(text);
    return out;
}
