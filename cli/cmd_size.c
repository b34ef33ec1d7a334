/* `strata size FILE --deadline DUR [--budget power=P,gpus=N,racks=N,capex=USD,tco=USD]
 * [--goal gpu-hours|cost] [--top N] [--workload NAME] [--gpu-types A,B] [--oversubscription
 * X,Y] [--transport T,U] [--topologies A,B] [--storage-bandwidth B1,B2] [--delivery D,E]
 * [--format text|json|csv|markdown|html]`: the
 * capacity-sizing search (planner/size.c) for one training workload of FILE, written as the
 * search's counts, a ranked table and the Pareto front (report/size_out.c). The options are
 * read in cmd_size_opts.c, a service is sized in cmd_size_serve.c and --existing's kept pool
 * set up in cmd_size_existing.c (cmd_size_internal.h between them). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_size_internal.h"
#include "models/silicon/llm.h"
#include "scenarios/reader.h"
#include "sim/utf8.h"
#include "sim/xalloc.h"

/* `screen` on stdout (when not NULL), and `doc` to -o FILE, atomically, when o names one (the
 * screen's text in its place when -o names a .txt); a
 * write that fails says so, with its cause, and gives exit status 1. The flush here took the
 * cause of a failing stdout with it: main's final check then knew only "write error". */
int st__size_put(const st__size_opts *o, const char *screen, const char *doc)
{
    int rc = ST_EXIT_OK;
    if (o->text_file) { /* -o r.txt: the text there in place of stdout, no JSON beside it */
        doc = screen;
        screen = NULL;
    }
    char why[512];
    errno = 0;
    if (screen && (fputs(screen, stdout) == EOF || fflush(stdout))) {
        fprintf(stderr, "strata size: cannot write standard output: %s\n",
                errno ? strerror(errno) : "write error");
        st_cli_stdout_said(); /* main's close_stdout need not say it again */
        rc = ST_EXIT_SIM;
    }
    if (o->output && doc && st_cli_write_atomic(o->output, doc, strlen(doc), why, sizeof why)) {
        fprintf(stderr, "strata size: %s\n", why);
        rc = ST_EXIT_SIM;
    }
    return rc;
}

/* The workload to size: --workload NAME (a training or an inference one), else the first
 * training workload, else the first inference one. */
static const st_workload_cfg *pick(const st_scn *s, const char *name)
{
    for (int kind = ST_WL_TRAINING; kind <= ST_WL_INFERENCE; kind += 2)
        for (size_t i = 0; i < st_scn_workload_count(s); i++) {
            const st_workload_cfg *w = st_scn_workload(s, i);
            if ((int)w->kind == kind && (!name || strcmp(w->name, name) == 0))
                return w;
        }
    return NULL;
}

/* The hardware variants: every combination of the GPU types, oversubscriptions, transports,
 * topologies, storage bandwidths and delivery models given (the scenario's where an option is
 * absent), GPU type slowest, delivery model fastest. Malloc'd; *n of them, 0 (NULL) when no
 * option is given. */
static st_size_variant *variants_of(const st__size_opts *o, size_t *n)
{
    const size_t len[6] = {o->n_gpu,      o->n_oversub,    o->n_transport,
                           o->n_topology, o->n_storage_bw, o->n_delivery};
    size_t total = 1, given = 0;
    for (int a = 0; a < 6; a++) {
        total *= len[a] ? len[a] : 1;
        given += len[a];
    }
    *n = 0;
    if (!given)
        return NULL;
    st_size_variant *v = st_xcalloc(total, sizeof *v);
    for (size_t i = 0; i < total; i++) {
        size_t at[6], rest = i; /* i's digit on each axis, the last fastest */
        for (int a = 5; a >= 0; a--) {
            size_t m = len[a] ? len[a] : 1;
            at[a] = rest % m;
            rest /= m;
        }
        v[(*n)++] = (st_size_variant){
            .gpu = o->n_gpu ? o->gpu[at[0]] : NULL,
            .oversub = o->n_oversub ? o->oversub[at[1]] : 0,
            .set_transport = o->n_transport > 0,
            .transport = o->n_transport ? o->transport[at[2]] : ST_TRANSPORT_ROCE_V2,
            .set_topology = o->n_topology > 0,
            .topology = o->n_topology ? o->topology[at[3]] : ST_TOPO_SPINE_LEAF,
            .ckpt_write_bw = o->n_storage_bw ? o->storage_bw[at[4]] : 0,
            .set_delivery = o->n_delivery > 0,
            .delivery = o->n_delivery ? o->delivery[at[5]] : ST_DELIVERY_ON_PREM};
    }
    return v;
}

/* The report of r to stdout, or to -o FILE; with text, -o FILE takes the JSON and the text still
 * goes to stdout, as `strata run` does. */
static int emit(const st__size_opts *o, const st_size_report *rp, const st_size_result *r)
{
    char *text =
        o->format == ST_SIZE_TEXT && o->output ? st_size_render(rp, r, ST_SIZE_TEXT) : NULL;
    st_size_format f = o->format == ST_SIZE_TEXT && o->output ? ST_SIZE_JSON : o->format;
    char *doc = st_size_render(rp, r, f);
    int rc = st__size_put(o, o->output ? text : doc, doc);
    free(text);
    free(doc);
    return rc;
}

/* The targets `audit` holds a plan to: the scenario's audit section, else the audit's defaults
 * (models/config/config.c). */
static const st_audit_cfg *audit_of(const st_scn *s)
{
    const st_audit_cfg *a = st_scn_audit(s);
    return a ? a : &st_audit_cfg_default;
}

/* Workload w's index in s: the plant's stream for its phase offset, as `run` draws it. */
static uint64_t index_of(const st_scn *s, const st_workload_cfg *w)
{
    for (size_t i = 0; i < st_scn_workload_count(s); i++)
        if (st_scn_workload(s, i) == w)
            return (uint64_t)i;
    return 0;
}

/* The search for workload w of s under o's options, and its report: the exit status. */
static int size_workload(const st__size_opts *o0, const st_scn *s, const st_workload_cfg *w)
{
    st__size_opts opts = *o0, *o = &opts;
    st_cluster_cfg one;
    const st_cluster_cfg *cl = st_scn_cluster(s);
    int pool = -1, erc;
    if (o->existing && (erc = st__size_existing(o, s, &one, &pool)))
        return erc;
    if (o->existing)
        cl = &one;
    const st_cost_cfg *cost = st_scn_cost(s);
    const char *goal = o->goal ? o->goal : cost ? "cost" : "gpu-hours";
    if (strcmp(goal, "gpus") == 0)
        return st_cli_usage_error("size",
                                  "--goal gpus sizes a service; workload '%s' trains, sized by "
                                  "gpu-hours or cost",
                                  w->name);
    const st_failures_cfg *fail = st_scn_failures(s);
    size_t nv = 0;
    st_size_variant *vars = variants_of(o, &nv);
    if (o->existing)
        st__size_racks_of_types(st_scn_cluster(s), pool, vars, nv);
    /* Without --budget power=, the scenario's own facility.power_capacity is the budget: the
     * cap the audit checks the facility peak against (models/plant/plant.h). */
    double cap = cl->facility.power_capacity_w;
    double power_w = o->power_w > 0 ? o->power_w : cap > 0 ? cap : 0;
    /* and its cooling capacities the cooling budgets (plant.h st_plant_heat) */
    const st_facility_cfg *fc = &cl->facility;
    const double fcool[3] = {fc->cooling_capacity_w, fc->air_cooling_capacity_w,
                             fc->liquid_cooling_capacity_w};
    double cool[3];
    for (int i = 0; i < 3; i++)
        cool[i] = o->cooling_w[i] > 0 ? o->cooling_w[i] : fcool[i];
    st_size_spec spec = {.deadline_s = o->deadline_s,
                         .power_w = power_w,
                         .cooling_w = cool[0],
                         .air_cooling_w = cool[1],
                         .liquid_cooling_w = cool[2],
                         .gpus = o->gpus,
                         .racks = o->racks,
                         .capex_usd = o->capex_usd,
                         .tco_usd_per_year = o->tco_usd,
                         .junction_limit_c = audit_of(s)->junction_limit_c,
                         .memory_headroom = audit_of(s)->memory_headroom,
                         .failures = fail,
                         .variants = vars,
                         .n_variants = nv,
                         .goal = strcmp(goal, "cost") == 0 ? ST_SIZE_COST : ST_SIZE_GPU_HOURS,
                         .cost = cost,
                         .seed = st_scn_seed(s),
                         .plant_id = index_of(s, w),
                         .unit_nodes = st__size_unit_nodes(o, cl),
                         .unit = st__size_unit_kind(o),
                         .confidence = o->confidence,
                         .existing_gpu = o->existing ? cl->gpu : NULL,
                         .existing_nodes = o->existing ? cl->nodes : 0,
                         .existing = o->existing ? cl : NULL,
                         .scenario = o->existing ? st_scn_cluster(s) : NULL,
                         .existing_pool = pool,
                         .rows = (size_t)o->top};
    st_size_result r;
    st_err err = {0};
    int rc = st_size_search(cl, w, &spec, &r, &err);
    if (rc) {
        st_cli_print_err(&err);
        free(vars);
        return rc == ST_EINVAL ? ST_EXIT_INPUT : ST_EXIT_SIM;
    }
    char *file = st_utf8_repaired(o->file); /* the reports stay UTF-8 whatever its bytes */
    st_size_report rp = {.file = file,
                         .name = st_scn_name(s),
                         .workload = w->name,
                         .goal = goal,
                         .deadline_s = o->deadline_s,
                         .top = (size_t)o->top,
                         .spec = &spec,
                         .failures = fail && fail->n_classes > 0,
                         .experts = w->model && w->model->experts > 0,
                         .memory = w->checkpoint.enabled && w->checkpoint.memory.enabled,
                         .existing = o->existing,
                         .global_batch = w->global_batch,
                         .power_from = o->power_w > 0 ? "--budget"
                                       : cap > 0      ? "facility.power_capacity"
                                                      : NULL};
    static const char *const fkey[3] = {"facility.cooling_capacity",
                                        "facility.air_cooling_capacity",
                                        "facility.liquid_cooling_capacity"};
    for (int i = 0; i < 3; i++)
        rp.cooling_from[i] = o->cooling_w[i] > 0 ? "--budget" : fcool[i] > 0 ? fkey[i] : NULL;
    rc = emit(o, &rp, &r);
    st_size_release(&r);
    free(vars);
    free(file);
    return rc;
}

int st_cmd_size(int argc, char **argv)
{
    st__size_opts o = {0};
    int rc = st__size_parse_opts(argc, argv, &o);
    if (rc)
        return rc == 1 ? ST_EXIT_OK : rc;
    st_scn *s = NULL;
    if (st_cli_load(o.file, o.calibration, &s))
        return ST_EXIT_INPUT;
    st_cli_print_warnings(s);
    const st_cli_file out = {"-o", o.output};
    const st_workload_cfg *w = pick(s, o.workload);
    if (!w) { /* `--workload finetun`: did you mean 'finetune'? */
        const char *names[64];
        size_t m = 0;
        for (size_t i = 0; i < st_scn_workload_count(s) && m < 64; i++)
            if (st_scn_workload(s, i)->kind == ST_WL_TRAINING ||
                st_scn_workload(s, i)->kind == ST_WL_INFERENCE)
                names[m++] = st_scn_workload(s, i)->name;
        char near[200] = "";
        if (o.workload)
            st_did_you_mean(o.workload, names, m, near, sizeof near);
        rc = st_cli_usage_error("size", "%s has no training or inference workload%s%s%s", o.file,
                                o.workload ? " named " : "", o.workload ? o.workload : "", near);
        st_scn_free(s);
        return rc;
    }
    /* a service is sized over GPU types of its own (--gpu-types), never beside a kept pool */
    const char *pools_why =
        w->kind == ST_WL_INFERENCE
            ? "sizing a service designs a cluster of one GPU type, and this one has "
              "cluster.pools: size the service on a one-type scenario, naming the types to "
              "compare with --gpu-types"
            : "sizing designs a cluster of one GPU type, and this one has cluster.pools: keep "
              "one pool and search what to add with --existing POOL, or size a one-type scenario";
    if (((w->kind == ST_WL_INFERENCE || !o.existing) &&
         (rc = st_cli_refuse_pools("size", s, pools_why))) ||
        (rc = st_cli_check_outputs("size", s, &out, 1))) {
        st_scn_free(s);
        return rc;
    }
    if (w->kind == ST_WL_INFERENCE) {
        rc = st__size_service(&o, s, w);
        st_scn_free(s);
        return rc;
    }
    if (!(o.deadline_s > 0)) {
        st_scn_free(s);
        return st_cli_usage_error("size", "expected --deadline DURATION (such as 90d)");
    }
    st_workload_cfg own = *w; /* a job across pools is sized as its plan on one type */
    if (w->pool_gpus)
        fprintf(stderr,
                "strata size: note: workload '%s' runs across pools in %s; the search sizes its "
                "plan on one GPU type at a time (docs/guide/sizing.md)\n",
                w->name, o.file);
    own.pool_gpus = NULL;
    own.pool_batch = NULL;
    own.pool_batch_balanced = 0;
    rc = size_workload(&o, s, &own);
    st_scn_free(s);
    return rc;
}
