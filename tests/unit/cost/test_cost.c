/* The TCO arithmetic against hand calculations, one delivery model at a time
 * (docs/models/cost.md): a 1,024-GPU job on a 2,048-GPU cluster held for 30 days. */
#include <check.h>
#include <math.h>

#include "models/cost/cost.h"

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
                         .tokens = 1e12};
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
    return c;
}

/* half of 256 x 300k + 48 x 50k = 39.6 M USD, plus 2 TB at 150 USD/TB, over 30 d of 1,460 d;
 * 500 MWh at 0.10 USD/kWh = 50,000 USD. */
START_TEST(test_on_prem_amortises_its_share_and_pays_its_energy)
{
    st_cost_cfg c = prices(ST_DELIVERY_ON_PREM);
    st_cost_use u = job();
    st_cost_result r = st_cost_job(&c, &u);
    double capex = (0.5 * (256 * 300000.0 + 48 * 50000.0) + 300) * 30 / 1460;
    CLOSE(r.capex_usd, capex);
    CLOSE(r.energy_usd, 50000);
    ck_assert_double_eq(r.egress_usd, 0);
    ck_assert_double_eq(r.gpu_usd, 0);
    CLOSE(r.total_usd, capex + 50000);
    CLOSE(r.per_token_usd, (capex + 50000) / 1e12);
    CLOSE(r.per_year_usd, (capex + 50000) * 365 / 30);
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
}
END_TEST

/* Prices with no published default must be stated; those with one have it. */
START_TEST(test_unsourced_prices_are_required)
{
    st_cost_cfg c;
    st_cost_defaults(&c);
    c.delivery = ST_DELIVERY_ON_PREM;
    ck_assert_str_eq(st_cost_missing(&c), "node_price");
    c.node_price_usd = 1;
    c.switch_price_usd = 1;
    ck_assert_str_eq(st_cost_missing(&c), "storage_price");
    c.storage_price_usd_per_byte = 0;
    ck_assert_ptr_null(st_cost_missing(&c));
    c.delivery = ST_DELIVERY_CLOUD;
    ck_assert_str_eq(st_cost_missing(&c), "gpu_hour_price");
    CLOSE(c.electricity_usd_per_j * 3.6e6, 0.1107); /* EIA, Sep 2020, commercial */
    CLOSE(c.egress_usd_per_byte * 1073741824.0, 0.09);
    CLOSE(c.storage_month_usd_per_byte * 1073741824.0, 0.023);
}
END_TEST

Suite *cost_suite(void)
{
    Suite *s = suite_create("cost");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_on_prem_amortises_its_share_and_pays_its_energy);
    tcase_add_test(tc, test_bare_metal_pays_gpu_hours_and_no_egress);
    tcase_add_test(tc, test_cloud_adds_storage_months_and_egress);
    tcase_add_test(tc, test_unsourced_prices_are_required);
    suite_add_tcase(s, tc);
    return s;
}
