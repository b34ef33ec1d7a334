/* `strata size`'s report: the counts, the ranked table and the Pareto front, as text for a
 * person, JSON (cJSON) or CSV (RFC 4180, one row a configuration with the table it is in); Markdown
 * and HTML are written from the JSON parsed back (size_doc.c). */
#define _POSIX_C_SOURCE 200809L
#include "report/size_out.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/forecast/band.h"
#include "models/reliability/spare_wait.h"
#include "report/report.h"
#include "sim/strfmt.h"
#include "sim/units.h"
#include "sim/utf8.h"
#include "sim/xalloc.h"

typedef struct sbuf {
    char *s;
    size_t n, cap;
} sbuf;

static void put(sbuf *b, const char *f, ...)
{
    va_list ap, aq;
    va_start(ap, f);
    va_copy(aq, ap);
    int len = vsnprintf(NULL, 0, f, ap);
    va_end(ap);
    b->s = st_xgrow(b->s, 1, b->n + (size_t)len + 1, &b->cap);
    vsnprintf(b->s + b->n, (size_t)len + 1, f, aq);
    va_end(aq);
    b->n += (size_t)len;
}

/* Row f's variant as "gpu/os N/transport/topology/ckpt B" (only what the search varies), into
 * b (from empty): whole, since a GPU's name is the user's. */
static const char *variant_name(const st_size_report *rp, const st_size_cfg *f, sbuf *b)
{
    b->n = 0;
    put(b, "%s", "");
    if (!rp->spec->n_variants)
        return b->s;
    const st_size_variant *v = &rp->spec->variants[f->variant];
    if (v->gpu)
        put(b, "%s", v->gpu->name);
    if (v->oversub >= 1)
        put(b, "%sos%g", b->n ? "/" : "", v->oversub);
    if (v->set_transport)
        put(b, "%s%s", b->n ? "/" : "", st_transport_names[v->transport]);
    if (v->set_topology)
        put(b, "%s%s", b->n ? "/" : "", st_topology_names[v->topology]);
    if (v->ckpt_write_bw > 0) /* GB/s, as the option's examples are written */
        put(b, "%sckpt%gGB/s", b->n ? "/" : "", v->ckpt_write_bw / 1e9);
    if (v->set_delivery)
        put(b, "%s%s", b->n ? "/" : "", st_delivery_names[v->delivery]);
    return b->s;
}

/* The cooling budgets: all heat, the air-cooled share, the liquid-cooled share (--budget
 * cooling=, air_cooling=, liquid_cooling=), each against the heat of its kind a row rejects. */
static const char *const HEAT_BUDGET[3] = {"cooling", "air_cooling", "liquid_cooling"};

static double heat_budget(const st_size_spec *s, int k)
{
    return k == 0 ? s->cooling_w : k == 1 ? s->air_cooling_w : s->liquid_cooling_w;
}

/* Row f's own heat of kind k (ranked[].heat_w, heat_air_w, heat_liquid_w); the budget also
 * counts a kept pool's beside it (planner/size.c). */
static double heat_of(const st_size_cfg *f, int k)
{
    return k == 0 ? f->heat.total_w : k == 1 ? f->heat.air_w : f->heat.liquid_w;
}

/* The text table's columns of a time or a power: each cell carries its unit, the one that reads
 * at its size (1.328 h, 11.17 kW), as the HTML's do, so the headings name no unit; a fixed one
 * read a 1.3-hour run as 0.05535 d and a node's 11 kW as 0.01117 MW. */
enum {
    C_STEP,
    C_TRAIN,
    C_BAND,
    C_CONF,
    C_POWER,
    C_HEAT,
    C_AIR,
    C_LIQUID,
    C_CKPT,
    C_MEM,
    C_KEPT,
    /* the plan's whole numbers, grouped as every count the reports show (16,384, not 16384) */
    C_NODES,
    C_GPUS,
    C_TP,
    C_PP,
    C_DP,
    C_EP,
    C_VS,
    C_MB,
    C__N
};
static const char *const COL_HEAD[C__N] = {
    "step",        "train",      "band",      "conf",       "power", "heat", "air_heat",
    "liquid_heat", "ckpt_every", "mem_every", "kept_power", "nodes", "gpus", "tp",
    "pp",          "dp",         "ep",        "vs",         "mb"};
/* The least width of a column: the whole numbers' widths of a table of small plans, so that a
 * plan of a few nodes reads as it always has; 0 for the rest, as wide as their heading. */
static const int COL_MIN[C__N] = {[C_NODES] = 6, [C_GPUS] = 6, [C_TP] = 3, [C_PP] = 3,
                                  [C_DP] = 5,    [C_EP] = 4,   [C_VS] = 2, [C_MB] = 2};

/* Row f's cells of those columns ("-" where it has none), and the widths every table shares. */
typedef struct row_cells {
    char c[C__N][64];
} row_cells;

typedef struct col_widths {
    int w[C__N];
} col_widths;

/* v of dimension d into cell, or "-" where it is not a figure (a GPU without a power limit,
 * no checkpoint taken: none, not one every 0 s). */
static void dim_cell(char *cell, size_t n, double v, st_dim d, int known)
{
    if (known && isfinite(v))
        st_unit_format(v, d, cell, n);
    else
        snprintf(cell, n, "-");
}

static void cells_of(const st_size_cfg *f, row_cells *rc)
{
    dim_cell(rc->c[C_STEP], sizeof rc->c[C_STEP], f->step_s, ST_DIM_TIME, 1);
    dim_cell(rc->c[C_TRAIN], sizeof rc->c[C_TRAIN], f->train_s, ST_DIM_TIME, 1);
    /* both ends in the point forecast's unit: "1.046 to 1.687 h", not "1.046 h to 1.687 h" */
    st_unit_format_range(f->train_band[0], f->train_band[1], f->train_s, ST_DIM_TIME, rc->c[C_BAND],
                         sizeof rc->c[C_BAND]);
    dim_cell(rc->c[C_CONF], sizeof rc->c[C_CONF], f->train_conf_s, ST_DIM_TIME, 1);
    dim_cell(rc->c[C_POWER], sizeof rc->c[C_POWER], f->facility_w, ST_DIM_POWER, 1);
    for (int k = 0; k < 3; k++)
        dim_cell(rc->c[C_HEAT + k], sizeof rc->c[C_HEAT + k], heat_of(f, k), ST_DIM_POWER, 1);
    dim_cell(rc->c[C_CKPT], sizeof rc->c[C_CKPT], f->ckpt_every_s, ST_DIM_TIME,
             f->ckpt_every_s > 0);
    dim_cell(rc->c[C_MEM], sizeof rc->c[C_MEM], f->mem_every_s, ST_DIM_TIME, f->mem_every_s > 0);
    dim_cell(rc->c[C_KEPT], sizeof rc->c[C_KEPT], f->kept_w, ST_DIM_POWER, 1);
    const int64_t whole[] = {f->nodes, f->gpus, f->tp, f->pp, f->dp, f->ep, f->vs, f->mb};
    for (int c = C_NODES; c <= C_MB; c++)
        snprintf(rc->c[c], sizeof rc->c[c], "%s", st_fig_plain((double)whole[c - C_NODES]).s);
}

/* The widths of those columns over the rows the tables show (the ranked table's first --top and
 * the front), each at least its heading's, so both tables align alike. */
static col_widths widths_of(const st_size_report *rp, const st_size_result *r)
{
    col_widths cw;
    for (int c = 0; c < C__N; c++)
        cw.w[c] = (int)strlen(COL_HEAD[c]) > COL_MIN[c] ? (int)strlen(COL_HEAD[c]) : COL_MIN[c];
    for (size_t i = 0; i < r->n; i++) {
        if (i >= rp->top && !r->cfg[i].front)
            continue;
        row_cells rc;
        cells_of(&r->cfg[i], &rc);
        for (int c = 0; c < C__N; c++)
            cw.w[c] = (int)strlen(rc.c[c]) > cw.w[c] ? (int)strlen(rc.c[c]) : cw.w[c];
    }
    return cw;
}

/* Column c's heading or cell, right-aligned in its width, and the space after it. */
static void put_col(sbuf *b, const col_widths *cw, int c, const char *s)
{
    put(b, "%*s ", cw->w[c], s);
}

static void text_header(sbuf *b, const st_size_report *rp, const col_widths *cw)
{
    put(b, "rank ");
    for (int c = C_NODES; c <= C_MB; c++)
        if (c != C_EP || rp->experts)
            put_col(b, cw, c, COL_HEAD[c]);
    put(b, "recompute ");
    for (int c = C_STEP; c <= C_BAND; c++)
        put_col(b, cw, c, COL_HEAD[c]);
    if (rp->spec->confidence > 0)
        put_col(b, cw, C_CONF, COL_HEAD[C_CONF]);
    put(b, "%11s %13s ", "gpu_hours", "cost_usd");
    put_col(b, cw, C_POWER, COL_HEAD[C_POWER]);
    for (int k = 0; k < 3; k++)
        if (heat_budget(rp->spec, k) > 0)
            put_col(b, cw, C_HEAT + k, COL_HEAD[C_HEAT + k]);
    if (rp->failures) {
        put(b, "goodput ");
        put_col(b, cw, C_CKPT, COL_HEAD[C_CKPT]);
        if (rp->memory)
            put_col(b, cw, C_MEM, COL_HEAD[C_MEM]);
    }
    if (rp->spec->n_variants)
        put(b, "%-24s ", "variant");
    if (rp->existing) {
        put(b, "%-16s %13s ", "added", "bought_usd");
        put_col(b, cw, C_KEPT, COL_HEAD[C_KEPT]);
    }
    put(b, "binds\n");
}

/* The type f's added nodes are of: the variant's GPU, else the existing pool's. */
static const char *added_gpu(const st_size_report *rp, const st_size_cfg *f)
{
    const st_size_spec *s = rp->spec;
    return f->variant < s->n_variants && s->variants[f->variant].gpu
               ? s->variants[f->variant].gpu->name
               : s->existing_gpu->name;
}

/* Whether a row that is not feasible is over what binds it, a budget ("over"), misses it, a
 * deadline (for its compute, communication or storage: "misses"), or has a fabric that cannot
 * be built ("unbuildable": it read "fabric (misses)", as if a deadline were missed); NULL for a
 * feasible row, whose binds is its least slack. JSON ranked[].unmet; the text puts it after
 * binds in parentheses, "power (over)". A budget row read "tco (misses)", as if the deadline
 * were missed. */
static const char *unmet(const st_size_cfg *f)
{
    if (f->feasible)
        return NULL;
    switch (f->binds) {
    case ST_BIND_POWER:
    case ST_BIND_GPUS:
    case ST_BIND_RACKS:
    case ST_BIND_CAPEX:
    case ST_BIND_TCO:
    case ST_BIND_COOLING:
        return "over";
    case ST_BIND_FABRIC:
        return "unbuildable";
    default:
        return "misses";
    }
}

/* --existing: what row f adds to the pool kept, and what that costs. The GPU's name is whole,
 * as the variant column's is: a scenario's own GPU may have a long or non-ASCII one. */
static void text_added(sbuf *b, const st_size_report *rp, const st_size_cfg *f,
                       const col_widths *cw, const row_cells *rc)
{
    sbuf add = {0};
    char usd[32] = "-";
    if (f->added_nodes > 0)
        put(&add, "+%s %s", st_fig_plain((double)f->added_nodes).s, added_gpu(rp, f));
    else
        put(&add, "nothing");
    if (f->bought_usd >= 0)
        st_fig_money(f->bought_usd, usd, sizeof usd);
    put(b, "%-16s %13s ", add.s, usd);
    put_col(b, cw, C_KEPT, rc->c[C_KEPT]);
    free(add.s);
}

static void text_row(sbuf *b, const st_size_report *rp, const st_size_cfg *f, size_t rank,
                     const col_widths *cw)
{
    char cost[ST_FIG_TEXT_MAX] = "-";
    if (f->cost_usd >= 0) /* grouped, as every report shows money: 50,860,000, not 5.086e+07 */
        st_fig_money(f->cost_usd, cost, sizeof cost);
    row_cells rc;
    cells_of(f, &rc);
    put(b, "%4zu ", rank);
    for (int c = C_NODES; c <= C_MB; c++)
        if (c != C_EP || rp->experts)
            put_col(b, cw, c, rc.c[c]);
    put(b, "%-9s ", st_recompute_names[f->recompute]);
    for (int c = C_STEP; c <= C_BAND; c++)
        put_col(b, cw, c, rc.c[c]);
    if (rp->spec->confidence > 0)
        put_col(b, cw, C_CONF, rc.c[C_CONF]);
    put(b, "%11s %13s ", st_fig_plain(f->gpu_hours).s, cost);
    put_col(b, cw, C_POWER, rc.c[C_POWER]);
    for (int k = 0; k < 3; k++)
        if (heat_budget(rp->spec, k) > 0)
            put_col(b, cw, C_HEAT + k, rc.c[C_HEAT + k]);
    if (rp->failures) {
        put(b, "%6.2f%% ", 100 * f->goodput); /* a percent, as run and size's HTML show it */
        put_col(b, cw, C_CKPT, rc.c[C_CKPT]);
        if (rp->memory) /* the two-level checkpoint's snapshot cadence */
            put_col(b, cw, C_MEM, rc.c[C_MEM]);
    }
    if (rp->spec->n_variants) {
        sbuf var = {0};
        put(b, "%-24s ", variant_name(rp, f, &var));
        free(var.s);
    }
    if (rp->existing)
        text_added(b, rp, f, cw, &rc);
    if (unmet(f))
        put(b, "%s (%s)\n", st_size_bind_name(f->binds), unmet(f));
    else
        put(b, "%s\n", st_size_bind_name(f->binds));
}

/* Under a cost: section, the source of the price that sets each hardware variant's cost (its
 * GPU type's node price on premises, GPU-hour rented) and, on premises, of its fabric's switch
 * price, once per variant, from its first row. */
static void text_prices(sbuf *b, const st_size_report *rp, const st_size_result *r)
{
    size_t nv = rp->spec->n_variants ? rp->spec->n_variants : 1;
    for (size_t v = 0; v < nv && rp->spec->cost; v++)
        for (size_t i = 0; i < r->n; i++) {
            const st_size_cfg *f = &r->cfg[i];
            if (f->variant != v)
                continue;
            sbuf var = {0};
            const char *name = variant_name(rp, f, &var);
            put(b, "price%s%s: %s\n", *name ? " of " : "", name,
                f->price_source ? f->price_source : "none (not priced)");
            if (f->switch_source)
                put(b, "switch price%s%s: %s\n", *name ? " of " : "", name, f->switch_source);
            if (f->unpriced) { /* bought, but at 0 in the ranking: say which */
                put(b, "not priced%s%s, counted at 0:", *name ? " for " : "", name);
                for (int q = 0; q < ST_COST__PARTS; q++)
                    if (f->unpriced & 1u << q)
                        put(b, " %s", st_cost_part_names[q]);
                put(b, " (state them in cost:)\n");
            }
            free(var.s);
            break;
        }
}

/* The parts bought beyond the nodes and switches that c prices (models/cost/cost.h), by name:
 * the checkpoint tier's part is its capacity for two checkpoints and any bandwidth bought; named
 * too when c has no breakdown. */
static void text_parts(sbuf *b, const st_cost_result *c)
{
    const struct {
        double usd;
        const char *name;
    } parts[] = {{c->capex_optics_usd, "optics"},
                 {c->capex_racks_usd, "racks"},
                 {c->capex_cooling_usd, "cooling"},
                 {c->capex_storage_usd, "checkpoint storage"}};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (parts[i].usd > 0 || (!(c->capex_usd > 0) && i == 3))
            put(b, " + %s", parts[i].name);
}

/* The delivery model row f is priced under: its variant's (--delivery), else the scenario's. */
static st_delivery row_delivery(const st_size_report *rp, const st_size_cfg *f)
{
    if (rp->spec->n_variants && rp->spec->variants[f->variant].set_delivery)
        return rp->spec->variants[f->variant].delivery;
    return rp->spec->cost->delivery;
}

/* A unit price to 6 significant digits, more than the 4 of a sum, so the product a reader
 * checks by hand is near the one priced: whole, grouped as every count and sum of the line
 * (255,237, not 255237), else as it is (1234.56). */
static const char *price_text(double usd, char *buf, size_t n)
{
    char d[40];
    snprintf(d, sizeof d, "%.6g", usd);
    double v = strtod(d, NULL);
    if (v == floor(v) && fabs(v) < 1e15)
        st_fig_grouped(v, buf, n);
    else
        snprintf(buf, n, "%s", d);
    return buf;
}

/* Row f's cost as its parts, so a reader can check the ranking by hand: on premises what it
 * buys (nodes at its GPU type's price, switches) and the parts that sum to its cost, rented its
 * GPU-hours at its type's rate (on demand) with storage and egress. Under
 * --existing a row's nodes are the kept pool's too, whose capex it pays but which nobody buys:
 * "priced", and bought_usd says what it adds. */
static void text_cost(sbuf *b, const st_size_report *rp, const st_size_cfg *f, size_t rank)
{
    const st_cost_result *c = &f->breakdown;
    char m[6][40], over[32]; /* money in the rounding every format shows it in (st_fig_money) */
    st_unit_format(f->train_s, ST_DIM_TIME, over, sizeof over); /* as the header's deadline */
    sbuf var = {0};
    const char *name = variant_name(rp, f, &var);
    put(b, "  rank %zu%s%s: ", rank, *name ? " " : "", name);
    free(var.s);
    if (row_delivery(rp, f) == ST_DELIVERY_ON_PREM) {
        /* under --existing the grown fleet's switches, its share of them its GPUs' */
        char np[40], sp[40];
        put(b, "%s %s node%s x %s + ", rp->existing ? "priced" : "bought",
            st_fig_plain((double)f->nodes).s, st_plural_s(f->nodes),
            price_text(f->node_price_usd, np, sizeof np));
        if (f->share < 1)
            put(b, "%.4g of ", f->share);
        put(b, "%s switch%s x %s", st_fig_plain((double)f->switches).s,
            f->switches == 1 ? "" : "es", price_text(f->switch_price_usd, sp, sizeof sp));
        if (f->capex_usd > (double)f->nodes * f->node_price_usd +
                               f->share * (double)f->switches * f->switch_price_usd)
            text_parts(b, c);
        put(b, " = %s; over %s: ", st_fig_money(f->capex_usd, m[0], sizeof m[0]), over);
        put(b, "capex %s + maintenance %s + energy %s + demand %s + staff %s + flash wear %s",
            st_fig_money(c->capex_usd, m[0], sizeof m[0]),
            st_fig_money(c->maintenance_usd, m[1], sizeof m[1]),
            st_fig_money(c->energy_usd, m[2], sizeof m[2]),
            st_fig_money(c->demand_usd, m[3], sizeof m[3]),
            st_fig_money(c->staff_usd, m[4], sizeof m[4]),
            st_fig_money(c->wear_usd, m[5], sizeof m[5]));
    } else {
        put(b, "over %s: GPU-hours ", over);
        if (rp->spec->cost->pricing == ST_PRICING_ON_DEMAND && f->gpu_hours > 0)
            put(b, "%s x %.4g USD/h = ", st_fig_plain(f->gpu_hours).s, /* as the table: 231,300 */
                c->gpu_usd / f->gpu_hours);
        put(b, "%s + storage %s + egress %s", st_fig_money(c->gpu_usd, m[0], sizeof m[0]),
            st_fig_money(c->storage_usd, m[1], sizeof m[1]),
            st_fig_money(c->egress_usd, m[2], sizeof m[2]));
    }
    put(b, " = %s USD\n", st_fig_money(f->cost_usd, m[0], sizeof m[0]));
}

/* Under the cost goal, the cost of the first ranked row of each hardware variant, in parts, in
 * rank order. */
static void text_costs(sbuf *b, const st_size_report *rp, const st_size_result *r)
{
    if (!rp->spec->cost || rp->spec->goal != ST_SIZE_COST)
        return;
    put(b, "\ncost of each variant's first row (USD):\n");
    size_t nv = rp->spec->n_variants ? rp->spec->n_variants : 1, left = nv;
    char *seen = st_xcalloc(nv, 1);
    for (size_t i = 0; i < r->n && left > 0; i++) {
        const st_size_cfg *f = &r->cfg[i];
        if (f->variant >= nv || seen[f->variant])
            continue;
        seen[f->variant] = 1;
        left--;
        if (f->cost_usd >= 0)
            text_cost(b, rp, f, i + 1);
    }
    free(seen);
}

/* The micro-batches each data-parallel replica of f fills its pipeline with a step: the global
 * batch over dp x the micro-batch. */
static int64_t micro_per_replica(const st_size_report *rp, const st_size_cfg *f)
{
    return f->dp > 0 && f->mb > 0 ? rp->global_batch / (f->dp * f->mb) : 0;
}

/* What breaking constraint c is said as, after "every row" or "some rows" (plural, the
 * verb's number by `every`), the limit in the units the header reads (1 h, 11.05 kW), into b. */
static void broken_words(sbuf *b, const st_size_report *rp, st_size_bind c, int every)
{
    const st_size_spec *s = rp->spec;
    const char *is = every ? "is" : "are";
    char q[64];
    switch (c) {
    case ST_BIND_DEADLINE:
        st_unit_format(rp->deadline_s, ST_DIM_TIME, q, sizeof q);
        put(b, "%s the deadline of %s", every ? "misses" : "miss", q);
        break;
    case ST_BIND_FABRIC:
        put(b, "%s switches of more ports than cluster.fabric.switch_ports",
            every ? "needs" : "need");
        break;
    case ST_BIND_POWER:
        st_unit_format(s->power_w, ST_DIM_POWER, q, sizeof q);
        put(b, "%s over the power budget of %s", is, q);
        break;
    case ST_BIND_COOLING:
        put(b, "%s over a cooling budget", is);
        break;
    case ST_BIND_GPUS:
        put(b, "%s over the GPU budget of %s", is, st_fig_plain((double)s->gpus).s);
        break;
    case ST_BIND_RACKS:
        put(b, "%s over the rack budget of %s", is, st_fig_plain((double)s->racks).s);
        break;
    case ST_BIND_CAPEX:
        put(b, "%s over the capex budget of %s USD", is, st_fig_money(s->capex_usd, q, sizeof q));
        break;
    case ST_BIND_TCO:
        put(b, "%s over the tco budget of %s USD a year", is,
            st_fig_money(s->tco_usd_per_year, q, sizeof q));
        break;
    default:
        break;
    }
}

/* Whether spec has a budget besides the deadline. */
static int any_budget(const st_size_spec *s)
{
    return s->power_w > 0 || s->cooling_w > 0 || s->air_cooling_w > 0 || s->liquid_cooling_w > 0 ||
           s->gpus > 0 || s->racks > 0 || s->capex_usd > 0 || s->tco_usd_per_year > 0;
}

/* When no row meets the deadline and the budgets: what keeps the rows out (each constraint some
 * row breaks, said of every row where all do; with budgets, the deadline too when every row
 * meets it, so a budget is not read as a missed deadline), then the fastest row found, and,
 * where a larger cluster was searched and trained slower, why more GPUs did not help. */
static void text_none_meets(sbuf *b, const st_size_report *rp, const st_size_result *r)
{
    const st_size_cfg *best = NULL, *larger = NULL;
    unsigned all = ~0u, some = 0;
    for (size_t i = 0; i < r->n; i++) {
        if (r->cfg[i].feasible)
            return;
        unsigned k = st_size_breaks(&r->cfg[i], rp->spec);
        all &= k;
        some |= k;
        if (!best || r->cfg[i].train_s < best->train_s)
            best = &r->cfg[i];
    }
    if (!best)
        return;
    for (size_t i = 0; i < r->n; i++)
        if (r->cfg[i].nodes > best->nodes && (!larger || r->cfg[i].nodes > larger->nodes))
            larger = &r->cfg[i];
    int budgets = any_budget(rp->spec);
    char q[64];
    put(b, "no row meets %s: ", budgets ? "the deadline and the budgets" : "the deadline");
    static const st_size_bind order[] = {ST_BIND_DEADLINE, ST_BIND_FABRIC, ST_BIND_POWER,
                                         ST_BIND_COOLING,  ST_BIND_GPUS,   ST_BIND_RACKS,
                                         ST_BIND_CAPEX,    ST_BIND_TCO};
    int said = 0;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        unsigned bit = 1u << order[i];
        if (!(some & bit))
            continue;
        put(b, "%s%s ", said++ ? ", " : "", all & bit ? "every row" : "some rows");
        broken_words(b, rp, order[i], (all & bit) != 0);
    }
    if (budgets && !(some & 1u << ST_BIND_DEADLINE)) {
        st_unit_format(rp->deadline_s, ST_DIM_TIME, q, sizeof q);
        put(b, "%severy row meets the deadline of %s", said++ ? ", while " : "", q);
    }
    st_unit_format(best->train_s, ST_DIM_TIME, q, sizeof q);
    put(b, "%sthe fastest found trains in %s on %s node%s", said ? "; " : "", q,
        st_fig_plain((double)best->nodes).s, st_plural_s(best->nodes));
    if (larger) {
        put(b, "; the largest size searched, %s nodes, was no faster",
            st_fig_plain((double)larger->nodes).s);
        int64_t m_best = micro_per_replica(rp, best), m_larger = micro_per_replica(rp, larger);
        if (m_larger > 0 && m_larger < m_best)
            put(b,
                " (a global batch of %s sequences leaves its replicas %s micro-batch%s "
                "each to fill the pipeline with, against %s)",
                st_fig_plain((double)rp->global_batch).s, st_fig_plain((double)m_larger).s,
                m_larger == 1 ? "" : "es", st_fig_plain((double)m_best).s);
    }
    put(b, "\n");
}

/* Whether row f is past an audit's limit: its junction over it, its HBM left under it. */
typedef int (*row_past)(const st_size_cfg *f, double limit);

static int junction_over(const st_size_cfg *f, double limit)
{
    return f->junction_c > limit;
}

static double hbm_left(const st_size_cfg *f)
{
    return 1 - f->mem_bytes / f->mem_capacity;
}

static int headroom_under(const st_size_cfg *f, double limit)
{
    return hbm_left(f) < limit;
}

/* The ranked rows shown that `past` picks against limit (none when limit is 0): how many, into
 * *shown the rows shown, and with any, "\nKEY: " then "every row shown", "row 3" or "rows 1, 2,
 * 4" into b. */
static size_t text_rows(sbuf *b, const st_size_report *rp, const st_size_result *r, const char *key,
                        row_past past, double limit, size_t *shown)
{
    size_t n = 0;
    *shown = r->n < rp->top ? r->n : rp->top;
    for (size_t i = 0; i < *shown && limit > 0; i++)
        n += past(&r->cfg[i], limit) != 0;
    if (!n)
        return 0;
    put(b, "\n%s: ", key);
    if (n == *shown)
        put(b, "every row shown");
    else {
        put(b, "row%s", n > 1 ? "s" : "");
        for (size_t i = 0, k = 0; i < *shown; i++)
            if (past(&r->cfg[i], limit))
                put(b, "%s %zu", k++ ? "," : "", i + 1);
    }
    return n;
}

/* The ranked rows shown whose hottest GPU junction is over the audit's limit: `strata audit` fails
 * their plans. They stay ranked (planner/size.h): the racks' cooling, not the plan, is at fault. */
static void text_junction(sbuf *b, const st_size_report *rp, const st_size_result *r)
{
    double limit = rp->spec->junction_limit_c, hot = -INFINITY;
    size_t shown, over = text_rows(b, rp, r, "junction", junction_over, limit, &shown);
    if (!over)
        return;
    for (size_t i = 0; i < shown; i++)
        if (junction_over(&r->cfg[i], limit))
            hot = fmax(hot, r->cfg[i].junction_c);
    put(b,
        " run%s a GPU junction over audit.junction_limit (%.4g C; the hottest %.1f C, JSON "
        "junction_c): "
        "`strata audit` fails %s; cooler racks (liquid, a colder inlet) or a stated limit pass "
        "%s\n",
        over == 1 || over == shown ? "s" : "", limit, hot, over == 1 ? "its plan" : "their plans",
        over == 1 ? "it" : "them");
}

/* The ranked rows shown that leave under audit.memory_headroom of HBM free: `strata audit` warns
 * of their plans. They stay ranked (planner/size.h). */
static void text_memory(sbuf *b, const st_size_report *rp, const st_size_result *r)
{
    double want = rp->spec->memory_headroom, least = INFINITY;
    size_t shown, under = text_rows(b, rp, r, "memory", headroom_under, want, &shown);
    if (!under)
        return;
    for (size_t i = 0; i < shown; i++)
        least = fmin(least, hbm_left(&r->cfg[i]));
    put(b,
        " leave%s under audit.memory_headroom of HBM free (%.4g%%; the least %.1f%%, JSON "
        "memory_per_gpu_bytes of memory_capacity_bytes): `strata audit` warns that allocator "
        "fragmentation and transient buffers may not fit; more recompute or pipeline stages "
        "leave more\n",
        under == 1 || under == shown ? "s" : "", 100 * want, 100 * least);
}

/* Without --confidence the deadline holds train, the point forecast: "; the deadline holds
 * train, the point forecast: K of the N rows within it keep their whole band within it too"
 * (the HTML and Markdown summary says it of the first row). */
static void point_only(sbuf *b, const st_size_report *rp, const st_size_result *r)
{
    size_t meet = 0, whole = 0;
    for (size_t i = 0; i < r->n; i++) {
        meet += r->cfg[i].feasible != 0;
        whole += r->cfg[i].feasible && r->cfg[i].train_band[1] <= rp->spec->deadline_s;
    }
    if (meet > 0)
        put(b,
            "; the deadline holds train, the point forecast: %s of the %s row%s within it "
            "keep their whole band within it too (--confidence holds the band's upper end)",
            st_fig_plain((double)whole).s, st_fig_plain((double)meet).s,
            st_plural_s((long long)meet));
}

/* The count line's word on units where some variant's differs from the scenario's. */
static const char *unit_note(const st_size_spec *s, const st_size_result *r)
{
    if (!r->reshaped)
        return "";
    if (s->unit == ST_SIZE_UNIT_RACK)
        return " (each type's own rack)";
    if (s->unit == ST_SIZE_UNIT_LEAF)
        return " (each type's own leaf)";
    return r->unit_nodes == 1 ? " of each type's own" : " (the same GPUs in each type's own nodes)";
}

char *st_size_budget_words(const st_size_report *rp, int with_power)
{
    const st_size_spec *s = rp->spec;
    char q[ST_FIG_TEXT_MAX];
    sbuf b = {0};
    const char *sep = "";
    if (with_power && rp->power_from) {
        st_unit_format(s->power_w, ST_DIM_POWER, q, sizeof q);
        put(&b, "%spower %s", sep, q), sep = ", ";
    }
    for (int k = 0; with_power && k < 3; k++)
        if (heat_budget(s, k) > 0) {
            st_unit_format(heat_budget(s, k), ST_DIM_POWER, q, sizeof q);
            put(&b, "%s%s %s of heat", sep, HEAT_BUDGET[k], q), sep = ", ";
        }
    if (s->gpus > 0)
        put(&b, "%s%s GPUs", sep, st_fig_plain((double)s->gpus).s), sep = ", ";
    if (s->racks > 0)
        put(&b, "%s%s rack%s", sep, st_fig_plain((double)s->racks).s, s->racks == 1 ? "" : "s"),
            sep = ", ";
    if (s->capex_usd > 0)
        put(&b, "%scapex %s USD", sep, st_fig_money(s->capex_usd, q, sizeof q)), sep = ", ";
    if (s->tco_usd_per_year > 0)
        put(&b, "%stco %s USD/year", sep, st_fig_money(s->tco_usd_per_year, q, sizeof q));
    return b.s;
}

static void text(sbuf *b, const st_size_report *rp, const st_size_result *r)
{
    int64_t pruned = r->pruned_rule + r->pruned_memory + r->pruned_dominated;
    char q[32]; /* the deadline and budgets in units that read at their size (25 min, 11.05 kW) */
    st_unit_format(rp->deadline_s, ST_DIM_TIME, q, sizeof q);
    put(b, "strata size: %s, workload %s, deadline %s, goal %s\n", rp->file, rp->workload, q,
        rp->goal);
    if (rp->power_from) {
        st_unit_format(rp->spec->power_w, ST_DIM_POWER, q, sizeof q);
        put(b, "power budget %s (%s), against the facility peak (power)\n", q,
            strcmp(rp->power_from, "--budget") ? "the scenario's facility.power_capacity"
                                               : "--budget power=");
    }
    for (int k = 0; k < 3; k++)
        if (heat_budget(rp->spec, k) > 0) {
            st_unit_format(heat_budget(rp->spec, k), ST_DIM_POWER, q, sizeof q);
            put(b, "%s budget %s of heat (", HEAT_BUDGET[k], q);
            if (rp->cooling_from[k] && strcmp(rp->cooling_from[k], "--budget"))
                put(b, "the scenario's %s", rp->cooling_from[k]);
            else
                put(b, "--budget %s=", HEAT_BUDGET[k]);
            put(b, "), against the heat to reject (%s)%s\n", COL_HEAD[C_HEAT + k],
                rp->existing ? " and the kept pool's" : "");
        }
    char *others = st_size_budget_words(rp, 0); /* gpus=, racks=, capex=, tco= (it said none) */
    if (others)
        put(b, "budgets: %s (--budget), against each row's fleet and what it buys\n", others);
    free(others);
    if (rp->spec->n_variants)
        put(b, "%zu hardware variant%s; ", rp->spec->n_variants,
            rp->spec->n_variants == 1 ? "" : "s");
    put(b,
        "searched %s of %s cluster sizes in whole units of %s node%s%s (%s not needed, "
        "%s of them past the deadline on compute alone); "
        "%s plans considered, %s evaluated, "
        "%s pruned (%s by a plan rule, %s by memory, %s dominated)\n",
        st_fig_plain((double)r->counts_searched).s, st_fig_plain((double)r->candidates).s,
        st_fig_plain((double)r->unit_nodes).s, r->unit_nodes == 1 ? "" : "s",
        unit_note(rp->spec, r), st_fig_plain((double)r->counts_skipped).s,
        st_fig_plain((double)r->counts_bounded).s, st_fig_plain((double)r->considered).s,
        st_fig_plain((double)r->n).s, st_fig_plain((double)pruned).s,
        st_fig_plain((double)r->pruned_rule).s, st_fig_plain((double)r->pruned_memory).s,
        st_fig_plain((double)r->pruned_dominated).s); /* grouped, every count of the line */
    if (r->unsplit)
        put(b,
            "%d of the hardware variants ha%s no size of whole units within the budgets that "
            "splits the workload into a plan, so no rows\n",
            r->unsplit, r->unsplit == 1 ? "s" : "ve");
    if (rp->failures)
        put(b,
            "failures: time to train and goodput are Daly's expected (a closed form near the mean "
            "of strata run's --replicas, not one life's draw) at the best of %s checkpoint "
            "cadences weighed\n",
            st_fig_plain((double)r->cadences).s);
    if (r->n > 0 && r->cfg[0].spares_held >= 0)
        put(b,
            "spares: %s node%s kept beside each row's own, priced and counted in a GPU budget; "
            "the first row's job waits for one %.3g%% of its time to train "
            "(spares_held_share); %s would hold it %.3g%% or less (spares_needed)\n",
            st_fig_plain((double)rp->spec->failures->spares).s,
            st_plural_s(rp->spec->failures->spares), 100 * r->cfg[0].spares_held,
            st_fig_plain((double)r->cfg[0].spares_needed).s, 100 * ST_SPARES_ENOUGH);
    put(b,
        "band: time to train's %.0f%% error band from the runs like each row (published, or "
        "the cluster's own calibration's)",
        100 * ST_BAND_LEVEL);
    if (rp->spec->confidence > 0)
        put(b, "; the deadline holds conf, its upper end at %.3g%% confidence",
            100 * rp->spec->confidence);
    else
        point_only(b, rp, r);
    put(b, " (docs/models/error-band.md)\n");
    text_prices(b, rp, r);
    if (rp->existing)
        put(b,
            "existing pool %s kept: %s node%s of %s; a row of its type grows it, one of another "
            "type is a new pool; ranked by what each buys (bought_usd: its added nodes' share of "
            "its capex), then by %s; each row runs on the grown fleet, every pool; power and "
            "cooling budgets add what its other nodes draw from idle to full (kept_power)\n",
            rp->existing, st_fig_plain((double)rp->spec->existing_nodes).s,
            st_plural_s(rp->spec->existing_nodes), rp->spec->existing_gpu->name, rp->goal);
    text_none_meets(b, rp, r);
    put(b, "\nranked (top %zu):\n", rp->top);
    col_widths cw = widths_of(rp, r);
    text_header(b, rp, &cw);
    for (size_t i = 0; i < r->n && i < rp->top; i++)
        text_row(b, rp, &r->cfg[i], i + 1, &cw);
    if (r->n > rp->top) /* what --top left out: JSON and CSV left_out */
        put(b,
            "(the first %s of the %s configurations evaluated, %s left out; a larger --top "
            "lists more)\n",
            st_fig_plain((double)rp->top).s, st_fig_plain((double)r->n).s,
            st_fig_plain((double)(r->n - rp->top)).s);
    text_junction(b, rp, r);
    text_memory(b, rp, r);
    text_costs(b, rp, r);
    put(b, "\nPareto front (time to train against %s):\n", rp->goal);
    text_header(b, rp, &cw);
    for (size_t i = 0; i < r->n; i++)
        if (r->cfg[i].front)
            text_row(b, rp, &r->cfg[i], i + 1, &cw);
}

/* A figure, or null where it is unknown (NaN, or a price without prices). */
static void num(cJSON *o, const char *k, double v, int known)
{
    if (known && isfinite(v))
        cJSON_AddNumberToObject(o, k, v);
    else
        cJSON_AddNullToObject(o, k);
}

static cJSON *json_row(const st_size_report *rp, const st_size_cfg *f, size_t rank)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "rank", (double)rank);
    if (rp->spec->n_variants) {
        sbuf var = {0};
        cJSON_AddStringToObject(o, "variant", variant_name(rp, f, &var));
        free(var.s);
    }
    const char *k[] = {"nodes", "gpus", "tp", "pp", "dp", "virtual_stages", "microbatch"};
    const int64_t v[] = {f->nodes, f->gpus, f->tp, f->pp, f->dp, f->vs, f->mb};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        cJSON_AddNumberToObject(o, k[i], (double)v[i]);
        if (i == 4 && rp->experts) /* after dp: an MoE model's expert parallelism */
            cJSON_AddNumberToObject(o, "ep", (double)f->ep);
    }
    cJSON_AddStringToObject(o, "recompute", st_recompute_names[f->recompute]);
    cJSON_AddNumberToObject(o, "memory_per_gpu_bytes", f->mem_bytes);
    cJSON_AddNumberToObject(o, "memory_capacity_bytes", f->mem_capacity);
    cJSON_AddNumberToObject(o, "step_time_s", f->step_s);
    cJSON_AddNumberToObject(o, "work_s", f->work_s);
    cJSON_AddNumberToObject(o, "train_s", f->train_s);
    cJSON_AddItemToObject(o, "train_s_band", cJSON_CreateDoubleArray(f->train_band, 2));
    if (rp->spec->confidence > 0)
        cJSON_AddNumberToObject(o, "train_s_at_confidence", f->train_conf_s);
    cJSON_AddNumberToObject(o, "expected_goodput", f->goodput);
    if (f->spares_held >= 0) {
        cJSON_AddNumberToObject(o, "spares_held_share", f->spares_held);
        cJSON_AddNumberToObject(o, "spares_needed", (double)f->spares_needed);
    }
    num(o, "checkpoint_interval_s", f->ckpt_every_s, f->ckpt_every_s > 0); /* null: none taken */
    if (f->mem_every_s > 0)
        cJSON_AddNumberToObject(o, "memory_interval_s", f->mem_every_s);
    cJSON_AddNumberToObject(o, "gpu_hours", f->gpu_hours);
    num(o, "cost_usd", f->cost_usd, f->cost_usd >= 0);
    num(o, "per_year_usd", f->per_year_usd, f->per_year_usd >= 0);
    num(o, "purchase_usd", f->capex_usd, f->capex_usd >= 0);
    if (f->price_source)
        cJSON_AddStringToObject(o, "price_source", f->price_source);
    else
        cJSON_AddNullToObject(o, "price_source");
    if (f->switch_source)
        cJSON_AddStringToObject(o, "switch_price_source", f->switch_source);
    if (f->switch_source) { /* on premises: the parts its cost counts at 0 */
        cJSON *np = cJSON_AddArrayToObject(o, "not_priced");
        for (int q = 0; q < ST_COST__PARTS && np; q++)
            if (f->unpriced & 1u << q)
                cJSON_AddItemToArray(np, cJSON_CreateString(st_cost_part_names[q]));
    }
    num(o, "facility_peak_w", f->facility_w, 1);
    num(o, "heat_w", f->heat.total_w, 1);
    num(o, "heat_air_w", f->heat.air_w, 1);
    num(o, "heat_liquid_w", f->heat.liquid_w, 1);
    num(o, "junction_c", f->junction_c, 1);
    cJSON_AddNumberToObject(o, "racks", (double)f->racks);
    if (rp->existing) {
        cJSON_AddNumberToObject(o, "added_nodes", (double)f->added_nodes);
        cJSON_AddStringToObject(o, "added_gpu", added_gpu(rp, f));
        num(o, "bought_usd", f->bought_usd, f->bought_usd >= 0);
        cJSON_AddNumberToObject(o, "kept_facility_w", f->kept_w);
    }
    cJSON_AddStringToObject(o, "topology", st_topology_names[f->topology]);
    cJSON_AddBoolToObject(o, "feasible", f->feasible);
    cJSON_AddBoolToObject(o, "front", f->front);
    cJSON_AddStringToObject(o, "binds", st_size_bind_name(f->binds));
    if (unmet(f))
        cJSON_AddStringToObject(o, "unmet", unmet(f));
    else
        cJSON_AddNullToObject(o, "unmet");
    return o;
}

static void json(sbuf *b, const st_size_report *rp, const st_size_result *r)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "file", rp->file);
    cJSON_AddStringToObject(root, "workload", rp->workload);
    cJSON_AddNumberToObject(root, "deadline_s", rp->deadline_s);
    if (rp->spec->confidence > 0)
        cJSON_AddNumberToObject(root, "confidence", rp->spec->confidence);
    cJSON_AddStringToObject(root, "goal", rp->goal);
    if (rp->spec->junction_limit_c > 0)
        cJSON_AddNumberToObject(root, "junction_limit_c", rp->spec->junction_limit_c);
    if (rp->spec->memory_headroom > 0)
        cJSON_AddNumberToObject(root, "memory_headroom", rp->spec->memory_headroom);
    if (rp->existing) {
        cJSON *e = cJSON_AddObjectToObject(root, "existing");
        cJSON_AddStringToObject(e, "pool", rp->existing);
        cJSON_AddStringToObject(e, "gpu", rp->spec->existing_gpu->name);
        cJSON_AddNumberToObject(e, "nodes", (double)rp->spec->existing_nodes);
    }
    if (rp->power_from) {
        cJSON_AddNumberToObject(root, "power_budget_w", rp->spec->power_w);
        cJSON_AddStringToObject(root, "power_budget_from", rp->power_from);
    }
    const st_size_spec *sp = rp->spec; /* the other budgets --budget states */
    if (sp->gpus > 0)
        cJSON_AddNumberToObject(root, "gpu_budget", (double)sp->gpus);
    if (sp->racks > 0)
        cJSON_AddNumberToObject(root, "rack_budget", (double)sp->racks);
    if (sp->capex_usd > 0)
        cJSON_AddNumberToObject(root, "capex_budget_usd", sp->capex_usd);
    if (sp->tco_usd_per_year > 0)
        cJSON_AddNumberToObject(root, "tco_budget_usd_per_year", sp->tco_usd_per_year);
    for (int k = 0; k < 3; k++)
        if (heat_budget(rp->spec, k) > 0 && rp->cooling_from[k]) {
            char key[40];
            st_snprintf(key, sizeof key, "%s_budget_w", HEAT_BUDGET[k]);
            cJSON_AddNumberToObject(root, key, heat_budget(rp->spec, k));
            st_snprintf(key, sizeof key, "%s_budget_from", HEAT_BUDGET[k]);
            cJSON_AddStringToObject(root, key, rp->cooling_from[k]);
        }
    cJSON *s = cJSON_AddObjectToObject(root, "search");
    cJSON_AddNumberToObject(s, "variants",
                            (double)(rp->spec->n_variants ? rp->spec->n_variants : 1));
    cJSON_AddNumberToObject(s, "unit_nodes", (double)r->unit_nodes);
    cJSON_AddNumberToObject(s, "candidates", (double)r->candidates);
    cJSON_AddNumberToObject(s, "counts_searched", (double)r->counts_searched);
    cJSON_AddNumberToObject(s, "counts_skipped", (double)r->counts_skipped);
    cJSON_AddNumberToObject(s, "counts_bounded", (double)r->counts_bounded);
    cJSON_AddNumberToObject(s, "considered", (double)r->considered);
    cJSON_AddNumberToObject(s, "evaluated", (double)r->n);
    cJSON_AddNumberToObject(s, "pruned_rule", (double)r->pruned_rule);
    cJSON_AddNumberToObject(s, "pruned_memory", (double)r->pruned_memory);
    cJSON_AddNumberToObject(s, "pruned_dominated", (double)r->pruned_dominated);
    cJSON_AddNumberToObject(s, "cadences_weighed", (double)r->cadences);
    /* the ranked rows --top leaves out (the front's are all there) */
    cJSON_AddNumberToObject(root, "left_out", (double)(r->n > rp->top ? r->n - rp->top : 0));
    cJSON *ranked = cJSON_AddArrayToObject(root, "ranked");
    for (size_t i = 0; i < r->n && i < rp->top; i++)
        cJSON_AddItemToArray(ranked, json_row(rp, &r->cfg[i], i + 1));
    cJSON *front = cJSON_AddArrayToObject(root, "front");
    for (size_t i = 0; i < r->n; i++)
        if (r->cfg[i].front)
            cJSON_AddItemToArray(front, json_row(rp, &r->cfg[i], i + 1));
    char *t = st_report_json_print(root);
    put(b, "%s", t);
    free(t);
}

/* A CSV cell of row o's key k (numbers as the JSON prints them, null empty), through the one
 * cell writer that quotes and neutralises (report/report.h): a variant names the user's GPU. */
static void csv_cell(FILE *out, const cJSON *v)
{
    char num[32];
    if (cJSON_IsNumber(v))
        st_report_number_exact(v->valuedouble, num, sizeof num);
    st_report_csv_cell(out, cJSON_IsNumber(v)   ? num
                            : cJSON_IsBool(v)   ? (cJSON_IsTrue(v) ? "true" : "false")
                            : cJSON_IsString(v) ? v->valuestring
                                                : "");
}

/* One line per configuration of the ranked table, then of the front, each with its table. */
static void csv(sbuf *b, const st_size_report *rp, const st_size_result *r)
{
    char *buf;
    size_t len;
    FILE *out = st_report_open(&buf, &len);
    cJSON *hdr = json_row(rp, r->n ? &r->cfg[0] : &(st_size_cfg){0}, 0);
    fputs("table", out);
    for (const cJSON *c = hdr->child; c; c = c->next) {
        if (cJSON_IsArray(c)) { /* a band: one column per end, key[0] and key[1] */
            for (int e = 0; e < cJSON_GetArraySize(c); e++) {
                char key[64];
                snprintf(key, sizeof key, "%s[%d]", c->string, e);
                fputc(',', out);
                st_report_csv_cell(out, key);
            }
            continue;
        }
        fputc(',', out);
        st_report_csv_cell(out, c->string);
    }
    fputs(",left_out\n", out); /* the JSON's left_out, on every line: the rows --top left out */
    cJSON_Delete(hdr);
    char left[32];
    snprintf(left, sizeof left, "%zu", r->n > rp->top ? r->n - rp->top : 0);
    for (int t = 0; t < 2; t++)
        for (size_t i = 0; i < r->n && (t || i < rp->top); i++) {
            if (t && !r->cfg[i].front)
                continue;
            cJSON *o = json_row(rp, &r->cfg[i], i + 1);
            fputs(t ? "front" : "ranked", out);
            for (const cJSON *c = o->child; c; c = c->next) {
                for (const cJSON *e = cJSON_IsArray(c) ? c->child : c; e;
                     e = cJSON_IsArray(c) ? e->next : NULL) {
                    fputc(',', out);
                    csv_cell(out, e);
                }
            }
            fprintf(out, ",%s\n", left);
            cJSON_Delete(o);
        }
    put(b, "%s", st_report_close(out, &buf));
    free(buf);
}

char *st_size_render(const st_size_report *rp, const st_size_result *r, st_size_format f)
{
    sbuf b = {0};
    put(&b, "%s", "");
    if (f == ST_SIZE_JSON || f == ST_SIZE_MARKDOWN || f == ST_SIZE_HTML)
        json(&b, rp, r);
    else if (f == ST_SIZE_CSV)
        csv(&b, rp, r);
    else
        text(&b, rp, r);
    if (f != ST_SIZE_MARKDOWN && f != ST_SIZE_HTML)
        return b.s;
    cJSON *t = cJSON_Parse(b.s); /* the page shows the JSON's numbers */
    if (!t)
        ST_BUG("strata size: its own JSON does not parse");
    char *doc = st_size_doc(rp, r, t, f == ST_SIZE_HTML ? ST_FMT_HTML : ST_FMT_MARKDOWN);
    cJSON_Delete(t);
    free(b.s);
    return doc;
}
