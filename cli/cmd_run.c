/* `strata run FILE`: load a scenario, forecast every workload, print and write the report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "sim/xalloc.h"

typedef struct run_opts {
    const char *file, *output, *trace;
    int json; /* stdout format */
    int has_seed;
    int explain;
    uint64_t seed;
    int64_t replicas;
} run_opts;

static int parse_seed(const char *text, uint64_t *out)
{
    char *end;
    if (!text || text[0] < '0' || text[0] > '9')
        return -1;
    unsigned long long v = strtoull(text, &end, 10);
    /* Seeds stay exact in the JSON report, whose numbers are doubles: at most 2^53. */
    if (*end || v > 9007199254740992ull)
        return -1;
    *out = v;
    return 0;
}

static int parse_opts(int argc, char **argv, run_opts *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (st_cli_wants_help(a, "run"))
            return 1;
        if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            if (!val)
                return st_cli_usage_error("run", "%s needs a file name", a);
            o->output = val;
            i++;
        } else if (strcmp(a, "--format") == 0) {
            if (!val || (strcmp(val, "text") != 0 && strcmp(val, "json") != 0))
                return st_cli_usage_error("run", "--format takes 'text' or 'json'");
            o->json = strcmp(val, "json") == 0;
            i++;
        } else if (strcmp(a, "--trace") == 0) {
            if (!val)
                return st_cli_usage_error("run", "--trace needs a file name");
            o->trace = val;
            i++;
        } else if (strcmp(a, "--replicas") == 0) {
            char *end = NULL;
            long long v = val ? strtoll(val, &end, 10) : 0;
            if (!val || !end || *end || v < 2 || v > 1000000)
                return st_cli_usage_error("run",
                                          "--replicas takes a whole number from 2 to "
                                          "1000000, found '%s'",
                                          val ? val : "nothing");
            o->replicas = v;
            i++;
        } else if (strcmp(a, "--explain") == 0) {
            o->explain = 1;
        } else if (strcmp(a, "--seed") == 0) {
            if (parse_seed(val, &o->seed))
                return st_cli_usage_error("run", "--seed takes a whole number from 0 to 2^53");
            o->has_seed = 1;
            i++;
        } else if (a[0] == '-' && a[1] != '\0') {
            return st_cli_usage_error("run", "unknown option '%s'", a);
        } else if (o->file) {
            return st_cli_usage_error("run", "expected one scenario file, found a second: '%s'", a);
        } else {
            o->file = a;
        }
    }
    if (!o->file)
        return st_cli_usage_error("run", "expected a scenario file");
    return 0;
}

static int emit(const run_opts *o, const st_run *r)
{
    char *json = NULL;
    if (o->output || o->json)
        json = st_report_json(r);
    if (o->output) {
        char why[512];
        if (st_cli_write_atomic(o->output, json, strlen(json), why, sizeof why)) {
            fprintf(stderr, "strata run: %s\n", why);
            free(json);
            return ST_EXIT_SIM;
        }
    }
    if (o->json)
        fputs(json, stdout);
    else
        st_report_text(stdout, r);
    free(json);
    return ST_EXIT_OK;
}

static int sim_error(const st_err *err)
{
    char line[512];
    st_err_format(err, line, sizeof line);
    fprintf(stderr, "%s\n", line);
    return ST_EXIT_SIM;
}

/* Every training job's whole life, after the steps: jobs placed one after another on the
 * cluster's GPUs (wrapping round when they overflow it), each job's ingest need from its step,
 * then each job's ingest and checkpoints measured with every other job's ingest stream running
 * (they share the tiers and the fabric), failures, and the life run. */
static int forecast_lives(st_run *r)
{
    const st_scn *s = r->s;
    const st_cluster_cfg *c = st_scn_cluster(s);
    int64_t cluster_gpus = c->nodes * c->gpus_per_node, next_gpu = 0;
    int64_t *first = st_xcalloc(r->n, sizeof *first);
    int *live = st_xcalloc(r->n, sizeof *live);
    for (size_t i = 0; i < r->n; i++) {
        const st_workload_cfg *w = st_scn_workload(s, i);
        if (w->kind != ST_WL_TRAINING || !r->f[i].has_step || w->gpus > cluster_gpus)
            continue;
        if (next_gpu + w->gpus > cluster_gpus)
            next_gpu = 0;
        first[i] = next_gpu;
        live[i] = 1;
        next_gpu += w->gpus;
    }
    /* Every job's ingest stream at its need, for the others' background. */
    st_io *ingest = st_xcalloc(r->n, sizeof *ingest);
    int64_t **hosts = st_xcalloc(r->n, sizeof *hosts);
    int *has = st_xcalloc(r->n, sizeof *has);
    for (size_t i = 0; i < r->n; i++) {
        if (!live[i])
            continue;
        const st_workload_cfg *w = st_scn_workload(s, i);
        double step = r->f[i].step.step_time_s;
        double need = w->data.enabled && step > 0 ? (double)w->global_batch * (double)w->seq_len /
                                                        step * w->data.bytes_per_token
                                                  : 0;
        hosts[i] = st_xmalloc((size_t)w->gpus * sizeof *hosts[i]);
        has[i] = st_storage_ingest_stream(c, w, first[i], need, hosts[i], &ingest[i]) > 0;
    }
    st_topo *topo = NULL;
    st_err err = {0};
    st_io *bg = st_xcalloc(r->n + 1, sizeof *bg);
    int rc = 0;
    for (size_t i = 0; i < r->n && !rc; i++) {
        if (!live[i])
            continue;
        if (!topo && st_topo_new(c, &topo, &err)) {
            rc = sim_error(&err);
            break;
        }
        st_io_set set = {bg, 0};
        for (size_t k = 0; k < r->n; k++)
            if (k != i && has[k])
                bg[set.n++] = ingest[k];
        if (st_forecast_life(&r->f[i], topo, c, st_scn_failures(s), first[i], r->seed, r->replicas,
                             &set, &err))
            rc = sim_error(&err);
    }
    st_topo_free(topo);
    for (size_t i = 0; i < r->n; i++)
        free(hosts[i]);
    free(hosts);
    free(has);
    free(ingest);
    free(bg);
    free(live);
    free(first);
    return rc;
}

/* Training workloads: memory, then one simulated step each on a shared step context (the
 * fabric is built once), then their lives. The first training workload's step goes to --trace
 * when asked. */
static int forecast_training(st_run *r, const char *trace_path)
{
    const st_scn *s = r->s;
    st_step_ctx *x = NULL;
    st_err err = {0};
    int rc = 0, traced = 0;
    for (size_t i = 0; i < r->n && !rc; i++) {
        const st_workload_cfg *w = st_scn_workload(s, i);
        if (w->kind != ST_WL_TRAINING)
            continue;
        if (!x && st_step_ctx_new(st_scn_cluster(s), &x, &err))
            return sim_error(&err);
        st_pipe_trace trace = {0};
        int want = trace_path && !traced;
        if (st_forecast_job(x, w, st_scn_cluster(s), &r->f[i], want ? &trace : NULL, &err))
            rc = sim_error(&err);
        else if (want && st_cli_write_trace(trace_path, w, &trace, &err))
            rc = sim_error(&err);
        traced |= want;
        st_pipe_trace_release(&trace);
    }
    st_step_ctx_free(x);
    if (!rc)
        rc = forecast_lives(r);
    if (!rc && trace_path && !traced)
        fprintf(stderr, "strata run: --trace: no training workload to trace; nothing written\n");
    return rc;
}

/* Training workloads get the per-job forecast; collective workloads run together on the
 * fabric model. A failure there is a simulation error (exit 1) with a located message. */
static int simulate(st_run *r, const char *trace_path)
{
    const st_scn *s = r->s;
    r->n = st_scn_workload_count(s);
    r->f = st_xcalloc(r->n, sizeof *r->f);
    r->coll = st_xcalloc(r->n, sizeof *r->coll);
    const st_workload_cfg **colls = st_xcalloc(r->n, sizeof *colls);
    size_t *where = st_xcalloc(r->n, sizeof *where), k = 0;
    for (size_t i = 0; i < r->n; i++) {
        const st_workload_cfg *w = st_scn_workload(s, i);
        if (w->kind == ST_WL_COLLECTIVE) {
            where[k] = i;
            colls[k++] = w;
        }
    }
    int rc = forecast_training(r, trace_path);
    if (!rc && k) {
        st_coll_result *res = st_xcalloc(k, sizeof *res);
        st_err err = {0};
        if (st_fabric_run(st_scn_cluster(s), colls, k, res, &r->fab, &err))
            rc = sim_error(&err);
        for (size_t j = 0; j < k; j++)
            r->coll[where[j]] = res[j];
        r->has_fabric = 1;
        free(res);
    }
    free(colls);
    free(where);
    return rc;
}

int st_cmd_run(int argc, char **argv)
{
    run_opts o = {0};
    int rc = parse_opts(argc, argv, &o);
    if (rc)
        return rc == 1 ? ST_EXIT_OK : rc;
    st_diag d = {0};
    st_scn *s = NULL;
    if (st_scn_load_file(o.file, &s, &d)) {
        st_cli_print_diag(&d);
        return ST_EXIT_INPUT;
    }
    st_run r = {.s = s,
                .seed = o.has_seed ? o.seed : st_scn_seed(s),
                .explain = o.explain,
                .replicas = o.replicas};
    rc = simulate(&r, o.trace);
    if (!rc)
        rc = emit(&o, &r);
    free(r.f);
    free(r.coll);
    st_scn_free(s);
    return rc;
}
