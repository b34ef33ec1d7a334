/* The cost model's default prices, each with its public source and date, and the keys a delivery
 * model needs that have none. A price that depends on the hardware bought or rented (a node, a
 * switch, storage capacity, a GPU-hour) has no default: list prices differ by GPU and vendor, so
 * the scenario must state them (docs/models/cost.md lists published figures to start from). */
#include "models/cost/cost.h"

#include <stddef.h>

/* One table: key, value in SI units, source. AWS bills a "GB" of 2^30 bytes (the byte-hour
 * arithmetic of its Amazon S3 FAQ, "How will I be charged and billed for my use of Amazon S3?"). */
#define ST_COST_GB 1073741824.0
static const struct {
    const char *key;
    double value;
    const char *source;
} defaults[] = {
    /* U.S. EIA, Electricity Monthly Update, data for September 2020 (released 24 Nov 2020),
     * "Retail Service by Customer Sector": commercial average revenue 11.07 cents/kWh. */
    {"electricity", 0.1107 / 3.6e6, "EIA Electricity Monthly Update, Sep 2020, commercial"},
    /* Amazon S3 pricing, US East (N. Virginia), S3 Standard, first 50 TB/month: USD 0.023 per
     * GB-month (as of March 2026, cloudburn.io "Amazon S3 Pricing Explained", 13 Mar 2026). */
    {"storage_month_price", 0.023 / ST_COST_GB, "Amazon S3 Standard, us-east-1, Mar 2026"},
    /* AWS data transfer out to the internet, first 10 TB/month after the free 100 GB: USD 0.09
     * per GB (AWS EC2 on-demand pricing page, quoted by Logicata, "Don't get caught out by AWS
     * data egress fees", 20 Mar 2020, and egresscost.com/aws, 2026). */
    {"egress_price", 0.09 / ST_COST_GB, "AWS data transfer out, first 10 TB, 2020-2026"},
    /* NREL's survey of more than 10,000 U.S. utility tariffs (McLaren, Gagnon, Zimny-Schmitt,
     * DeMinco, Wilson, "Identifying Potential Markets for Behind-the-Meter Battery Energy
     * Storage: A Survey of U.S. Demand Charges", NREL/BR-6A20-68963, Aug 2017): nearly 5 million
     * of the 18 million commercial customers can take tariffs with demand charges above USD 15
     * per kW (a month's peak); that level is the default, in USD per W-month. */
    {"demand_charge", 15.0 / 1e3, "NREL survey of U.S. demand charges, Aug 2017"},
};

void st_cost_defaults(st_cost_cfg *c)
{
    c->node_price_usd = c->switch_price_usd = c->storage_price_usd_per_byte = -1;
    c->gpu_hour_usd_per_s = -1;
    c->electricity_usd_per_j = defaults[0].value;
    c->storage_month_usd_per_byte = defaults[1].value;
    c->egress_usd_per_byte = defaults[2].value;
    c->demand_usd_per_w_month = defaults[3].value;
    c->maintenance_per_year = c->staff_usd_per_s = -1;
    c->pricing = ST_PRICING_ON_DEMAND;
    c->committed_gpu_hour_usd_per_s = c->commitment_s = -1;
    c->storage_bw_usd_per_bps = -1; /* a hardware price: no published default */
    c->amortization_s =
        4 * 365 * 86400.0; /* the documented default (docs/guide/scenario-reference.md): 4 y, an
                              assumption, settable */
}

/* Why a key has no default. */
static const char hw_price[] =
    "its price depends on the hardware bought or rented and has no published default";
static const char site_cost[] = "it depends on the site and its contracts and has no published "
                                "default";

const char *st_cost_missing(const st_cost_cfg *c, const char **why)
{
    *why = hw_price;
    if (c->delivery == ST_DELIVERY_ON_PREM) {
        if (c->node_price_usd < 0)
            return "node_price";
        if (c->switch_price_usd < 0)
            return "switch_price";
        if (c->storage_price_usd_per_byte < 0)
            return "storage_price";
        *why = site_cost;
        if (c->maintenance_per_year < 0)
            return "maintenance";
        return c->staff_usd_per_s < 0 ? "staff" : NULL;
    }
    if (c->delivery == ST_DELIVERY_CLOUD && c->pricing == ST_PRICING_COMMITTED) {
        if (c->committed_gpu_hour_usd_per_s < 0)
            return "committed_gpu_hour_price";
        *why = "a commitment's term is the buyer's choice";
        return c->commitment_s < 0 ? "commitment" : NULL;
    }
    return c->gpu_hour_usd_per_s < 0 ? "gpu_hour_price" : NULL;
}
