/* Rack cooling: the heat's split, each medium's flow and capacity, the GPUs' coolant
 * temperature, and the cooling plant's power. */
#include "models/plant/cooling.h"

static const st_plant_cooling_preset preset = {
    /* Air near 20 C: rho 1.20 kg/m^3, c_p 1.005 kJ/(kg K), about 1.2 kJ/(m^3 K); water: 1000
     * kg/m^3 times 4.184 kJ/(kg K) = 4,184 kJ/(m^3 K) (the figures the issue gives; any
     * thermodynamics table, e.g. Engineering ToolBox's air and water properties). */
    .air_rho_cp = 1.2e3,
    .water_rho_cp = 4.184e6,
    /* Air: a 20 F (11.1 K) rise across the rack, the rise high-density air sizing applies the
     * sensible-heat rule Q = 1.08 CFM dT(F) at (CoolNet, "120 kW racks demand high-density
     * cooling, not air", 2025, calling it "already aggressive"). Liquid: the Open Compute
     * Project's OAI liquid-cooling guideline sizes cold-plate loops at 1.5 L/min per kW for a
     * rise of at most 10 C (as tabulated by ProphetStor, "Why fixed-flow GPU rack cooling
     * wastes energy", 2025). */
    .air_dt_k = 20.0 / 1.8,
    .liquid_dt_k = 10.0,
    /* Air: about 30 kW per rack, where air cooling's practical limit is commonly placed (the
     * issue's figure; e.g. the direct-to-chip guides of Yobitel and Factryze: "air cooling
     * realistically tops out around 30 kW per rack"); the Uptime Institute's Global Data Center
     * Survey 2023 finds most operators have no rack beyond 20 kW. Liquid: 132 kW, the
     * liquid-cooled GB200 NVL72 rack's total (Supermicro's GB200 NVL72 datasheet). */
    .air_capacity_w = 30e3,
    .liquid_capacity_w = 132e3,
    /* The air handlers: a fan's power is V dp / eta (the fan law); we take 500 Pa (2 in. of
     * water) of total pressure and 60% fan-and-motor efficiency, a design assumption of the
     * order computer-room air handlers run at, not a measurement. */
    .fan_dp_pa = 500,
    .fan_eff = 0.6,
    /* The liquid loop: 40 psi (276 kPa), the pressure most rack pumping-unit specifications top
     * out at (ProphetStor, above, on the OCP Reservoir & Pumping Unit specification), and 70%
     * pump efficiency, a good centrifugal pump at its design point (an assumption). */
    .pump_dp_pa = 40 * 6894.757,
    .pump_eff = 0.7,
    /* The chilled water behind the air handlers' coils: ASHRAE 90.1 Appendix G (Performance
     * Rating Method), G3.1.3.8, models the baseline's chilled water at 44 F supply and 56 F
     * return (a 12 F, 6.67 K rise), and G3.1.3.10 its chilled-water pumps at 22 W per gpm of
     * flow (1 US gpm = 3.785411784 L / 60 s). It circulates whether the chiller or an
     * economizer rejects the heat, so every watt of air heat pays it. */
    .chw_dt_k = 12.0 / 1.8,
    .chw_pump_w_per_m3_s = 22.0 / (3.785411784e-3 / 60),
    /* Approaches: water 5 K below the air a coil cools (Chilldyne's 500 kW rack design: rear-door
     * air leaves at 27 C on 22 C water, "High-Power Liquid Cooling Design", 2024); the CDU's
     * plate exchanger is taken at the same 5 K. */
    .coil_approach_k = 5,
    .cdu_approach_k = 5,
    /* The chiller: COP = share * T_evap / (T_cond - T_evap). ASHRAE 90.1's minimum for an
     * air-cooled chiller of 150 tons or more is EER 10.1 (COP 2.96) at AHRI 550/590's rating
     * point, 44 F (6.7 C) leaving chilled water and 95 F (35 C) outdoor air, where Carnot gives
     * 279.8 / 28.3 = 9.88: a share of 0.30. Heat is rejected at that 35 C design point all year
     * (pessimistic in a cool climate). A scenario states another rated COP
     * (racks.cooling.chiller_cop, at the same rating point) and keeps the same lift. */
    .chiller_rated_cop = 2.96,
    .chiller_rated_carnot = 279.82 / 28.33,
    .chiller_cond_c = 35,
    /* Free cooling: ASHRAE TC 9.9's liquid-cooling classes (Thermal Guidelines for Liquid Cooled
     * Data Processing Environments, 2011, table 1): facility water up to 17 or 27 C (W1, W2)
     * needs a chiller, up to 32 C (W3) a cooling tower with a supplemental chiller, up to 45 C
     * (W4) only a water-side economizer. We run the chiller all year at or below 27 C, never at
     * or above 32 C, and the share in between linearly (our interpolation of W3). */
    .free_all_c = 32,
    .free_none_c = 27,
    .source = "thermodynamics tables; OCP OAI liquid-cooling guideline; ASHRAE 90.1 and AHRI "
              "550/590; ASHRAE 90.1 Appendix G (chilled water, pumps); ASHRAE TC 9.9 liquid "
              "classes; Supermicro GB200 NVL72",
};

const st_plant_cooling_preset *st_plant_cooling_preset_get(void)
{
    return &preset;
}

double st_plant_flow_m3_s(double q_w, double rho_cp, double dt_k)
{
    return q_w > 0 ? q_w / (rho_cp * dt_k) : 0;
}

/* The temperature a medium delivers: its supply, plus the rise of the heat it cannot remove
 * returning to it. */
static double delivered_c(double supply_c, double q_w, double cap_w, double dt_k)
{
    return q_w > cap_w && cap_w > 0 ? supply_c + dt_k * (q_w / cap_w - 1) : supply_c;
}

void st_plant_rack_cooling(const st_rack_cfg *r, double heat_w, st_plant_rack_heat *out)
{
    double f = r->cooling == ST_COOLING_LIQUID && r->liquid_fraction > 0 ? r->liquid_fraction : 0;
    double cap = r->cooling_capacity_w > 0         ? r->cooling_capacity_w
                 : r->cooling == ST_COOLING_LIQUID ? preset.liquid_capacity_w
                                                   : preset.air_capacity_w;
    *out = (st_plant_rack_heat){.heat_w = heat_w,
                                .air_w = (1 - f) * heat_w,
                                .liquid_w = f * heat_w,
                                .air_cap_w = (1 - f) * cap,
                                .liquid_cap_w = f * cap,
                                .capacity_w = cap,
                                .cooling = r->cooling};
    out->air_flow_m3_s = st_plant_flow_m3_s(out->air_w, preset.air_rho_cp, preset.air_dt_k);
    out->liquid_flow_m3_s =
        st_plant_flow_m3_s(out->liquid_w, preset.water_rho_cp, preset.liquid_dt_k);
    out->air_in_c = delivered_c(r->air_supply_c, out->air_w, out->air_cap_w, preset.air_dt_k);
    out->liquid_in_c =
        delivered_c(r->coolant_supply_c, out->liquid_w, out->liquid_cap_w, preset.liquid_dt_k);
}

/* The share of the year the chiller runs for facility water at water_c. */
static double chiller_share(double water_c)
{
    if (water_c <= preset.free_none_c)
        return 1;
    if (water_c >= preset.free_all_c)
        return 0;
    return (preset.free_all_c - water_c) / (preset.free_all_c - preset.free_none_c);
}

/* The COP of a chiller rated rated_cop at AHRI 550/590's point, producing water at water_c
 * against chiller_cond_c: its rated share of Carnot's COP at the new temperatures. */
static double chiller_cop(double rated_cop, double water_c)
{
    double te = water_c + 273.15, tc = preset.chiller_cond_c + 273.15;
    if (tc - te < 1) /* a lift under 1 K: the chiller barely works; held at that lift */
        te = tc - 1;
    return rated_cop / preset.chiller_rated_carnot * te / (tc - te);
}

void st_plant_cooling_power_of(const st_rack_cfg *r, double air_w, double liquid_w,
                               st_plant_cooling_power *out)
{
    double air_water = r->air_supply_c - preset.coil_approach_k;
    double liq_water = r->coolant_supply_c - preset.cdu_approach_k;
    double rated = r->chiller_cop > 0 ? r->chiller_cop : preset.chiller_rated_cop;
    double oversupply = r->air_oversupply > 1 ? r->air_oversupply : 1;
    *out = (st_plant_cooling_power){.air_chiller_share = chiller_share(air_water),
                                    .liquid_chiller_share = chiller_share(liq_water),
                                    .air_cop = chiller_cop(rated, air_water),
                                    .liquid_cop = chiller_cop(rated, liq_water)};
    double va = st_plant_flow_m3_s(air_w, preset.air_rho_cp, preset.air_dt_k);
    double vl = st_plant_flow_m3_s(liquid_w, preset.water_rho_cp, preset.liquid_dt_k);
    /* Running handlers at their design speed move oversupply times the flow the heat needs; the
     * surplus bypasses the racks but crosses the same fans (fan law: power in proportion to
     * flow at the same pressure). */
    out->fans_w = oversupply * va * preset.fan_dp_pa / preset.fan_eff;
    double vc = st_plant_flow_m3_s(air_w, preset.water_rho_cp, preset.chw_dt_k);
    out->chw_pumps_w = vc * preset.chw_pump_w_per_m3_s;
    double loop_w = vl * preset.pump_dp_pa / preset.pump_eff;
    out->pumps_w = loop_w + out->chw_pumps_w;
    /* Energy conservation: a fan's or a pump's work ends as heat in the stream it moves (the
     * handlers' fans sit in the air the coils cool, the pumps' work warms their water), so the
     * chiller rejects it beside the IT heat. */
    double air_load = air_w + out->fans_w + out->chw_pumps_w;
    double liquid_load = liquid_w + loop_w;
    out->chiller_w = out->air_chiller_share * air_load / out->air_cop +
                     out->liquid_chiller_share * liquid_load / out->liquid_cop;
    out->total_w = out->fans_w + out->pumps_w + out->chiller_w;
}
