/* `strata size` on an inference workload (cli/cmd_size.c): the serving rows of
 * planner/size_serve.c, written as text, JSON or a document (report/size_out.c). */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_size_internal.h"
#include "planner/size_serve.h"
#include "sim/utf8.h"

/* A service's sizing: the GPU types of --gpu-types (the scenario's without), tp 1 up to the
 * node, ranked by GPUs or (--goal cost, or a scenario that prices GPU-hours) cost. The options
 * of a training search are refused rather than ignored. */
int st__size_service(const st__size_opts *o, const st_scn *s, const st_workload_cfg *w)
{
    if (o->deadline_s > 0 || o->budget_seen || o->n_oversub || o->n_transport || o->n_topology ||
        o->n_storage_bw || o->n_delivery || o->existing || o->unit || o->confidence > 0)
        return st_cli_usage_error("size",
                                  "workload '%s' is a service: it is sized to its requests.rate "
                                  "and slo, with --gpu-types, --goal and --top; --deadline, "
                                  "--budget and the fabric, storage and delivery axes size a "
                                  "training workload",
                                  w->name);
    const st_cost_cfg *cost = st_scn_cost(s);
    /* a service's rows are priced by the GPU-hour (models/cost: cloud or bare metal), not on
     * premises, where strata run prices the plan */
    int hourly = cost && cost->delivery != ST_DELIVERY_ON_PREM;
    const char *goal = o->goal ? o->goal : hourly ? "cost" : "gpus";
    if (strcmp(goal, "gpu-hours") == 0)
        return st_cli_usage_error("size",
                                  "--goal gpu-hours sizes a training workload; workload '%s' is "
                                  "a service, sized by gpus or cost",
                                  w->name);
    if (strcmp(goal, "cost") == 0 && !hourly)
        return st_cli_usage_error(
            "size",
            "--goal cost for service '%s' needs GPU-hour prices (cost: with delivery cloud or "
            "bare-metal), found %s; size it by gpus and price the plan with strata run",
            w->name, cost ? "delivery on-prem" : "no cost: section");
    size_t id = 0; /* its index, which its request streams are drawn by (as strata run's) */
    while (id + 1 < st_scn_workload_count(s) && st_scn_workload(s, id) != w)
        id++;
    st_serve_size z;
    st_err err = {0};
    int rc = st_size_serving(st_scn_cluster(s), w, (uint64_t)id, o->gpu, o->n_gpu, cost,
                             strcmp(goal, "cost") == 0, st_scn_seed(s), &z, &err);
    if (rc) {
        st_cli_print_err(&err);
        st_serve_size_release(&z);
        return rc == ST_EINVAL ? ST_EXIT_INPUT : ST_EXIT_SIM;
    }
    st_serve_size_keep(&z, (size_t)o->top); /* the rows that cannot serve are kept, each why */
    /* as emit: text on stdout, the JSON on stdout with --format json, to -o FILE with either */
    char *file = st_utf8_repaired(o->file); /* the reports stay UTF-8 whatever its bytes */
    /* as emit: text on stdout (and its JSON to -o FILE); any other format on stdout, or to
     * -o FILE in its place; markdown, html and csv from the JSON's numbers */
    char *text = o->format == ST_SIZE_TEXT ? st_size_serve_text(file, w, goal, &z) : NULL, *doc;
    if (o->format == ST_SIZE_TEXT || o->format == ST_SIZE_JSON) {
        doc = o->format == ST_SIZE_JSON || o->output
                  ? st_report_json_print(st_size_serve_json(file, w, goal, &z))
                  : NULL;
    } else {
        cJSON *t = st_size_serve_json(file, w, goal, &z);
        doc = st_size_serve_doc(t, st_scn_name(s),
                                o->format == ST_SIZE_CSV    ? ST_FMT_CSV
                                : o->format == ST_SIZE_HTML ? ST_FMT_HTML
                                                            : ST_FMT_MARKDOWN);
        cJSON_Delete(t);
    }
    rc = st__size_put(o, o->format == ST_SIZE_TEXT ? text : o->output ? NULL : doc, doc);
    free(text);
    free(doc);
    free(file);
    st_serve_size_release(&z);
    return rc;
}
