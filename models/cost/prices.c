/* The cost model's preset prices, one table: each row a price (or, for amortization, the period
 * purchases are written off over) with its year and public source, for the whole site (part
 * NULL) or for one part (a GPU platform by its catalog name). A price that has no row here has
 * no default: the scenario must state it (docs/models/cost.md). */
#include "models/cost/cost.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* AWS bills a "GB" of 2^30 bytes (the byte-hour arithmetic of its Amazon S3 FAQ, "How will I be
 * charged and billed for my use of Amazon S3?"). */
#define ST_COST_GB 1073741824.0
#define PER_HOUR   (1 / 3600.0)

/* The node prices are whole 8-GPU servers (the NVSwitch baseboard included) as listed for sale,
 * which is what `node_price` buys (gb200's node is one 4-GPU compute tray of an NVL72 rack); Epoch
 * AI's "Hardware prices" data set (github.com/epoch-research/training-cost-trends, data/Hardware
 * prices.csv) tabulates the listings, with their archived pages and dates, per GPU (the server's
 * price over 8). */
static const st_price_row rows[] = {
    /* U.S. EIA, Electricity Monthly Update, data for September 2020 (released 24 Nov 2020),
     * "Retail Service by Customer Sector": commercial average revenue 11.07 cents/kWh. */
    {"electricity", NULL, 0.1107 / 3.6e6, 2020,
     "EIA Electricity Monthly Update, Sep 2020, commercial", 0},
    /* Amazon S3 pricing, US East (N. Virginia), S3 Standard, first 50 TB/month: USD 0.023 per
     * GB-month (as of March 2026, cloudburn.io "Amazon S3 Pricing Explained", 13 Mar 2026). */
    {"storage_month_price", NULL, 0.023 / ST_COST_GB, 2026,
     "Amazon S3 Standard, us-east-1, Mar 2026", 0},
    /* AWS data transfer out to the internet, first 10 TB/month after the free 100 GB: USD 0.09
     * per GB (AWS EC2 on-demand pricing page, quoted by Logicata, "Don't get caught out by AWS
     * data egress fees", 20 Mar 2020, and egresscost.com/aws, 2026). */
    {"egress_price", NULL, 0.09 / ST_COST_GB, 2020, "AWS data transfer out, first 10 TB, 2020-2026",
     0},
    /* NREL's survey of more than 10,000 U.S. utility tariffs (McLaren, Gagnon, Zimny-Schmitt,
     * DeMinco, Wilson, "Identifying Potential Markets for Behind-the-Meter Battery Energy
     * Storage: A Survey of U.S. Demand Charges", NREL/BR-6A20-68963, Aug 2017): nearly 5 million
     * of the 18 million commercial customers can take tariffs with demand charges above USD 15
     * per kW (a month's peak); that level is the default, in USD per W-month. */
    {"demand_charge", NULL, 15.0 / 1e3, 2017, "NREL survey of U.S. demand charges, Aug 2017", 0},
    /* The write-off period: 5 years, Amazon's useful life for "a subset of our servers and
     * networking equipment", shortened "effective January 1, 2025, from six years to five years"
     * because of "an increased pace of technology development, particularly in the area of
     * artificial intelligence and machine learning" (Amazon.com, Inc., Form 10-K for 2024, filed
     * 7 Feb 2025, as quoted by O. Usvyatsky, "Amazon revises server lifespan amid AI shift",
     * Deep Quarry, 11 Feb 2025, and Calcbench, "On Amazon and Server Lifespans", Feb 2025).
     * Meta's 5.5 and Microsoft's and Alphabet's 6 years are fleet-wide lives; Amazon's is the
     * one shortened for AI hardware, the shortest of the four, so the conservative one for GPU
     * servers. */
    {"amortization", NULL, 5 * 365 * 86400.0, 2025,
     "Amazon 10-K 2024: servers 6 -> 5 y from Jan 2025 (AI/ML pace)", 0},

    /* NVIDIA's DGX A100 (8 x A100 40 GB) at its launch, USD 199,000 (NVIDIA press release,
     * 14 May 2020; Epoch AI: 24,875 a GPU). */
    {"node_price", "a100-sxm-40g", 199000, 2020, "DGX A100 320GB launch price, NVIDIA, May 2020",
     8},
    /* An HGX A100 8-GPU 640 GB server, Dihuni listing archived 23 Sep 2023 (Epoch AI: 18,548.75
     * a GPU). */
    {"node_price", "a100-sxm-80g", 148390, 2023, "HGX A100 8-GPU server, Dihuni list, Sep 2023", 8},
    /* An HGX H100 8-GPU system, listing archived 31 Jan 2025 (archive.ph/miFcW), as Epoch AI's
     * data set records it ("HGX, 8 GPU"; 31,904.63 a GPU): 8 x 31,904.63. The same source and
     * day as the h200-sxm row, so that a search across the two types compares like with like. */
    {"node_price", "h100-sxm", 255237.04, 2025,
     "HGX H100 8-GPU, listing archived 31 Jan 2025 (Epoch AI)", 8},
    /* An HGX H200 8-GPU system, listing archived 31 Jan 2025 (archive.ph/TxlLv), as Epoch AI's
     * data set records it ("HGX, 8 GPU, on sale"; 39,083.38 a GPU): 8 x 39,083.38, 22.5% over
     * the h100-sxm row's HGX H100 of that day; an H200 baseboard alone listed at 270,565
     * (anafrashop, Mar 2024). */
    {"node_price", "h200-sxm", 312667.04, 2025,
     "HGX H200 8-GPU, listing archived 31 Jan 2025 (Epoch AI)", 8},
    /* NVIDIA DGX B200 (8 x B200) at about USD 515,000 (vengineer.hatenablog.com, "DGX B200",
     * 16 Mar 2025, from a reseller's list price). */
    {"node_price", "b200", 515000, 2025, "DGX B200 list, USD 515K, vengineer, Mar 2025", 8},
    /* A gb200 node is one compute tray of a GB200 NVL72 rack (4 GPUs, the catalog's node_gpus),
     * so its price is the rack's over its 18 compute trays, the 9 NVLink switch trays included:
     * "Each of the AI server cabinets cost 96 million NTD (around $3 million USD or so)" for the
     * NVL72 (TweakTown news 98001, "nvidia-dgx-gb200-ai-servers-expected-to-sell-40-000-in-2025",
     * 2 May 2024, reporting UDN): 3,000,000 / 18 = 166,666.67 USD a tray. */
    {"node_price", "gb200", 166666.67, 2024,
     "GB200 NVL72 rack ~USD 3M (NTD 96M) over 18 trays, TweakTown, May 2024", 4},

    /* Fabric switches, per class (st_cost_switch_class: transport and port rate). A 64-port
     * NDR 400G InfiniBand switch (QM9700 class): USD 36,000, FS.com's listing archived 22 Aug
     * 2024 (web.archive.org/web/20240822234224/https://www.fs.com/products/206473.html), as
     * Eugene Cheah's H100 cluster cost sheet prices it ("H100 Freakonomics", tech-talk-cto
     * substack, Aug 2024; NVIDIA's own part at about USD 50,000 there). */
    {"switch_price", "infiniband-400g", 36000, 2024,
     "64-port NDR IB switch, FS.com list Aug 2024 (Cheah H100 cost sheet)", 0},

    /* Storage capacity bought: Pure Storage's FlashBlade//E, an all-flash file and object system
     * for capacity, at its launch (1 Mar 2023), "costs only $0.20 per GB, the minimum purchase
     * order is a staggering 4PB (or $800,000)" (TechRadar, "300TB SSDs are coming soon, but they
     * will be shockingly expensive", 2023): USD 200 per (decimal) TB. A performance tier costs
     * more; a scenario that buys one states its price. */
    {"storage_price", NULL, 0.20 / 1e9, 2023,
     "Pure Storage FlashBlade//E at launch, USD 0.20/GB, TechRadar, Mar 2023", 0},

    /* On-demand cloud rates per GPU-hour, every type from one provider's list of one date, so
     * that a search across types compares like with like: Oracle Cloud's price list
     * (oracle.com/cloud/price-list, from its products API), the same in every commercial region,
     * as skypilot-org/skypilot-catalog tabulates it (catalogs/v8/oci/vms.csv at 05887511, 2026;
     * a bare-metal shape's rate over its GPUs): BM.GPU4.8 (8 x A100 40 GB) 24.40 USD an hour,
     * BM.GPU.A100-v2.8 (8 x A100 80 GB) 32, BM.GPU.H100.8 80, BM.GPU.H200.8 80, BM.GPU.B200.8 112,
     * BM.GPU.GB200.4 (4 GPUs of an NVL72) 64, BM.GPU.MI300X.8 48. AWS's us-east-1 rates of the
     * same catalog (catalogs/v8/aws/vms.csv at 00148f2a) are 6.88 a GPU-hour for H100 (after
     * AWS's June 2025 cut from 12.29), 7.912 for H200 (p5en.48xlarge, 63.296 an hour) and 14.24
     * for B200 (p6-b200.48xlarge, 113.9328), and AWS lists no GB200 or MI300X on demand. */
    {"gpu_hour_price", "a100-sxm-40g", 24.40 / 8 * PER_HOUR, 2026,
     "Oracle Cloud BM.GPU4.8 list, 2026", 0},
    {"gpu_hour_price", "a100-sxm-80g", 32.0 / 8 * PER_HOUR, 2026,
     "Oracle Cloud BM.GPU.A100-v2.8 list, 2026", 0},
    {"gpu_hour_price", "h100-sxm", 80.0 / 8 * PER_HOUR, 2026,
     "Oracle Cloud BM.GPU.H100.8 list, 2026", 0},
    {"gpu_hour_price", "h200-sxm", 80.0 / 8 * PER_HOUR, 2026,
     "Oracle Cloud BM.GPU.H200.8 list, 2026", 0},
    {"gpu_hour_price", "b200", 112.0 / 8 * PER_HOUR, 2026, "Oracle Cloud BM.GPU.B200.8 list, 2026",
     0},
    {"gpu_hour_price", "gb200", 64.0 / 4 * PER_HOUR, 2026, "Oracle Cloud BM.GPU.GB200.4 list, 2026",
     0},
    {"gpu_hour_price", "mi300x", 48.0 / 8 * PER_HOUR, 2026,
     "Oracle Cloud BM.GPU.MI300X.8 list, 2026", 0},

    /* Committed rates per GPU-hour: EC2 Capacity Blocks for ML, the effective accelerator
     * hourly rate (AWS Capacity Blocks pricing page, rates to 1 Jan 2025): p4d.24xlarge
     * (A100 40 GB) 1.844, p5.48xlarge (H100) 4.916, p5e.48xlarge (H200) 5.408 USD. */
    {"committed_gpu_hour_price", "a100-sxm-40g", 1.844 * PER_HOUR, 2024,
     "AWS EC2 Capacity Blocks p4d, rates to Jan 2025", 0},
    {"committed_gpu_hour_price", "h100-sxm", 4.916 * PER_HOUR, 2024,
     "AWS EC2 Capacity Blocks p5, rates to Jan 2025", 0},
    {"committed_gpu_hour_price", "h200-sxm", 5.408 * PER_HOUR, 2024,
     "AWS EC2 Capacity Blocks p5e, rates to Jan 2025", 0},
    /* Azure ND96amsr A100 v4, East US, 1-year reserved (29 Jan 2024, Epoch AI: 3.53). */
    {"committed_gpu_hour_price", "a100-sxm-80g", 3.53 * PER_HOUR, 2024,
     "Azure ND96amsr A100 v4 1-year reserved, East US, Jan 2024", 0},
};

const st_price_row *st_price_find(const char *key, const char *part)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (!strcmp(rows[i].key, key) &&
            (part ? rows[i].part && !strcmp(rows[i].part, part) : !rows[i].part))
            return &rows[i];
    return NULL;
}

/* The unit each key's price is listed in, as its source states it (the loader reads the same
 * keys in any unit of their dimension, scenarios/load_ops.c): `strata catalog prices`. AWS's
 * "GB" of storage and egress is 2^30 bytes (ST_COST_GB above). */
const char *st_price_unit(const char *key)
{
    static const struct {
        const char *key, *unit;
    } units[] = {
        {"electricity", "USD/kWh"},      {"storage_month_price", "USD/GiB"},
        {"egress_price", "USD/GiB"},     {"demand_charge", "USD/kW-month"},
        {"gpu_hour_price", "USD/h"},     {"committed_gpu_hour_price", "USD/h"},
        {"storage_price", "USD/TB"},     {"storage_bandwidth_price", "USD/(GB/s)"},
        {"cooling_air_price", "USD/kW"}, {"cooling_liquid_price", "USD/kW"},
        {"amortization", "y"},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(units[i].key, key) == 0)
            return units[i].unit;
    return "USD"; /* node_price, switch_price, optic_price, rack_price */
}

const char *st_price_period(const char *key)
{
    return strcmp(key, "storage_month_price") == 0 ? "-month" : "";
}

size_t st_price_count(void)
{
    return sizeof rows / sizeof rows[0];
}

const st_price_row *st_price_at(size_t i)
{
    return i < st_price_count() ? &rows[i] : NULL;
}

/* The site-wide row of key, which the table must have. */
static double site(const char *key)
{
    return st_price_find(key, NULL)->value;
}

void st_cost_defaults(st_cost_cfg *c)
{
    c->node_price_usd = c->switch_price_usd = c->storage_price_usd_per_byte = -1;
    c->node_price_gpus = 0;
    c->gpu_hour_usd_per_s = -1;
    c->electricity_usd_per_j = site("electricity");
    c->storage_month_usd_per_byte = site("storage_month_price");
    c->egress_usd_per_byte = site("egress_price");
    c->demand_usd_per_w_month = site("demand_charge");
    c->maintenance_per_year = c->staff_usd_per_s = -1;
    c->pricing = ST_PRICING_ON_DEMAND;
    c->committed_gpu_hour_usd_per_s = c->commitment_s = -1;
    c->storage_bw_usd_per_bps = -1; /* a hardware price: no published default */
    c->optic_usd = c->rack_usd = -1;
    c->cooling_air_usd_per_w = c->cooling_liquid_usd_per_w = -1;
    for (int k = 0; k < ST_COST__PARTS; k++)
        c->part_from[k] = (st_price_from){ST_PRICE_ALL, NULL};
    c->amortization_s = site("amortization");
    for (int k = 0; k < ST_COST__TYPED; k++)
        c->from[k] = (st_price_from){ST_PRICE_ALL, NULL};
    c->typed = NULL;
    c->n_typed = 0;
}

/* The field of c that holds typed price k. */
static double *typed_field(st_cost_cfg *c, st_cost_key k)
{
    return k == ST_COST_NODE       ? &c->node_price_usd
           : k == ST_COST_GPU_HOUR ? &c->gpu_hour_usd_per_s
                                   : &c->committed_gpu_hour_usd_per_s;
}

void st_cost_for_gpu(const st_cost_cfg *c, const char *gpu, st_cost_cfg *out)
{
    if (out != c)
        *out = *c;
    for (int k = 0; k < ST_COST__TYPED; k++) {
        double *v = typed_field(out, (st_cost_key)k);
        const st_typed_price *t = NULL;
        for (int i = 0; gpu && i < c->n_typed && !t; i++)
            if (c->typed[i].key == (st_cost_key)k && !strcmp(c->typed[i].gpu, gpu))
                t = &c->typed[i];
        if (t) {
            *v = t->value;
            out->from[k] = (st_price_from){ST_PRICE_TYPE, t->source};
            if (k == ST_COST_NODE)
                out->node_price_gpus = 0; /* the scenario's node */
            continue;
        }
        if (c->from[k].origin == ST_PRICE_ALL && *v >= 0)
            continue; /* stated for every type */
        const st_price_row *r = gpu ? st_price_find(st_cost_key_names[k], gpu) : NULL;
        *v = r ? r->value : -1;
        out->from[k] = (st_price_from){ST_PRICE_PRESET, r ? r->source : NULL};
        if (k == ST_COST_NODE)
            out->node_price_gpus = r ? r->gpus : 0;
    }
}

double st_cost_node_price(const st_cost_cfg *c, int64_t gpus_per_node)
{
    if (!(c->node_price_usd >= 0) || c->node_price_gpus <= 0 || gpus_per_node <= 0)
        return c->node_price_usd;
    return c->node_price_usd / c->node_price_gpus * (double)gpus_per_node;
}

/* No port runs at a million Gbit/s: a rate at or above it (the loader bounds rates below only)
 * has no class, so its name stays short (at most "infiniband-999999g") and whole. */
#define CLASS_MAX_GBPS 1e6

void st_cost_switch_class(st_transport t, double port_bps, char *buf, size_t n)
{
    const char *name = (unsigned)t <= ST_TRANSPORT_OMNI_PATH ? st_transport_names[t] : "?";
    double gbps = port_bps / 1e9;
    if (gbps < CLASS_MAX_GBPS)
        snprintf(buf, n, "%s-%.0fg", name, gbps);
    else if (n > 0)
        buf[0] = '\0';
}

void st_cost_optic_class(double port_bps, char *buf, size_t n)
{
    double gbps = port_bps / 1e9;
    if (gbps < CLASS_MAX_GBPS)
        snprintf(buf, n, "%.0fg", gbps);
    else if (n > 0)
        buf[0] = '\0';
}

/* Where each part's price lives in st_cost_cfg, in st_cost_part order. */
static const size_t part_off[ST_COST__PARTS] = {
    offsetof(st_cost_cfg, switch_price_usd),
    offsetof(st_cost_cfg, optic_usd),
    offsetof(st_cost_cfg, storage_price_usd_per_byte),
    offsetof(st_cost_cfg, storage_bw_usd_per_bps),
    offsetof(st_cost_cfg, rack_usd),
    offsetof(st_cost_cfg, cooling_air_usd_per_w),
    offsetof(st_cost_cfg, cooling_liquid_usd_per_w),
};

double *st_cost_part_price(st_cost_cfg *c, st_cost_part k)
{
    return (double *)((char *)c + part_off[k]);
}

double st_cost_part_value(const st_cost_cfg *c, st_cost_part k)
{
    return *(const double *)((const char *)c + part_off[k]);
}

void st_cost_for_parts(const st_cost_cfg *c, const st_fabric_cfg *f, st_cost_cfg *out)
{
    if (out != c)
        *out = *c;
    char sw[48] = "", op[24] = "";
    if (f && f->nic_bw > 0) { /* cluster.fabric.nic is bytes/s */
        st_cost_switch_class(f->transport, f->nic_bw * 8, sw, sizeof sw);
        st_cost_optic_class(f->nic_bw * 8, op, sizeof op);
    }
    for (int k = 0; k < ST_COST__PARTS; k++) {
        double *v = st_cost_part_price(out, (st_cost_part)k);
        if (out->part_from[k].origin == ST_PRICE_ALL && *v >= 0)
            continue; /* stated */
        const char *part = k == ST_PART_SWITCH ? sw : k == ST_PART_OPTIC ? op : NULL;
        const st_price_row *r = part && !*part ? NULL : st_price_find(st_cost_part_names[k], part);
        *v = r ? r->value : -1;
        out->part_from[k] = (st_price_from){ST_PRICE_PRESET, r ? r->source : NULL};
    }
}

const char *st_cost_price_source(st_price_from from, double value)
{
    if (value < 0)
        return "not priced";
    return from.source ? from.source : "the scenario's cost: section";
}

/* Why a key has no default. */
static const char hw_price[] =
    "its price depends on the hardware bought or rented and has no published default";
static const char typed_price[] = "the preset table has no sourced price for its GPU type";
static const char site_cost[] = "it depends on the site and its contracts and has no published "
                                "default";

/* The prices a delivery model reads that have no public default, in the order they are asked
 * for: each key, its field, and why it has no default. One table for st_cost_missing and
 * st_cost_missing_all. */
typedef struct price_need {
    const char *key;
    size_t off; /* the double in st_cost_cfg; < 0 there: not stated */
    const char *why;
} price_need;

#define NEED(key, field, why)                                                                      \
    {                                                                                              \
        key, offsetof(st_cost_cfg, field), why                                                     \
    }
static const price_need ON_PREM_NEEDS[] = {
    NEED("node_price", node_price_usd, typed_price),
    NEED("switch_price", switch_price_usd, hw_price),
    NEED("maintenance", maintenance_per_year, site_cost),
    NEED("staff", staff_usd_per_s, site_cost),
};
static const price_need COMMITTED_NEEDS[] = {
    NEED("committed_gpu_hour_price", committed_gpu_hour_usd_per_s, typed_price),
    NEED("commitment", commitment_s, "a commitment's term is the buyer's choice"),
};
static const price_need HOURLY_NEEDS[] = {NEED("gpu_hour_price", gpu_hour_usd_per_s, typed_price)};
#undef NEED

/* The needs of c's delivery model, n of them. */
static const price_need *needs_of(const st_cost_cfg *c, size_t *n)
{
    if (c->delivery == ST_DELIVERY_ON_PREM)
        return *n = sizeof ON_PREM_NEEDS / sizeof *ON_PREM_NEEDS, ON_PREM_NEEDS;
    if (c->delivery == ST_DELIVERY_CLOUD && c->pricing == ST_PRICING_COMMITTED)
        return *n = sizeof COMMITTED_NEEDS / sizeof *COMMITTED_NEEDS, COMMITTED_NEEDS;
    return *n = sizeof HOURLY_NEEDS / sizeof *HOURLY_NEEDS, HOURLY_NEEDS;
}

static int unstated(const st_cost_cfg *c, const price_need *p)
{
    return *(const double *)((const char *)c + p->off) < 0;
}

const char *st_cost_missing(const st_cost_cfg *c, const char **why)
{
    size_t n;
    const price_need *p = needs_of(c, &n);
    *why = typed_price;
    for (size_t i = 0; i < n; i++)
        if (unstated(c, &p[i])) {
            *why = p[i].why;
            return p[i].key;
        }
    return NULL;
}

size_t st_cost_missing_all(const st_cost_cfg *c, const char **keys, size_t cap)
{
    size_t n, m = 0;
    const price_need *p = needs_of(c, &n);
    for (size_t i = 0; i < n && m < cap; i++)
        if (unstated(c, &p[i]))
            keys[m++] = p[i].key;
    return m;
}
