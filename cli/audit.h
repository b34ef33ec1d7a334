/* Pre-flight audit: the seed's per-level checks, computed on the model with numbers instead of
 * printing PASS without measuring. Both report writers list the same findings. */
#ifndef ST_CLI_AUDIT_H
#define ST_CLI_AUDIT_H

#include <stddef.h>

#include "cli/cli.h"

typedef enum st_audit_status { ST_AUDIT_PASS, ST_AUDIT_WARN, ST_AUDIT_FAIL } st_audit_status;

typedef struct st_audit {
    const char *level; /* plant, silicon, fabric, storage, orchestration */
    char check[64];
    st_audit_status status;
    double value, limit;
    char message[200];
} st_audit;

/* Fill out[0..cap) with findings for scenario s and its forecasts; returns how many. */
size_t st_audit_run(const st_run *r, st_audit *out, size_t cap);

const char *st_audit_status_name(st_audit_status s);

#endif
