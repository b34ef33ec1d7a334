/* A rack's cooling: how its heat splits between air and the liquid loop, the flow each medium
 * needs (Q = rho * c_p * V * dT), the heat against each medium's capacity and the coolant
 * temperature the GPUs then see, and the cooling plant's power (fans, pumps, chiller) behind
 * it. Every constant is in one preset table with its source (cooling.c); docs/models/plant.md
 * has the equations. */
#ifndef ST_MODELS_PLANT_COOLING_H
#define ST_MODELS_PLANT_COOLING_H

#include "models/config/config.h"

/* The cooling model's constants (cooling.c has the source of each). */
typedef struct st_plant_cooling_preset {
    double air_rho_cp, water_rho_cp; /* volumetric heat capacity, J/(m^3 K) */
    double air_dt_k, liquid_dt_k;    /* design temperature rise of each medium across a rack */
    double air_capacity_w;           /* an air-cooled rack's capacity when none is stated */
    double liquid_capacity_w;        /* a liquid-cooled rack's capacity when none is stated */
    double fan_dp_pa, fan_eff;       /* the air handlers' total pressure rise and efficiency */
    double pump_dp_pa, pump_eff;     /* the liquid loop's pressure drop and pump efficiency */
    double chw_dt_k;                 /* the air handlers' chilled-water rise, supply to return */
    double chw_pump_w_per_m3_s;      /* the chilled-water pumps' power per unit of flow */
    double coil_approach_k;          /* chilled water below the air it cools */
    double cdu_approach_k;           /* facility water below the rack's coolant */
    double chiller_rated_cop;        /* the chiller's COP at AHRI 550/590's rating point */
    double chiller_rated_carnot;     /* Carnot's COP at that rating point */
    double chiller_cond_c;           /* the chiller's heat-rejection (condensing) temperature */
    double free_all_c, free_none_c;  /* facility water at or above free_all_c needs no chiller,
                                        at or below free_none_c a chiller all year */
    const char *source;
} st_plant_cooling_preset;

const st_plant_cooling_preset *st_plant_cooling_preset_get(void);

/* The flow, m^3/s, that carries heat q_w at a rise of dt_k in a medium of volumetric heat
 * capacity rho_cp (J/(m^3 K)): V = Q / (rho c_p dT). */
double st_plant_flow_m3_s(double q_w, double rho_cp, double dt_k);

/* One rack's heat against its cooling. */
typedef struct st_plant_rack_heat {
    double heat_w;                          /* all of it: the rack's wall power */
    double air_w, liquid_w;                 /* the share each medium takes */
    double air_cap_w, liquid_cap_w;         /* what each can remove at its design rise */
    double capacity_w;                      /* the two together */
    double air_flow_m3_s, liquid_flow_m3_s; /* the flow each needs at its design rise */
    double air_in_c, liquid_in_c;           /* the temperature each delivers to the GPUs */
    st_cooling_kind cooling;                /* the rack's cooling kind (racks by pool differ) */
} st_plant_rack_heat;

/* The cooling of rack r (kind, liquid_fraction, capacity, supply temperatures) carrying heat_w.
 * The liquid loop takes liquid_fraction of the heat (0 on air); the capacity (the stated one, or
 * the preset's for the kind) splits the same way. Each medium's flow is sized for its capacity
 * at its design rise; heat past the capacity is carried at a higher rise, and that excess
 * returns to the medium's supply (hot-air recirculation, a warmer coolant loop), so the GPUs'
 * coolant is supply + dT_design * max(0, Q / Q_cap - 1). */
void st_plant_rack_cooling(const st_rack_cfg *r, double heat_w, st_plant_rack_heat *out);

/* The cooling plant's electric power, W, for racks r of these totals: the air handlers' fans
 * (V dp / eta for the air flow, times r->air_oversupply when the handlers over-supply it), the
 * pumps (the liquid loop's, likewise for its flow, plus the chilled-water pumps behind the air
 * handlers' coils at W per unit of chilled-water flow), and the chiller (heat / COP for the share
 * the facility water cannot reject free, the heat including the fans' and pumps' own work; its
 * COP is r->chiller_cop, or the preset's when 0, scaled to the water's lift). See cooling.c. */
typedef struct st_plant_cooling_power {
    double fans_w, pumps_w, chiller_w, total_w;
    double chw_pumps_w;                             /* the chilled-water pumps' part of pumps_w */
    double air_chiller_share, liquid_chiller_share; /* 0 = free cooling, 1 = chiller all year */
    double air_cop, liquid_cop;
} st_plant_cooling_power;

void st_plant_cooling_power_of(const st_rack_cfg *r, double air_w, double liquid_w,
                               st_plant_cooling_power *out);

#endif
