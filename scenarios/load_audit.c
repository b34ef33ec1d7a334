/* Reads the `audit` section: the targets the pre-flight audit holds a plan to, each defaulting
 * to the figure of the enterprise AI-infrastructure guide the project follows
 * (st_audit_cfg_default, models/config/config.c). */
#include <stdlib.h>

#include "scenarios/load_internal.h"

static int by_value(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* `full_baseboard: 8` or `full_baseboard: [4, 8]`: the GPUs per node a full baseboard holds,
 * kept ascending; a size given twice is refused. */
static int fn_baseboard(st_rd *rd, const st_ynode *n, void *base)
{
    st_audit_cfg *a = base;
    if (n->kind == ST_YN_SCALAR) {
        a->n_baseboard = 1;
        return st_rd_int(rd, n, "full_baseboard", ST_R_MIN1, 1e6, &a->baseboard[0]);
    }
    if (st_rd_expect(rd, n, ST_YN_SEQ, "full_baseboard"))
        return -1;
    if (n->n == 0 || n->n > ST_AUDIT_MAX_BASEBOARDS)
        return st_rd_fail(rd, n, ST_EINVAL,
                          "full_baseboard: expected 1 to %d GPU counts per node, found %zu",
                          ST_AUDIT_MAX_BASEBOARDS, n->n);
    for (size_t i = 0; i < n->n; i++) {
        if (st_rd_int(rd, n->kids[i], "full_baseboard", ST_R_MIN1, 1e6, &a->baseboard[i]))
            return -1;
        for (size_t j = 0; j < i; j++)
            if (a->baseboard[j] == a->baseboard[i])
                return st_rd_fail(rd, n->kids[i], ST_EINVAL,
                                  "full_baseboard: %lld GPUs per node is listed twice",
                                  (long long)a->baseboard[i]);
    }
    a->n_baseboard = (int)n->n;
    qsort(a->baseboard, n->n, sizeof a->baseboard[0], by_value);
    return 0;
}

static const st_field dump_fields[] = {
    ST_FDIM(st_audit_cfg, "size", ckpt_dump_bytes, ST_DIM_BYTES, ST_R_POS),
    ST_FDIM(st_audit_cfg, "within", ckpt_dump_s, ST_DIM_TIME, ST_R_POS),
    ST_FEND,
};

static const st_field audit_fields[] = {
    ST_FMAP("checkpoint_dump", dump_fields),
    ST_FFN("full_baseboard", fn_baseboard),
    ST_FDIM(st_audit_cfg, "junction_limit", junction_limit_c, ST_DIM_TEMPERATURE, ST_R_ANY),
    ST_FDIM(st_audit_cfg, "checkpoint_write_share", ckpt_write_share, ST_DIM_RATIO, ST_R_FRAC),
    ST_FDIM(st_audit_cfg, "memory_headroom", memory_headroom, ST_DIM_RATIO, ST_R_FRAC),
    ST_FEND,
};

int st__load_audit(st_ld *ld, const st_ynode *n)
{
    st_scn *s = ld->s;
    s->audit = st_audit_cfg_default;
    s->audit.loc = n->loc;
    if (st_rd_map(&ld->rd, n, audit_fields, &s->audit, "audit"))
        return -1;
    s->has_audit = 1;
    return 0;
}
