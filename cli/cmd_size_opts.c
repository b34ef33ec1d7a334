/* `strata size`'s command line (cli/cmd_size.c): the budget, the variant axes, the format and
 * the scalable unit, each value checked against its limit row and refused as a usage error. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_size_internal.h"
#include "models/config/limits.h"
#include "scenarios/catalog.h"
#include "scenarios/reader.h"
#include "sim/units.h"
#include "sim/utf8.h"

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
static const st_limit lim_unit_nodes = {0, ST_LIM_RANKS, "the most nodes a scalable unit holds",
                                        "no more nodes than the largest plan's 10^9 GPUs"};
static const st_limit lim_top = {0, 1000, "the most rows --top ranks",
                                 "a ranked table stays one a reader can scan"};
static const st_limit lim_oversub = {0, 64, "the largest oversubscription size tries",
                                     "64:1, past any fabric built"};
/* The one-sided end at level q is the absolute log residual of rank ceil((n + 1) q) among n runs
 * (models/forecast/band.h):
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
static int parse_budget_item(const char *item, st__size_opts *o)
{
    const char *eq = strchr(item, '=');
    size_t k = eq ? (size_t)(eq - item) : 0, key = 0;
    const char *v = eq ? eq + 1 : "";
    while (key < N_BUDGET_KEYS &&
           (strlen(budget_keys[key]) != k || strncmp(item, budget_keys[key], k)))
        key++;
    if (key == N_BUDGET_KEYS) { /* `powr=1MW`: did you mean 'power'? */
        char word[64], near[200];
        st_snprintf(word, sizeof word, "%.*s", (int)(eq ? k : strlen(item)), item);
        return st_cli_usage_error(
            "size",
            "--budget takes power=P, gpus=N, racks=N, capex=USD, tco=USD "
            "(a year), cooling=P, air_cooling=P and liquid_cooling=P, "
            "found '%s'%s",
            item, st_did_you_mean(word, budget_keys, N_BUDGET_KEYS, near, sizeof near));
    }
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

static int parse_budget(const char *val, st__size_opts *o)
{
    char item[256];
    int rc = 0;
    for (const char *p = val; next_item("--budget", &p, item, sizeof item, &rc);)
        if (parse_budget_item(item, o))
            return ST_EXIT_INPUT;
    return rc;
}

/* A --storage-bandwidth value: a bandwidth within the models' rates, into slot *n of o. */
static int storage_bw_value(const char *t, st__size_opts *o, size_t n, int *dup)
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
static int topology_value(const char *t, st__size_opts *o, size_t n, int *dup)
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
static int delivery_value(const char *t, st__size_opts *o, size_t n, int *dup)
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
static int axis_value(const char *a, const char *t, st__size_opts *o, size_t *n)
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
        if (!(o->gpu[*n] = st_catalog_gpu(t))) { /* as the loader says an unknown GPU */
            const char *names[128];
            size_t m = st_catalog_gpu_names(names, 128);
            char near[200];
            return st_cli_usage_error("size",
                                      "--gpu-types: unknown GPU '%s'%s (`strata catalog` lists "
                                      "the known GPUs)",
                                      t, st_did_you_mean(t, names, m, near, sizeof near));
        }
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
            return st_cli_usage_error(
                "size", "--transport takes roce-v2, infiniband or omni-path, found '%s'", t);
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
static int parse_axis(const char *a, const char *val, st__size_opts *o)
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

static const char *const format_names[] = {"text", "json", "csv", "markdown", "html"};

static int parse_format(const char *val, st__size_opts *o)
{
    for (int f = 0; f < 5; f++)
        if (strcmp(val, format_names[f]) == 0) {
            o->format = (st_size_format)f;
            return 0;
        }
    return st_cli_usage_error(
        "size", "--format takes 'text', 'json', 'csv', 'markdown' or 'html', found '%s'", val);
}

/* --unit: node, rack, leaf, or a whole number of nodes (checked against the cluster once it is
 * loaded: unit_nodes). */
static int parse_unit(const char *val, st__size_opts *o)
{
    static const char *const units[] = {"node", "rack", "leaf"};
    if (strcmp(val, "node") && strcmp(val, "rack") && strcmp(val, "leaf") &&
        !(val[0] >= '0' && val[0] <= '9')) { /* a word: the units, not "expected a number" */
        char near[200];
        return st_cli_usage_error("size",
                                  "--unit takes node, rack, leaf or a whole number of nodes, "
                                  "found '%s'%s",
                                  val, st_did_you_mean(val, units, 3, near, sizeof near));
    }
    if (strcmp(val, "node") && strcmp(val, "rack") && strcmp(val, "leaf")) {
        st_value_rule r = {
            .dim = ST_DIM_COUNT, .range = ST_R_MIN1, .whole = 1, .lim = &lim_unit_nodes};
        double v = 0;
        if (value("--unit", val, &r, &v))
            return ST_EXIT_INPUT;
        o->unit_count = (int64_t)v;
    }
    o->unit = val;
    return 0;
}

st_size_unit st__size_unit_kind(const st__size_opts *o)
{
    if (o->unit && strcmp(o->unit, "rack") == 0)
        return ST_SIZE_UNIT_RACK;
    if (o->unit && strcmp(o->unit, "leaf") == 0)
        return ST_SIZE_UNIT_LEAF;
    return ST_SIZE_UNIT_NODES;
}

/* The scalable unit of --unit in nodes on cluster c: a node (the default), a rack, a leaf's
 * nodes, or the count given. */
int64_t st__size_unit_nodes(const st__size_opts *o, const st_cluster_cfg *c)
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
static int parse_one(const char *a, const char *val, st__size_opts *o)
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
    if (!val &&
        (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0 || strcmp(a, "--calibration") == 0))
        return st_cli_path_arg("size", a, val, ST_CLI_WRITES); /* "needs a file name" */
    if (!val)
        return st_cli_usage_error("size", "%s needs a value", a);
    /* an option of one value given twice: the second silently won (--deadline 1h --deadline
       2h sized for 2 h); a budget checks its keys, a variant axis takes a list */
    int many = strcmp(a, "--budget") == 0 || strcmp(a, "--gpu-types") == 0 ||
               strcmp(a, "--oversubscription") == 0 || strcmp(a, "--transport") == 0 ||
               strcmp(a, "--storage-bandwidth") == 0 || strcmp(a, "--topologies") == 0 ||
               strcmp(a, "--delivery") == 0;
    /* -o and --output, next to each other in known, are one option: bit k + 1 for known[k] */
    unsigned bit = 1u << (strcmp(a, "--output") == 0 ? i : i + 1);
    if (!many && st_cli_once("size", a, &o->opt_seen, bit))
        return ST_EXIT_INPUT;
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
        o->format_given = 1;
        return parse_format(val, o);
    } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
        if (st_cli_path_arg("size", a, val, ST_CLI_WRITES))
            return ST_EXIT_INPUT;
        o->output = val;
    } else if (strcmp(a, "--workload") == 0) {
        if (st_cli_name_arg("size", a, val, "a workload's name"))
            return ST_EXIT_INPUT;
        o->workload = val;
    } else if (strcmp(a, "--calibration") == 0) {
        if (st_cli_path_arg("size", a, val, ST_CLI_READS))
            return ST_EXIT_INPUT;
        o->calibration = val;
    } else if (strcmp(a, "--existing") == 0) {
        if (st_cli_name_arg("size", a, val, "a pool's name"))
            return ST_EXIT_INPUT;
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

int st__size_parse_opts(int argc, char **argv, st__size_opts *o)
{
    o->top = 10;
    int rc = st_cli_parse_args("size", argc, argv, opt_one, o, &o->file);
    if (rc)
        return rc;
    /* -o's format by its name where --format does not say (text writes JSON to it, but to a
     * .txt the text) */
    const char *ext;
    if (st_cli_output_format("size", o->output, o->format_given ? format_names[o->format] : NULL,
                             format_names[o->format == ST_SIZE_TEXT ? ST_SIZE_JSON : o->format], 1,
                             &ext))
        return ST_EXIT_INPUT;
    if (!o->format_given && ext && strcmp(ext, "json") != 0)
        parse_format(ext, o);
    o->text_file = ext && strcmp(ext, "text") == 0; /* the text, in place of stdout */
    return 0;
}
