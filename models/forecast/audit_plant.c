/* The audit's plant checks (audit_internal.h): the racks' feeds and cooling, the facility's
 * capacities and ramp, the GPUs' junctions and the UPS, each against its limit. */
#include "models/forecast/audit_internal.h"

#include <math.h>
#include <stdio.h>

#include "models/plant/electric.h"
#include "sim/units.h"

/* st_unit_format into buf, returning buf (for one printf). */
static const char *ufmt(double v, st_dim d, char *buf, size_t n)
{
    st_unit_format(v, d, buf, n);
    return buf;
}

/* The plant level (models/plant/plant.h): the most loaded rack's line current against its
 * breaker's continuous share (NFPA 70's 80%, electric.h) and the facility's peak against its
 * stated power capacity. Left out when neither is stated. */
void st__audit_rack_power(const st_audit_in *in, const st_audit_cfg *t, audit_list *out)
{
    (void)t;
    const st_plant_result *p = in->plant;
    const st_cluster_cfg *c = in->c;
    char a[32], b[32], d[32], e[32], f[32];
    if (p && c->racks.breaker_a > 0) {
        double limit = ST_PLANT_CONTINUOUS_SHARE * c->racks.breaker_a;
        int ok = p->rack_current_a <= limit;
        st__audit_add(out, "plant", ok ? ST_AUDIT_PASS : ST_AUDIT_FAIL, p->rack_current_a, limit,
                      "rack feed against breaker");
        st__audit_say(
            out, "the most loaded rack (%s) draws %.1f A per line %s 80%% of its %.0f A breaker",
            ufmt(p->rack_peak_w, ST_DIM_POWER, a, sizeof a), p->rack_current_a,
            ok ? "within" : "over", c->racks.breaker_a);
    }
    if (p && c->facility.power_capacity_w > 0) {
        /* the facility figure (plant.h): IT, distribution, UPS, transformers and cooling plant */
        double peak = p->facility_peak.total_w;
        int ok = peak <= c->facility.power_capacity_w;
        st__audit_add(out, "plant", ok ? ST_AUDIT_PASS : ST_AUDIT_FAIL, peak,
                      c->facility.power_capacity_w, "facility peak against capacity");
        st__audit_say(
            out,
            "facility peak %s (IT and distribution %s, transformers and UPS %s, cooling %s) %s the "
            "facility's %s",
            ufmt(peak, ST_DIM_POWER, a, sizeof a),
            ufmt(p->facility_peak.it_w + p->facility_peak.distribution_w, ST_DIM_POWER, d,
                 sizeof d),
            ufmt(p->facility_peak.transformer_w + p->facility_peak.ups_w, ST_DIM_POWER, e,
                 sizeof e),
            ufmt(p->facility_peak.cooling_w, ST_DIM_POWER, f, sizeof f), ok ? "within" : "over",
            ufmt(c->facility.power_capacity_w, ST_DIM_POWER, b, sizeof b));
    }
}

/* The heat the facility rejects (plant.h st_plant_heat) against its cooling capacity, in all
 * and on its air and liquid plants, each when stated. */
void st__audit_facility_heat(const st_audit_in *in, const st_audit_cfg *t, audit_list *out)
{
    (void)t;
    const st_plant_result *p = in->plant;
    const st_facility_cfg *fc = &in->c->facility;
    if (!p)
        return;
    const struct {
        double heat, cap;
        const char *what;
    } rows[] = {
        {p->heat.total_w, fc->cooling_capacity_w, "facility heat against cooling"},
        {p->heat.air_w, fc->air_cooling_capacity_w, "heat to air against air cooling"},
        {p->heat.liquid_w, fc->liquid_cooling_capacity_w, "heat to liquid against liquid cooling"}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (!(rows[i].cap > 0))
            continue;
        char a[32], b[32];
        int ok = rows[i].heat <= rows[i].cap;
        st__audit_add(out, "plant", ok ? ST_AUDIT_PASS : ST_AUDIT_FAIL, rows[i].heat, rows[i].cap,
                      "%s", rows[i].what);
        st__audit_say(out, "%s to reject %s the facility's %s",
                      ufmt(rows[i].heat, ST_DIM_POWER, a, sizeof a), ok ? "within" : "over",
                      ufmt(rows[i].cap, ST_DIM_POWER, b, sizeof b));
    }
}

/* The facility's steepest millisecond change against facility.ramp_limit, when stated. */
void st__audit_ramp(const st_audit_in *in, const st_audit_cfg *t, audit_list *out)
{
    (void)t;
    const st_plant_result *p = in->plant;
    double limit = in->c->facility.ramp_limit_w_per_s;
    if (!p || !(limit > 0))
        return;
    int ok = p->wave.ramp_w_per_s <= limit;
    char a[32], b[32], d[32];
    st__audit_add(out, "plant", ok ? ST_AUDIT_PASS : ST_AUDIT_FAIL, p->wave.ramp_w_per_s, limit,
                  "power ramp (di/dt)");
    st__audit_say(out, "%s/s (a swing of %s at %.3g Hz) %s the %s/s limit",
                  ufmt(p->wave.ramp_w_per_s, ST_DIM_POWER, a, sizeof a),
                  ufmt(p->wave.swing_w, ST_DIM_POWER, b, sizeof b), p->wave.dominant_hz,
                  ok ? "within" : "over", ufmt(limit, ST_DIM_POWER, d, sizeof d));
}

/* A UPS loaded past ups_load_warn of its rating is warned of. It is a margin the project sets,
 * not a vendor's figure: the load the report gives is the window's mean, so a unit near its
 * rating has its peaks, a restart after a failure or one more job above it, and runs on its
 * overload capability (time-limited) or transfers to bypass. 80% leaves a quarter's growth. */
static const double ups_load_warn = 0.80;

/* The UPS's mean load on each system (ups.h) against its stated facility.ups.rating: over 100%
 * it cannot carry the facility (fail), over ups_load_warn it has no margin (warn). Left out for
 * an unstated rating, which is sized to the peak. */
void st__audit_ups(const st_audit_in *in, const st_audit_cfg *t, audit_list *out)
{
    (void)t;
    const st_plant_result *p = in->plant;
    if (!p || !(in->c->facility.ups.rating_w > 0))
        return;
    const st_plant_ups *u = &p->ups;
    st_audit_status st = u->load > 1               ? ST_AUDIT_FAIL
                         : u->load > ups_load_warn ? ST_AUDIT_WARN
                                                   : ST_AUDIT_PASS;
    char a[32];
    st__audit_add(out, "plant", st, u->load, 1, "UPS load against rating");
    st__audit_say(out, "mean load %.4g%% of the %s rating%s%s", u->load * 100,
                  ufmt(u->rating_w, ST_DIM_POWER, a, sizeof a),
                  u->systems == 2 ? " on each of two systems (2n)" : "",
                  st == ST_AUDIT_FAIL   ? ": over it, the UPS cannot carry the facility"
                  : st == ST_AUDIT_WARN ? ": above 80%, no margin for the peaks"
                                        : "");
}

/* The rack with the most heat for its capacity (cooling.h): heat past it is not removed and
 * warms the GPUs' coolant. */
void st__audit_cooling(const st_audit_in *in, const st_audit_cfg *t, audit_list *out)
{
    (void)t;
    const st_plant_result *p = in->plant;
    if (!p)
        return;
    const st_plant_rack_heat *h = &p->rack_heat;
    int ok = h->heat_w <= h->capacity_w;
    /* the heat is the rack's mean draw, what cooling removes: a rack whose step peak passes its
     * own rating has no margin for it, a warning (its peak and its capacity, the same rack's) */
    int peaks = ok && p->rack_peak_over_w > 0;
    char a[32], b[32], c[32], peak[160] = "";
    st__audit_add(out, "plant",
                  !ok     ? ST_AUDIT_FAIL
                  : peaks ? ST_AUDIT_WARN
                          : ST_AUDIT_PASS,
                  h->heat_w, h->capacity_w, "rack heat against cooling");
    if (peaks)
        snprintf(peak, sizeof peak,
                 "; a rack's peak draw, %s, is above its own %s of cooling: no margin for its "
                 "peaks",
                 ufmt(p->rack_peak_over_w, ST_DIM_POWER, a, sizeof a),
                 ufmt(p->rack_peak_over_cap_w, ST_DIM_POWER, c, sizeof c));
    st__audit_say(out,
                  "the rack nearest its cooling limit gives %s of heat%s to %s of %s cooling%s%s",
                  ufmt(h->heat_w, ST_DIM_POWER, a, sizeof a), peaks ? " on average" : "",
                  ufmt(h->capacity_w, ST_DIM_POWER, b, sizeof b), st_cooling_kind_names[h->cooling],
                  ok ? "" : ": the excess warms its coolant", peak);
}

/* The hottest GPU junction (thermal.h) against audit.junction_limit. */
void st__audit_junction(const st_audit_in *in, const st_audit_cfg *t, audit_list *out)
{
    const st_plant_result *p = in->plant;
    if (!p || !p->n_jobs)
        return;
    int ok = p->max_junction_c <= t->junction_limit_c;
    st__audit_add(out, "plant", ok ? ST_AUDIT_PASS : ST_AUDIT_FAIL, p->max_junction_c,
                  t->junction_limit_c, "junction temperature");
    st__audit_say(out,
                  "hottest GPU junction %.4g C against the %.4g C limit; %.4g%% of the jobs' GPUs "
                  "throttled",
                  p->max_junction_c, t->junction_limit_c, p->throttle_fraction * 100);
}
