/* `strata size FILE --deadline DUR [--budget power=P,gpus=N,racks=N,capex=USD,tco=USD]
 * [--goal gpu-hours|cost] [--top N] [--workload NAME] [--gpu-types A,B] [--oversubscription
 * X,Y] [--transport T,U] [--topologies A,B] [--storage-bandwidth B1,B2] [--delivery D,E]
 * [--format text|json|csv|markdown|html]`: the
 * capacity-sizing search (planner/size.c) for one training workload of FILE, written as the
 * search's counts, a ranked table and the Pareto front (report/size_out.c). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "models/config/limits.h"
#include "models/config/pools.h"
#include "planner/size.h"
#include "planner/size_serve.h"
#include "report/report.h"
#include "report/size_out.h"
#include "scenarios/catalog.h"
#include "sim/units.h"
#include "sim/utf8.h"
#include "sim/xalloc.h"

#define MAX_AXIS 16 /* values in one of the variant axes (--gpu-types ... --storage-bandwidth) */

typedef struct size_opts {
    const char *file, *workload, *goal, *output;
    double deadline_s, power_w, capex_usd, tco_usd;
    double confidence;   /* --confidence; 0: the point forecast */
    double cooling_w[3]; /* cooling=, air_cooling=, liquid_cooling= */
    int64_t gpus, racks;
    const char *unit;        /* --unit: node, rack, leaf or a node count; NULL: a node */
    int64_t unit_count;      /* --unit's node count as parsed (a suffix read: 2K is 2000) */
    const char *calibration; /* --calibration FILE */
    const char *existing;    /* --existing POOL */
    long top;
    st_size_format format;
    const st_gpu_spec *gpu[MAX_AXIS];
    double oversub[MAX_AXIS];
    st_transport transport[MAX_AXIS];
    st_topology topology[MAX_AXIS];
    double storage_bw[MAX_AXIS];
    st_delivery delivery[MAX_AXIS];
    size_t n_gpu, n_oversub, n_transport, n_topology, n_storage_bw, n_delivery;
    unsigned budget_seen; /* bit k: the budget key budget_keys[k] was given */
} size_opts;

/* The next comma-separated item of *p (which moves past it) into buf, or 0 at the end; an empty
 * item (",", "a,,b", a trailing ",") is a usage error of opt (> 0 returned via *rc). */
static int next_item(const char *opt, const char **p, char *buf, size_t n, int *rc)
{
    *rc = 0;
    if (!*p)
        return 0;
    size_t len = strcspn(*p, ",");
    if (len == 0 || len >= n) {
        *rc = st_cli_usage_error("size", "%s: %s item in '%s'", opt,
                                 len ? "an overlong" : "an empty", *p);
        return 0;
    }
    memcpy(buf, *p, len);
    buf[len] = '\0';
    *p = (*p)[len] ? *p + len + 1 : NULL;
    if (*p && !**p) /* a trailing comma */
        *rc = st_cli_usage_error("size", "%s: an empty item at the end", opt);
    return !*rc;
}

/* The command line's own caps, as limit rows: what each bound is and why, for the message the
 * shared value parser writes (models/config/limits.h, st_limit_parse). */
static const st_limit lim_budget_gpus = {0, ST_LIM_RANKS, "the most GPUs a budget names",
                                         "the largest plan, 10^9 GPUs"};
static const st_limit lim_budget_racks = {0, ST_LIM_RANKS, "the most racks a budget names",
                                          "no more racks than the largest plan's 10^9 GPUs"};
static const st_limit lim_top = {0, 1000, "the most rows --top ranks",
                                 "a ranked table stays one a reader can scan"};
static const st_limit lim_oversub = {0, 64, "the largest oversubscription size tries",
                                     "64:1, past any fabric built"};
/* The one-sided end at level q is rank ceil((n + 1) q) of n residuals (models/forecast/band.h):
 * the error band's whole table reaches 99%, and a confidence below one half is a median's
 * optimism, not a margin. */
static const st_limit lim_confidence = {0.5, 0.99, "the levels --confidence takes",
                                        "the error band's table of published runs reaches 99%"};

/* A value of option `key` under rule r into *out: 0, or the shared parser's message as a usage
 * error ("--deadline: 1e308 y is beyond the longest duration ... (at most 73.12 y: 2^61 ns)"). */
static int value(const char *key, const char *val, const st_value_rule *r, double *out)
{
    return st_cli_value("size", key, val, r, out);
}

/* A count budget (gpus=, racks=): a whole number from 1 to its row's bound. */
static int budget_count(const char *key, const char *val, int64_t *out)
{
    char k[32];
    snprintf(k, sizeof k, "--budget %s", key);
    st_value_rule r = {.dim = ST_DIM_COUNT,
                       .range = ST_R_MIN1,
                       .whole = 1,
                       .lim = strcmp(key, "gpus") == 0 ? &lim_budget_gpus : &lim_budget_racks};
    double v = 0;
    if (value(k, val, &r, &v))
        return ST_EXIT_INPUT;
    *out = (int64_t)v;
    return 0;
}

/* A dimensioned budget above 0 (power=, capex=, tco=); a value past a double is the unit
 * parser's "number out of range". */
static int budget_dim(const char *key, const char *val, st_dim d, double *out)
{
    char k[32];
    snprintf(k, sizeof k, "--budget %s", key);
    st_value_rule r = {.dim = d, .range = ST_R_POS};
    return value(k, val, &r, out) ? ST_EXIT_INPUT : 0;
}

static const char *const budget_keys[] = {"power", "gpus",    "racks",       "capex",
                                          "tco",   "cooling", "air_cooling", "liquid_cooling"};
#define N_BUDGET_KEYS (sizeof budget_keys / sizeof budget_keys[0])

/* One `KEY=VALUE` of --budget, each key at most once. tco is a spending rate: "20000000 USD" a
 * year. */
static int parse_budget_item(const char *item, size_opts *o)
{
    const char *eq = strchr(item, '=');
    size_t k = eq ? (size_t)(eq - item) : 0, key = 0;
    const char *v = eq ? eq + 1 : "";
    while (key < N_BUDGET_KEYS &&
           (strlen(budget_keys[key]) != k || strncmp(item, budget_keys[key], k)))
        key++;
    if (key == N_BUDGET_KEYS)
        return st_cli_usage_error("size",
                                  "--budget takes power=P, gpus=N, racks=N, capex=USD, tco=USD "
                                  "(a year), cooling=P, air_cooling=P and liquid_cooling=P, "
                                  "found '%s'",
                                  item);
    if (o->budget_seen & (1u << key))
        return st_cli_usage_error("size", "--budget: %s is given twice (found '%s')",
                                  budget_keys[key], item);
    o->budget_seen |= 1u << key;
    switch (key) {
    case 0:
        return budget_dim("power", v, ST_DIM_POWER, &o->power_w);
    case 1:
        return budget_count("gpus", v, &o->gpus);
    case 2:
        return budget_count("racks", v, &o->racks);
    case 3:
        return budget_dim("capex", v, ST_DIM_MONEY, &o->capex_usd);
    case 4:
        return budget_dim("tco", v, ST_DIM_MONEY, &o->tco_usd);
    default: /* the heat to reject, W */
        return budget_dim(budget_keys[key], v, ST_DIM_POWER, &o->cooling_w[key - 5]);
    }
}

static int parse_budget(const char *val, size_opts *o)
{
    char item[256];
    int rc = 0;
    for (const char *p = val; next_item("--budget", &p, item, sizeof item, &rc);)
        if (parse_budget_item(item, o))
            return ST_EXIT_INPUT;
    return rc;
}

/* A --storage-bandwidth value: a bandwidth within the models' rates, into slot *n of o. */
static int storage_bw_value(const char *t, size_opts *o, size_t n, int *dup)
{
    st_value_rule r = {.dim = ST_DIM_BANDWIDTH, .range = ST_R_POS, .lim = &st_lim_rate};
    double v = 0;
    if (value("--storage-bandwidth", t, &r, &v))
        return ST_EXIT_INPUT;
    o->storage_bw[n] = v;
    for (size_t k = 0; k < n; k++)
        *dup |= o->storage_bw[k] == v;
    return 0;
}

/* Value t of option opt, one of the NULL-terminated names of scenario key `key`, into *k: 0, or
 * a usage error listing the names ("a, b or c", from the table: one spelling each). */
static int name_value(const char *opt, const char *const *names, const char *key, const char *t,
                      int *k)
{
    for (*k = 0; names[*k]; ++*k)
        if (strcmp(names[*k], t) == 0)
            return 0;
    char list[256] = "";
    size_t at = 0;
    for (int i = 0; names[i] && at < sizeof list; i++)
        at += (size_t)snprintf(list + at, sizeof list - at, "%s%s",
                               i == 0         ? ""
                               : names[i + 1] ? ", "
                                              : " or ",
                               names[i]);
    return st_cli_usage_error("size", "%s takes %s (%s's names), found '%s'", opt, list, key, t);
}

/* A --topologies value: a name cluster.fabric.topology takes, into slot n of o. */
static int topology_value(const char *t, size_opts *o, size_t n, int *dup)
{
    int k;
    if (name_value("--topologies", st_topology_names, "cluster.fabric.topology", t, &k))
        return ST_EXIT_INPUT;
    o->topology[n] = (st_topology)k;
    for (size_t j = 0; j < n; j++)
        *dup |= o->topology[j] == (st_topology)k;
    return 0;
}

/* A --delivery value: a name cost.delivery takes, into slot n of o. */
static int delivery_value(const char *t, size_opts *o, size_t n, int *dup)
{
    int k;
    if (name_value("--delivery", st_delivery_names, "cost.delivery", t, &k))
        return ST_EXIT_INPUT;
    o->delivery[n] = (st_delivery)k;
    for (size_t j = 0; j < n; j++)
        *dup |= o->delivery[j] == (st_delivery)k;
    return 0;
}

/* Value t of axis a (--gpu-types, --oversubscription, --transport, --topologies,
 * --storage-bandwidth or --delivery) into slot *n of o: 0, or a usage error for a value the axis
 * does not take or already has. */
static int axis_value(const char *a, const char *t, size_opts *o, size_t *n)
{
    int dup = 0;
    if (strcmp(a, "--delivery") == 0) {
        int e = delivery_value(t, o, *n, &dup);
        if (e)
            return e;
    } else if (strcmp(a, "--topologies") == 0) {
        int e = topology_value(t, o, *n, &dup);
        if (e)
            return e;
    } else if (a[2] == 's') {
        int e = storage_bw_value(t, o, *n, &dup);
        if (e)
            return e;
    } else if (a[2] == 'g') {
        if (!(o->gpu[*n] = st_catalog_gpu(t)))
            return st_cli_usage_error("size",
                                      "--gpu-types: '%s' is not a catalog GPU (strata catalog "
                                      "lists them)",
                                      t);
        for (size_t k = 0; k < *n; k++)
            dup |= o->gpu[k] == o->gpu[*n];
    } else if (a[2] == 'o') {
        st_value_rule r = {.dim = ST_DIM_RATIO, .range = ST_R_MIN1, .lim = &lim_oversub};
        double v = 0;
        if (value("--oversubscription", t, &r, &v))
            return ST_EXIT_INPUT;
        o->oversub[*n] = v;
        for (size_t k = 0; k < *n; k++)
            dup |= o->oversub[k] == v;
    } else {
        int k = 0;
        while (st_transport_names[k] && strcmp(st_transport_names[k], t))
            k++;
        if (!st_transport_names[k])
            return st_cli_usage_error("size", "--transport takes roce-v2 or infiniband, found '%s'",
                                      t);
        o->transport[*n] = (st_transport)k;
        for (size_t j = 0; j < *n; j++)
            dup |= o->transport[j] == (st_transport)k;
    }
    if (dup) /* the same variant twice would only repeat its rows */
        return st_cli_usage_error("size", "%s: '%s' is given twice", a, t);
    (*n)++;
    return 0;
}

/* A variant axis (--gpu-types, --oversubscription, --transport, --topologies,
 * --storage-bandwidth): comma-separated values into o, none empty. */
static int parse_axis(const char *a, const char *val, size_opts *o)
{
    char item[128];
    int rc = 0;
    for (const char *p = val; next_item(a, &p, item, sizeof item, &rc);) {
        size_t *n = strcmp(a, "--delivery") == 0     ? &o->n_delivery
                    : strcmp(a, "--topologies") == 0 ? &o->n_topology
                    : a[2] == 'g'                    ? &o->n_gpu
                    : a[2] == 'o'                    ? &o->n_oversub
                    : a[2] == 's'                    ? &o->n_storage_bw
                                                     : &o->n_transport;
        if (*n == MAX_AXIS)
            return st_cli_usage_error("size", "%s takes at most %d values", a, MAX_AXIS);
        if ((rc = axis_value(a, item, o, n)))
            return rc;
    }
    return rc;
}

static int parse_format(const char *val, size_opts *o)
{
    static const char *const names[] = {"text", "json", "csv", "markdown", "html"};
    for (int f = 0; f < 5; f++)
        if (strcmp(val, names[f]) == 0) {
            o->format = (st_size_format)f;
            return 0;
        }
    return st_cli_usage_error(
        "size", "--format takes 'text', 'json', 'csv', 'markdown' or 'html', found '%s'", val);
}

/* --unit: node, rack, leaf, or a whole number of nodes (checked against the cluster once it is
 * loaded: unit_nodes). */
static int parse_unit(const char *val, size_opts *o)
{
    if (strcmp(val, "node") && strcmp(val, "rack") && strcmp(val, "leaf")) {
        st_value_rule r = {
            .dim = ST_DIM_COUNT, .range = ST_R_MIN1, .whole = 1, .lim = &lim_budget_gpus};
        double v = 0;
        if (value("--unit", val, &r, &v))
            return ST_EXIT_INPUT;
        o->unit_count = (int64_t)v;
    }
    o->unit = val;
    return 0;
}

/* The scalable unit of --unit in nodes on cluster c: a node (the default), a rack, a leaf's
 * nodes, or the count given. */
static int64_t unit_nodes(const size_opts *o, const st_cluster_cfg *c)
{
    if (!o->unit || strcmp(o->unit, "node") == 0)
        return 1;
    if (strcmp(o->unit, "rack") == 0)
        return c->racks.nodes_per_rack;
    if (strcmp(o->unit, "leaf") == 0)
        return c->fabric.nodes_per_leaf;
    return o->unit_count;
}

/* One option with its value: 0 taken, > 0 a usage error, -1 not one of these. */
static int parse_one(const char *a, const char *val, size_opts *o)
{
    static const char *const known[] = {"--deadline",
                                        "--budget",
                                        "--goal",
                                        "--top",
                                        "--workload",
                                        "--gpu-types",
                                        "--oversubscription",
                                        "--transport",
                                        "--format",
                                        "-o",
                                        "--output",
                                        "--storage-bandwidth",
                                        "--topologies",
                                        "--delivery",
                                        "--unit",
                                        "--confidence",
                                        "--calibration",
                                        "--existing"};
    size_t i = 0, nk = sizeof known / sizeof *known;
    while (i < nk && strcmp(a, known[i]))
        i++;
    if (i == nk)
        return -1;
    if (!val)
        return st_cli_usage_error("size", "%s needs a value", a);
    if (strcmp(a, "--deadline") == 0) {
        /* A plan's run past the life model's span is refused by the run, so no deadline past
         * it can bind. */
        st_value_rule r = {.dim = ST_DIM_TIME, .range = ST_R_POS, .lim = &st_lim_span};
        if (value("--deadline", val, &r, &o->deadline_s))
            return ST_EXIT_INPUT;
    } else if (strcmp(a, "--budget") == 0) {
        return parse_budget(val, o);
    } else if (strcmp(a, "--goal") == 0) {
        if (strcmp(val, "gpu-hours") && strcmp(val, "cost") && strcmp(val, "gpus"))
            return st_cli_usage_error(
                "size",
                "--goal takes 'gpu-hours' or 'cost' (a service: 'gpus' or 'cost'), found '%s'",
                val);
        o->goal = val;
    } else if (strcmp(a, "--top") == 0) {
        st_value_rule r = {.dim = ST_DIM_COUNT, .range = ST_R_MIN1, .whole = 1, .lim = &lim_top};
        double v = 0;
        if (value("--top", val, &r, &v))
            return ST_EXIT_INPUT;
        o->top = (long)v;
    } else if (strcmp(a, "--format") == 0) {
        return parse_format(val, o);
    } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
        o->output = val;
    } else if (strcmp(a, "--workload") == 0) {
        o->workload = val;
    } else if (strcmp(a, "--calibration") == 0) {
        o->calibration = val;
    } else if (strcmp(a, "--existing") == 0) {
        o->existing = val;
    } else if (strcmp(a, "--unit") == 0) {
        return parse_unit(val, o);
    } else if (strcmp(a, "--confidence") == 0) {
        st_value_rule r = {.dim = ST_DIM_RATIO, .range = ST_R_POS, .lim = &lim_confidence};
        if (value("--confidence", val, &r, &o->confidence))
            return ST_EXIT_INPUT;
    } else {
        return parse_axis(a, val, o);
    }
    return 0;
}

/* parse_one behind the st_cli_opt_fn signature. */
static int opt_one(const char *a, const char *val, void *o)
{
    return parse_one(a, val, o);
}

static int parse_opts(int argc, char **argv, size_opts *o)
{
    o->top = 10;
    int rc = st_cli_parse_args("size", argc, argv, opt_one, o, &o->file);
    if (rc)
        return rc;
    return 0;
}

/* `screen` on stdout (when not NULL), and `doc` to -o FILE, atomically, when o names one; a
 * write that fails says so and gives exit status 1. */
static int put(const size_opts *o, const char *screen, const char *doc)
{
    int rc = ST_EXIT_OK;
    char why[512];
    if (screen && (fputs(screen, stdout) == EOF || fflush(stdout)))
        rc = ST_EXIT_SIM;
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

/* A service's sizing: the GPU types of --gpu-types (the scenario's without), tp 1 up to the
 * node, ranked by GPUs or (--goal cost, or a scenario that prices GPU-hours) cost. The options
 * of a training search are refused rather than ignored. */
static int size_service(const size_opts *o, const st_scn *s, const st_workload_cfg *w)
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
    if (z.n > (size_t)o->top)
        z.n = (size_t)o->top;
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
    rc = put(o, o->format == ST_SIZE_TEXT ? text : o->output ? NULL : doc, doc);
    free(text);
    free(doc);
    free(file);
    st_serve_size_release(&z);
    return rc;
}

/* The hardware variants: every combination of the GPU types, oversubscriptions, transports,
 * topologies, storage bandwidths and delivery models given (the scenario's where an option is
 * absent), GPU type slowest, delivery model fastest. Malloc'd; *n of them, 0 (NULL) when no
 * option is given. */
static st_size_variant *variants_of(const size_opts *o, size_t *n)
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
static int emit(const size_opts *o, const st_size_report *rp, const st_size_result *r)
{
    char *text =
        o->format == ST_SIZE_TEXT && o->output ? st_size_render(rp, r, ST_SIZE_TEXT) : NULL;
    st_size_format f = o->format == ST_SIZE_TEXT && o->output ? ST_SIZE_JSON : o->format;
    char *doc = st_size_render(rp, r, f);
    int rc = put(o, o->output ? text : doc, doc);
    free(text);
    free(doc);
    return rc;
}

/* Add GPU type g to o's --gpu-types unless it is there: 0, or a usage error past MAX_AXIS. */
static int add_type(size_opts *o, const st_gpu_spec *g)
{
    for (size_t i = 0; i < o->n_gpu; i++)
        if (strcmp(o->gpu[i]->name, g->name) == 0)
            return 0;
    if (o->n_gpu == MAX_AXIS)
        return st_cli_usage_error("size", "--existing: more than %d GPU types to search", MAX_AXIS);
    o->gpu[o->n_gpu++] = g;
    return 0;
}

/* Under --existing POOL `kept` on cluster c whose pools have racks of their own
 * (models/config/racks.h): the rows of the kept pool's type grow it in its own racks; another
 * type's nodes fill the racks of the first pool of that type, or cluster.racks for a type no pool
 * holds, as a wing of that type would be built. */
static void racks_of_types(const st_cluster_cfg *c, int kept, st_size_variant *v, size_t n)
{
    for (size_t i = 0; c->racks_by_pool && i < n; i++) {
        const char *type = v[i].gpu ? v[i].gpu->name : c->pools[kept].gpu->name;
        v[i].racks = &c->racks;
        for (int k = c->n_pools - 1; k >= 0; k--)
            if (strcmp(c->pools[k].gpu->name, type) == 0)
                v[i].racks = &c->pools[k].racks;
        if (strcmp(c->pools[kept].gpu->name, type) == 0)
            v[i].racks = &c->pools[kept].racks;
    }
}

/* --unit rack under --existing where the variants fill racks of different sizes: one unit can
 * not be a rack of each; 0, or the exit status of a usage error naming them. */
static int unit_rack_check(const size_opts *o, const st_cluster_cfg *kept, const st_size_variant *v,
                           size_t n)
{
    if (!o->unit || strcmp(o->unit, "rack") != 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (v[i].racks && v[i].racks->nodes_per_rack != kept->racks.nodes_per_rack)
            return st_cli_usage_error(
                "size",
                "--unit rack: the kept pool's racks hold %lld nodes and %s's %lld (pools with "
                "racks of their own); give the unit as a node count",
                (long long)kept->racks.nodes_per_rack, v[i].gpu ? v[i].gpu->name : "another type",
                (long long)v[i].racks->nodes_per_rack);
    return 0;
}

/* --existing POOL (docs/guide/sizing.md, "Growing an existing fleet"): the pool's cluster as
 * it stands into *one (its GPU type, its nodes, the cluster's fabric) and its index into *k; o's
 * GPU types: the pool's first, then --gpu-types' or, without them, the other pools' types. 0,
 * or the exit status of a usage error. */
static int existing_of(size_opts *o, const st_scn *s, st_cluster_cfg *one, int *k)
{
    const st_cluster_cfg *c = st_scn_cluster(s);
    if (c->n_pools < 1)
        return st_cli_usage_error("size",
                                  "--existing %s: %s has one GPU type; name a pool of "
                                  "its cluster.pools",
                                  o->existing, o->file);
    for (*k = 0; *k < c->n_pools && strcmp(c->pools[*k].name, o->existing); ++*k)
        ;
    if (*k == c->n_pools)
        return st_cli_usage_error("size", "--existing: %s has no pool '%s' (its first: '%s')",
                                  o->file, o->existing, c->pools[0].name);
    st_pools_view(c, *k, one);
    one->nodes = c->pools[*k].nodes;
    const st_gpu_spec *given[MAX_AXIS];
    size_t n = o->n_gpu;
    memcpy(given, o->gpu, n * sizeof *given);
    o->n_gpu = 0;
    int rc = add_type(o, one->gpu);
    for (size_t i = 0; i < n && !rc; i++)
        rc = add_type(o, given[i]);
    for (int i = 0; !n && i < c->n_pools && !rc; i++)
        rc = add_type(o, c->pools[i].gpu);
    return rc;
}

/* The search for workload w of s under o's options, and its report: the exit status. */
/* The targets `audit` holds a plan to: the scenario's audit section, else the audit's defaults
 * (models/config/config.c). */
static const st_audit_cfg *audit_of(const st_scn *s)
{
    const st_audit_cfg *a = st_scn_audit(s);
    return a ? a : &st_audit_cfg_default;
}

static int size_workload(const size_opts *o0, const st_scn *s, const st_workload_cfg *w)
{
    size_opts opts = *o0, *o = &opts;
    st_cluster_cfg one;
    const st_cluster_cfg *cl = st_scn_cluster(s);
    int pool = -1, erc;
    if (o->existing && (erc = existing_of(o, s, &one, &pool)))
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
    if (o->existing) {
        racks_of_types(st_scn_cluster(s), pool, vars, nv);
        if ((erc = unit_rack_check(o, cl, vars, nv))) {
            free(vars);
            return erc;
        }
    }
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
                         .unit_nodes = unit_nodes(o, cl),
                         .confidence = o->confidence,
                         .existing_gpu = o->existing ? cl->gpu : NULL,
                         .existing_nodes = o->existing ? cl->nodes : 0,
                         .existing = o->existing ? cl : NULL,
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
    size_opts o = {0};
    int rc = parse_opts(argc, argv, &o);
    if (rc)
        return rc == 1 ? ST_EXIT_OK : rc;
    st_scn *s = NULL;
    if (st_cli_load(o.file, o.calibration, &s))
        return ST_EXIT_INPUT;
    st_cli_print_warnings(s);
    const st_cli_file out = {"-o", o.output};
    const st_workload_cfg *w = pick(s, o.workload);
    if (!w) {
        st_scn_free(s);
        return st_cli_usage_error("size", "%s has no training or inference workload%s%s", o.file,
                                  o.workload ? " named " : "", o.workload ? o.workload : "");
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
        rc = size_service(&o, s, w);
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
