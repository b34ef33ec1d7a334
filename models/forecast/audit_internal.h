/* The audit's checks split by level behind one findings list (models/forecast/audit.c holds
 * the list, the checks table and the silicon, storage and orchestration checks;
 * audit_plant.c the plant's). Not part of the audit's interface: audit.h is. */
#ifndef ST_MODELS_FORECAST_AUDIT_INTERNAL_H
#define ST_MODELS_FORECAST_AUDIT_INTERNAL_H

#include "models/forecast/audit.h"

/* The findings so far; grows as checks add to it. A check's name and message hold the names a
 * user gave (workloads, tiers), of any length, so they are whole texts kept in `text`, a finding
 * holding their offsets (at[2i], at[2i + 1]) until st_audit_run makes them pointers. */
typedef struct audit_list {
    st_audit *items;
    size_t n, cap;
    size_t *at, at_cap;
    char *text;
    size_t len, text_cap;
} audit_list;

/* Append a finding whose check is the text check_fmt makes (a name in st_audit_checks, or one
 * with ": JOB"); its message is empty until st__audit_say. */
#if defined(__GNUC__)
__attribute__((format(printf, 6, 7)))
#endif
void st__audit_add(audit_list *out, const char *level, st_audit_status st, double value,
                   double limit, const char *check_fmt, ...);

/* The message of the finding added last. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void st__audit_say(audit_list *out, const char *fmt, ...);

/* The plant's checks (audit_plant.c), each once after the jobs. */
void st__audit_rack_power(const st_audit_in *in, const st_audit_cfg *t, audit_list *out);
void st__audit_facility_heat(const st_audit_in *in, const st_audit_cfg *t, audit_list *out);
void st__audit_ramp(const st_audit_in *in, const st_audit_cfg *t, audit_list *out);
void st__audit_cooling(const st_audit_in *in, const st_audit_cfg *t, audit_list *out);
void st__audit_junction(const st_audit_in *in, const st_audit_cfg *t, audit_list *out);
void st__audit_ups(const st_audit_in *in, const st_audit_cfg *t, audit_list *out);

#endif
