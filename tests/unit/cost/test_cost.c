/* The TCO arithmetic against hand calculations, one delivery model at a time
 * (docs/models/cost.md): a 1,024-GPU job on a 2,048-GPU cluster held for 30 days. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models/cost/cost.h"
#include "models/forecast/netpower.h"
#include "models/forecast/run.h"
#include "scenarios/scenario.h"

#define DAY 86400.0
#define CLOSE(a, b)                                                                                \
    ck_assert_double_lt(fabs((double)(a) - (double)(b)), 1e-9 * fabs((double)(b)) + 1e-9)

static st_cost_use job(void)
{
    return (st_cost_use){.gpus = 1024,
                         .cluster_gpus = 2048,
                         .cluster_nodes = 256,
                         .cluster_switch = 48,
                         .held_s = 30 * DAY,
                         .energy_j = 500e3 * 3.6e6, /* 500 MWh */
                         .stored_bytes = 2e12,
                         .egress_bytes = 1e12,
                         .tokens = 1e12,
                         .peak_w = 2e6};
}

static st_cost_cfg prices(st_delivery d)
{
    st_cost_cfg c;
    st_cost_defaults(&c);
    c.delivery = d;
    c.node_price_usd = 300000;
    c.switch_price_usd = 50000;
    c.storage_price_usd_per_byte = 150 / 1e12; /* 150 USD/TB */
    c.electricity_usd_per_j = 0.10 / 3.6e6;    /* 0.10 USD/kWh */
    c.gpu_hour_usd_per_s = 4.0 / 3600;         /* 4 USD/h */
    c.storage_month_usd_per_byte = 0.02 / 1e9;
    c.egress_usd_per_byte = 0.09 / 1e9;
    c.amortization_s = 4 * 365 * DAY;
    c.demand_usd_per_w_month = 20.0 / 1e3; /* 20 USD/kW-month */
    c.maintenance_per_year = 0.10;
    c.staff_usd_per_s = 3.65e6 / (365 * DAY); /* 3.65 M USD a year: 10,000 USD a day */
    return c;
}

/* half of 256 x 300k + 48 x 50k = 39.6 M USD, plus 2 TB at 150 USD/TB, over 30 d of 1,460 d;
 * 500 MWh at 0.10 USD/kWh = 50,000 USD. */
START_TEST(test_on_prem_amortises_its_share_and_pays_its_energy)
{
    st_cost_cfg c = prices(ST_DELIVERY_ON_PREM);
    st_cost_use u = job();
    st_cost_result r = st_cost_job(&c, &u);
    double bought = 0.5 * (256 * 300000.0 + 48 * 50000.0) + 300, capex = bought * 30 / 1460;
    /* 2 MW at 20 USD/kW-month for 720 h of 730 h months: 40,000 x 720/730 = 39,452.05 USD */
    double demand = 2000 * 20.0 * 720 / 730;
    /* 10% a year of 39,600,300 USD for 30 d: 325,482.0 USD; half of 10,000 USD/d for 30 d */
    double maint = bought * 0.10 * 30 / 365, staff = 0.5 * 10000 * 30;
    CLOSE(r.capex_usd, capex);
    CLOSE(r.energy_usd, 50000);
    CLOSE(r.demand_usd, demand);
    CLOSE(r.maintenance_usd, maint);
    CLOSE(r.staff_usd, 150000);
    ck_assert_double_eq(r.egress_usd, 0);
    ck_assert_double_eq(r.gpu_usd, 0);
    double total = capex + 50000 + demand + maint + staff;
    CLOSE(r.total_usd, total);
    CLOSE(r.per_token_usd, total / 1e12);
    CLOSE(r.per_year_usd, total * 365 / 30);
}
END_TEST

/* 1,024 GPUs x 720 h x 4 USD/h = 2,949,120 USD; nothing for storage or egress. */
START_TEST(test_bare_metal_pays_gpu_hours_and_no_egress)
{
    st_cost_cfg c = prices(ST_DELIVERY_BARE_METAL);
    st_cost_use u = job();
    st_cost_result r = st_cost_job(&c, &u);
    CLOSE(r.gpu_usd, 2949120);
    ck_assert_double_eq(r.egress_usd, 0);
    ck_assert_double_eq(r.storage_usd, 0);
    ck_assert_double_eq(r.energy_usd, 0);
    CLOSE(r.total_usd, 2949120);
}
END_TEST

/* The GPU-hours as bare metal, plus 2,000 GB for 720/730 of a month at 0.02 USD/GB-month and
 * 1,000 GB out at 0.09 USD/GB = 90 USD. */
START_TEST(test_cloud_adds_storage_months_and_egress)
{
    st_cost_cfg c = prices(ST_DELIVERY_CLOUD);
    st_cost_use u = job();
    st_cost_result r = st_cost_job(&c, &u);
    CLOSE(r.gpu_usd, 2949120);
    CLOSE(r.storage_usd, 2000 * 0.02 * 720 / 730);
    CLOSE(r.egress_usd, 90);
    CLOSE(r.total_usd, 2949120 + 2000 * 0.02 * 720 / 730 + 90);
    ck_assert_double_eq(r.demand_usd + r.maintenance_usd + r.staff_usd, 0);
}
END_TEST

/* Committed cloud GPUs: the whole term at the committed rate. A 30-day job on a one-year
 * commitment at 2.5 USD/h pays 1,024 x 8,760 h x 2.5 = 22,425,600 USD; a 400-day job pays its
 * 9,600 h: 24,576,000 USD. Storage and egress are as on demand. */
START_TEST(test_cloud_committed_pays_the_whole_term)
{
    st_cost_cfg c = prices(ST_DELIVERY_CLOUD);
    c.pricing = ST_PRICING_COMMITTED;
    c.committed_gpu_hour_usd_per_s = 2.5 / 3600;
    c.commitment_s = 365 * DAY;
    st_cost_use u = job();
    st_cost_result r = st_cost_job(&c, &u);
    CLOSE(r.gpu_usd, 22425600);
    CLOSE(r.egress_usd, 90);
    CLOSE(r.total_usd, 22425600 + 2000 * 0.02 * 720 / 730 + 90);
    u.held_s = 400 * DAY;
    CLOSE(st_cost_job(&c, &u).gpu_usd, 24576000);
    const char *why;
    c.commitment_s = -1;
    ck_assert_str_eq(st_cost_missing(&c, &why), "commitment");
    c.committed_gpu_hour_usd_per_s = -1;
    ck_assert_str_eq(st_cost_missing(&c, &why), "committed_gpu_hour_price");
}
END_TEST

/* Prices with no published default must be stated; those with one have it. */
START_TEST(test_unsourced_prices_are_required)
{
    st_cost_cfg c;
    const char *why;
    st_cost_defaults(&c);
    c.delivery = ST_DELIVERY_ON_PREM;
    ck_assert_str_eq(st_cost_missing(&c, &why), "node_price");
    c.node_price_usd = 1;
    c.switch_price_usd = 1;
    ck_assert_str_eq(st_cost_missing(&c, &why), "maintenance");
    c.maintenance_per_year = 0.05;
    ck_assert_str_eq(st_cost_missing(&c, &why), "staff");
    c.staff_usd_per_s = 0;
    ck_assert_ptr_null(st_cost_missing(&c, &why));
    c.delivery = ST_DELIVERY_CLOUD;
    ck_assert_str_eq(st_cost_missing(&c, &why), "gpu_hour_price");
    CLOSE(c.demand_usd_per_w_month * 1e3, 15);      /* NREL, Aug 2017 */
    CLOSE(c.electricity_usd_per_j * 3.6e6, 0.1107); /* EIA, Sep 2020, commercial */
    CLOSE(c.amortization_s, 5 * 365 * 86400.0);     /* Amazon 10-K for 2024 */
    CLOSE(c.egress_usd_per_byte * 1073741824.0, 0.09);
    CLOSE(c.storage_month_usd_per_byte * 1073741824.0, 0.023);
    /* storage bought: a part, its row site-wide (Pure FlashBlade//E, Mar 2023), whatever the fabric
     */
    st_cost_for_parts(&c, NULL, &c);
    CLOSE(c.storage_price_usd_per_byte * 1e12, 200);
    ck_assert_str_eq(
        st_cost_price_source(c.part_from[ST_PART_STORAGE], c.storage_price_usd_per_byte),
        "Pure Storage FlashBlade//E at launch, USD 0.20/GB, TechRadar, Mar 2023");
}
END_TEST

/* The flash a job's checkpoints wear is a cost of the site's drives: on premises it adds to
 * the total as its own part; rented, the provider's drives wear and the job pays none. */
START_TEST(test_flash_wear_counts_on_premises_only)
{
    st_cost_cfg c = prices(ST_DELIVERY_ON_PREM);
    st_cost_use u = job();
    st_cost_result base = st_cost_job(&c, &u);
    u.wear_usd = 557.0;
    st_cost_result r = st_cost_job(&c, &u);
    ck_assert_double_eq(r.wear_usd, 557.0);
    CLOSE(r.total_usd - base.total_usd, 557.0);
    st_cost_cfg cloud = prices(ST_DELIVERY_CLOUD);
    st_cost_result rc = st_cost_job(&cloud, &u);
    u.wear_usd = 0;
    ck_assert_double_eq(rc.wear_usd, 0);
    ck_assert_double_eq(rc.total_usd, st_cost_job(&cloud, &u).total_usd);
}
END_TEST

/* The parts beyond the node: 1,000 optical ports at 800 USD, 64 racks at 25,000 USD, 1 MW of
 * air and 2 MW of liquid heat rejection at 1.2 and 0.8 USD/W; half of each is the job's, written
 * off as the nodes are, and the maintenance share counts them. With none priced (the defaults)
 * the capex is the nodes', switches' and storage's alone. */
START_TEST(test_on_prem_capex_includes_each_part)
{
    st_cost_cfg c = prices(ST_DELIVERY_ON_PREM);
    st_cost_use u = job();
    st_cost_result base = st_cost_job(&c, &u);
    u.optic_ports = 1000, u.racks = 64, u.cooling_air_w = 1e6, u.cooling_liquid_w = 2e6;
    st_cost_result same = st_cost_job(&c, &u); /* bought, but not priced */
    ck_assert_double_eq(same.capex_usd, base.capex_usd);
    /* each such part says it has no price (NaN: a report's "not priced"), not 0 USD */
    ck_assert(isnan(same.capex_optics_usd) && isnan(same.capex_racks_usd) &&
              isnan(same.capex_cooling_usd));
    ck_assert_double_eq(base.capex_optics_usd + base.capex_racks_usd, 0); /* none bought */
    /* air cooling alone, bought and not priced, with no liquid bought: not priced either (it read
     * 0 USD), and the parts' sum says the same of a piece none bought */
    st_cost_use air_only = u;
    air_only.cooling_liquid_w = 0;
    ck_assert(isnan(st_cost_job(&c, &air_only).capex_cooling_usd));
    ck_assert(isnan(st_cost_part_sum(0, NAN)) && isnan(st_cost_part_sum(NAN, 0)));
    ck_assert_double_eq(st_cost_part_sum(0, 0), 0);
    ck_assert_double_eq(st_cost_part_sum(NAN, 5), 5);
    /* cooling priced in part (air, not liquid) keeps the priced share, in the part and the sum */
    st_cost_cfg air = c;
    air.cooling_air_usd_per_w = 1.2;
    st_cost_result half = st_cost_job(&air, &u);
    CLOSE(half.capex_cooling_usd, 0.5 * 1e6 * 1.2 * 30.0 / 1460);
    CLOSE(half.capex_usd, base.capex_usd + half.capex_cooling_usd);
    c.optic_usd = 800, c.rack_usd = 25000;
    c.cooling_air_usd_per_w = 1.2, c.cooling_liquid_usd_per_w = 0.8;
    st_cost_result r = st_cost_job(&c, &u);
    double w = 30.0 / 1460;
    CLOSE(r.capex_nodes_usd, 0.5 * 256 * 300000.0 * w);
    CLOSE(r.capex_switches_usd, 0.5 * 48 * 50000.0 * w);
    CLOSE(r.capex_optics_usd, 0.5 * 1000 * 800.0 * w);
    CLOSE(r.capex_racks_usd, 0.5 * 64 * 25000.0 * w);
    CLOSE(r.capex_cooling_usd, 0.5 * (1e6 * 1.2 + 2e6 * 0.8) * w);
    CLOSE(r.capex_storage_usd, 300 * w);
    CLOSE(r.capex_usd, r.capex_nodes_usd + r.capex_switches_usd + r.capex_optics_usd +
                           r.capex_storage_usd + r.capex_racks_usd + r.capex_cooling_usd);
    double extra = 0.5 * (1000 * 800.0 + 64 * 25000.0 + 1e6 * 1.2 + 2e6 * 0.8);
    CLOSE(r.capex_usd - base.capex_usd, extra * w);
    CLOSE(r.maintenance_usd - base.maintenance_usd, extra * 0.10 * 30 / 365);
    CLOSE(st_cost_bought(&c, &u), 0.5 * (256 * 300000.0 + 48 * 50000.0) + 300 + extra);
}
END_TEST

/* Through the forecast: a two-node job with a checkpoint tier, priced in the cloud and on
 * premises. The cloud pays its GPU-hours, two checkpoints' GB-months and the final checkpoint
 * out; on premises pays no egress and its plant energy at the tariff. */
static const char *scn_text =
    "version: 1\ncluster:\n  gpu: h100-sxm\n  nodes: 2\n"
    "  storage: [ { name: fs, kind: parallel-fs, read: 100 GB/s, write: 50 GB/s } ]\n"
    "workloads:\n  - { name: ft, model: llama3-8b, seq_len: 4096, global_batch: 64, gpus: 16,\n"
    "      parallel: { tp: 2, dp: 8, zero: 1 }, steps: 200,\n"
    "      checkpoint: { every: 50 steps, tier: fs } }\n";

static st_run priced(const char *cost, st_scn **s)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s%s", scn_text, cost);
    st_diag d = {0};
    ck_assert_int_eq(st_scn_load_buffer("t.yaml", buf, strlen(buf), s, &d), 0);
    st_run_spec spec = {.c = st_scn_cluster(*s),
                        .w = st_scn_workload(*s, 0),
                        .n = st_scn_workload_count(*s),
                        .sched = st_scn_sched(*s),
                        .cost = st_scn_cost(*s),
                        .seed = 1};
    st_run run;
    st_err err = {0};
    ck_assert_int_eq(st_run_forecast(&spec, &run, &err), 0);
    ck_assert_int_eq(run.has_cost, 1);
    ck_assert_int_eq(run.f[0].has_cost, 1);
    CLOSE(run.cost_total_usd, run.f[0].cost.total_usd);
    return run;
}

START_TEST(test_forecast_prices_egress_only_in_the_cloud)
{
    st_scn *s = NULL;
    st_run r = priced("cost: { delivery: cloud, gpu_hour_price: 3.6 USD/h }\n", &s);
    const st_forecast *f = &r.f[0];
    ck_assert_int_eq(f->has_ckpt, 1);
    double gb = 1073741824.0, held = f->life.wall_s;
    CLOSE(f->cost.gpu_usd, 16 * held * 0.001); /* 3.6 USD/h = 0.001 USD/s */
    CLOSE(f->cost.egress_usd, f->ckpt.size_bytes / gb * 0.09);
    CLOSE(f->cost.storage_usd, 2 * f->ckpt.size_bytes / gb * held / (730 * 3600.0) * 0.023);
    ck_assert_double_gt(f->cost.egress_usd, 0);
    st_run_release(&r);
    st_scn_free(s);
    /* Every checkpoint out: 200 steps, one every 50, the last at the end. */
    r = priced("cost: { delivery: cloud, gpu_hour_price: 3.6 USD/h, egress: checkpoints }\n", &s);
    f = &r.f[0];
    ck_assert_int_eq(f->life.checkpoints, 4);
    CLOSE(f->cost.egress_usd, 4 * f->ckpt.size_bytes / gb * 0.09);
    st_run_release(&r);
    st_scn_free(s);
    r = priced("cost: { node_price: 300000 USD, switch_price: 20000 USD, storage_price: 100 "
               "USD/TB, electricity: 0.1 USD/kWh, demand_charge: 12 USD/kW-month, "
               "maintenance: 8%, staff: 730000 USD/y }\n",
               &s);
    f = &r.f[0];
    held = f->life.wall_s;
    ck_assert_double_eq(f->cost.egress_usd, 0);
    ck_assert_double_eq(f->cost.gpu_usd, 0);
    ck_assert_int_eq(r.has_plant, 1);
    CLOSE(f->cost.energy_usd, r.plant.jobs[0].energy_j / 3.6e6 * 0.1);
    /* the one job is the whole facility's metered peak: the plant's facility figure at its peak
     * (waveform peak, transformers, UPS and cooling plant) */
    double peak = r.plant.facility_peak.total_w;
    ck_assert_double_gt(peak, r.plant.wave.peak_w + r.plant.cooling.total_w);
    ck_assert_double_gt(peak, r.plant.jobs[0].peak_w);
    CLOSE(f->cost.demand_usd, peak / 1e3 * 12 * held / (730 * 3600.0));
    CLOSE(f->cost.staff_usd, 730000 * held / (365 * 86400.0)); /* 16 of 16 GPUs */
    ck_assert_double_gt(f->cost.capex_usd, 0);
    ck_assert(isnan(f->cost.capex_optics_usd)); /* bought, not priced */
    st_run_release(&r);
    st_scn_free(s);
    /* The parts beyond the node, priced: the fabric's switch-side ports (16 NIC cables of the
     * default fabric's one leaf), the plant's racks and the heat it rejects. */
    r = priced("cost: { node_price: 300000 USD, switch_price: 20000 USD, storage_price: 100 "
               "USD/TB, maintenance: 8%, staff: 730000 USD/y, optic_price: 1000 USD, "
               "rack_price: 25000 USD, cooling_air_price: 1000 USD/kW, "
               "cooling_liquid_price: 1000 USD/kW }\n",
               &s);
    f = &r.f[0];
    double written = f->life.wall_s / (5 * 365 * 86400.0); /* the default amortization */
    int64_t ports = st_forecast_switch_ports(st_scn_cluster(s));
    ck_assert_int_ge(ports, 16);
    CLOSE(f->cost.capex_optics_usd, (double)ports * 1000 * written);
    ck_assert_int_ge(r.plant.racks, 1);
    CLOSE(f->cost.capex_racks_usd, (double)r.plant.racks * 25000 * written);
    ck_assert_double_gt(r.plant.heat.total_w, 0);
    CLOSE(f->cost.capex_cooling_usd, r.plant.heat.total_w * 1.0 * written);
    st_run_release(&r);
    st_scn_free(s);
}
END_TEST

Suite *cost_suite(void)
{
    Suite *s = suite_create("cost");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_on_prem_amortises_its_share_and_pays_its_energy);
    tcase_add_test(tc, test_bare_metal_pays_gpu_hours_and_no_egress);
    tcase_add_test(tc, test_cloud_adds_storage_months_and_egress);
    tcase_add_test(tc, test_cloud_committed_pays_the_whole_term);
    tcase_add_test(tc, test_unsourced_prices_are_required);
    tcase_add_test(tc, test_on_prem_capex_includes_each_part);
    tcase_add_test(tc, test_flash_wear_counts_on_premises_only);
    tcase_add_test(tc, test_forecast_prices_egress_only_in_the_cloud);
    suite_add_tcase(s, tc);
    return s;
}
