/* One job's TCO under its delivery model: docs/models/cost.md gives the arithmetic. */
#include "models/cost/cost.h"

#include <math.h>

/* n of a part at price: 0 when none is bought or the price is 0, NaN when some is bought and
 * the part has no price (< 0): not priced, which a report says, not 0 USD. */
static double priced(double n, double price)
{
    if (!(n > 0))
        return 0;
    return price >= 0 ? n * price : NAN;
}

/* A part's cost in a sum: a part not priced counts 0 (the report names it: st_cost_result). */
static double known(double usd)
{
    return isnan(usd) ? 0 : usd;
}

double st_cost_part_sum(double a, double b)
{
    double sum = known(a) + known(b);
    return sum == 0 && (isnan(a) || isnan(b)) ? NAN : sum;
}

/* What the job's share of the cluster's purchases cost, part by part, into r's capex parts (not
 * yet written off): nodes, switches, their optics, racks and cooling plant at its GPUs' share of
 * the cluster's, and the storage capacity it keeps (with, when a sizing search prices it, its
 * share of the checkpoint tier's write bandwidth). Returns their sum, summed as the shared parts
 * times the share plus the storage. */
static double bought(const st_cost_cfg *c, const st_cost_use *u, double share, st_cost_result *r)
{
    double nodes = priced(u->cluster_nodes, st_cost_node_price(c, u->node_gpus));
    double switches = priced((double)u->cluster_switch, c->switch_price_usd);
    double optics = priced((double)u->optic_ports, c->optic_usd);
    double racks = priced((double)u->racks, c->rack_usd);
    double cooling = st_cost_part_sum(priced(u->cooling_air_w, c->cooling_air_usd_per_w),
                                      priced(u->cooling_liquid_w, c->cooling_liquid_usd_per_w));
    double storage = priced(u->stored_bytes, c->storage_price_usd_per_byte);
    /* the tier's bandwidth only where priced: a search that prices plans refuses it unpriced
     * (planner/size.c), and the capacity names the storage part's price */
    double bw = share * known(priced(u->storage_bw_bps, c->storage_bw_usd_per_bps));
    r->capex_nodes_usd = share * nodes, r->capex_switches_usd = share * switches;
    r->capex_optics_usd = share * optics, r->capex_racks_usd = share * racks;
    r->capex_cooling_usd = share * cooling;
    r->capex_storage_usd = bw > 0 ? known(storage) + bw : storage;
    return share *
               (known(nodes) + known(switches) + known(optics) + known(racks) + known(cooling)) +
           known(storage) + bw;
}

/* The job's GPUs over the cluster's: its share of what the cluster buys. */
static double share_of(const st_cost_use *u)
{
    return u->cluster_gpus > 0 ? (double)u->gpus / (double)u->cluster_gpus : 0;
}

void st_cost_use_checkpoints(st_cost_use *u, const st_cost_cfg *c, double ckpt_bytes, double saves,
                             double usd_per_save)
{
    u->stored_bytes = 2 * ckpt_bytes;
    int every = c && c->egress == ST_EGRESS_CHECKPOINTS;
    u->egress_bytes = ckpt_bytes * (every && saves > 1 ? saves : 1);
    u->wear_usd = saves * usd_per_save;
}

double st_cost_bought(const st_cost_cfg *c, const st_cost_use *u)
{
    st_cost_result r;
    return bought(c, u, share_of(u), &r);
}

/* On-premises: what the job's share of the purchases cost (bought), written off straight-line
 * over the amortization period for the time it holds them, with the yearly maintenance share of
 * the same purchases; its facility energy at the tariff; its share of the facility's peak at the
 * demand charge for every month (730 h) it runs; its share of the cluster's staff. */
static void on_prem(const st_cost_cfg *c, const st_cost_use *u, st_cost_result *r)
{
    double share = share_of(u);
    double all = bought(c, u, share, r), written = u->held_s / c->amortization_s;
    r->capex_nodes_usd *= written, r->capex_switches_usd *= written;
    r->capex_optics_usd *= written, r->capex_racks_usd *= written;
    r->capex_cooling_usd *= written, r->capex_storage_usd *= written;
    r->capex_usd = all * u->held_s / c->amortization_s;
    r->maintenance_usd = all * c->maintenance_per_year * u->held_s / ST_COST_YEAR_S;
    r->energy_usd = u->energy_j * c->electricity_usd_per_j;
    r->demand_usd = u->peak_w * c->demand_usd_per_w_month * u->held_s / ST_COST_MONTH_S;
    r->staff_usd = share * c->staff_usd_per_s * u->held_s;
    r->wear_usd = u->wear_usd; /* the site's own drives; rented, the provider's wear */
}

/* Rented GPUs (bare metal and cloud): every GPU for the whole time the job holds it, restarts and
 * checkpoint stalls included, at the price per GPU-hour; committed cloud GPUs for the whole term
 * at least, at the committed rate. Only the cloud bills storage by the GB-month and bytes that
 * leave its network; a dedicated bare-metal rate includes both. */
static void rented(const st_cost_cfg *c, const st_cost_use *u, st_cost_result *r)
{
    int committed = c->delivery == ST_DELIVERY_CLOUD && c->pricing == ST_PRICING_COMMITTED;
    double paid_s = committed && c->commitment_s > u->held_s ? c->commitment_s : u->held_s;
    double rate = committed ? c->committed_gpu_hour_usd_per_s : c->gpu_hour_usd_per_s;
    r->gpu_usd = (double)u->gpus * paid_s * rate;
    if (c->delivery != ST_DELIVERY_CLOUD)
        return;
    r->storage_usd =
        u->stored_bytes * (u->held_s / ST_COST_MONTH_S) * c->storage_month_usd_per_byte;
    r->egress_usd = u->egress_bytes * c->egress_usd_per_byte;
}

st_cost_result st_cost_job(const st_cost_cfg *c, const st_cost_use *u)
{
    st_cost_result r = {0};
    if (c->delivery == ST_DELIVERY_ON_PREM)
        on_prem(c, u, &r);
    else
        rented(c, u, &r);
    r.total_usd = r.capex_usd + r.energy_usd + r.demand_usd + r.maintenance_usd + r.staff_usd +
                  r.gpu_usd + r.storage_usd + r.egress_usd + r.wear_usd;
    r.per_token_usd = u->tokens > 0 ? r.total_usd / u->tokens : 0;
    r.per_year_usd = u->held_s > 0 ? r.total_usd * ST_COST_YEAR_S / u->held_s : 0;
    return r;
}
