/* The pre-flight audit: per-level checks computed on the forecast with numbers (a full
 * baseboard, tensor parallelism inside the NVLink domain, memory that fits with headroom, a
 * checkpoint that dumps fast enough and fits its tier, ingest that keeps up), each with the value
 * and the limit it was held to. The report writers print the findings; they judge nothing. */
#ifndef ST_MODELS_FORECAST_AUDIT_H
#define ST_MODELS_FORECAST_AUDIT_H

#include <stddef.h>

#include "models/config/config.h"
#include "models/forecast/forecast.h"

typedef enum st_audit_status { ST_AUDIT_PASS, ST_AUDIT_WARN, ST_AUDIT_FAIL } st_audit_status;

typedef struct st_audit {
    const char *level; /* plant, silicon, fabric, storage, orchestration */
    char check[64];
    st_audit_status status;
    double value, limit;
    char message[200];
} st_audit;

/* The findings for cluster c and the training forecasts f[0..n) (entries whose w is NULL are
 * skipped; the headroom check only for a plan that fits), at most 1 + 6 n of them, in report
 * order, into a malloc'd array the caller frees; their count into *count. */
st_audit *st_audit_run(const st_cluster_cfg *c, const st_forecast *f, size_t n, size_t *count);

/* "pass", "warn" or "fail". */
const char *st_audit_status_name(st_audit_status s);

#endif
