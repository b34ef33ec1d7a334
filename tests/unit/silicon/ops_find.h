/* The operator suites' lookup of one operator of a layer's graph by name. */
#ifndef ST_TESTS_OPS_FIND_H
#define ST_TESTS_OPS_FIND_H

#include <check.h>
#include <string.h>

#include "models/silicon/ops.h"

static inline const st_op *find_op(const st_op *ops, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(ops[i].name, name) == 0)
            return &ops[i];
    ck_abort_msg("no operator '%s'", name);
    return NULL;
}

#endif
