/* cluster.calibration: the cluster's own efficiency terms (models/config/config.h st_calib_cfg),
 * written inline or as the path of the file `strata calibrate -o` wrote (its `calibration:`
 * mapping, beside `version` and the `sources` it was fitted from), read by the same field rows
 * either way, so a bad value is located in whichever file holds it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/config/limits.h"
#include "models/silicon/gpu.h"
#include "scenarios/load_internal.h"
#include "sim/xalloc.h"

static int fn_residuals(st_rd *rd, const st_ynode *n, void *base)
{
    st_calib_cfg *c = base;
    if (st_rd_expect(rd, n, ST_YN_SEQ, "residuals") ||
        st_rd_list_limit(rd, n, "residuals", ST_CALIB_MAX_RESIDUALS))
        return -1;
    c->n_residuals = (int)n->n;
    for (size_t i = 0; i < n->n; i++)
        if (st_rd_dim_lim(rd, n->kids[i], "residuals", ST_DIM_RATIO, ST_R_POS, &st_lim_calib_ratio,
                          &c->residuals[i]))
            return -1;
    return 0;
}

static const st_field calib_fields[] = {
    ST_FSTR(st_calib_cfg, "gpu", gpu, .required = 1),
    ST_FDIM(st_calib_cfg, "compute_bf16", compute_bf16, ST_DIM_RATIO, ST_R_POS,
            .lim = &st_lim_calib),
    ST_FDIM(st_calib_cfg, "compute_fp8", compute_fp8, ST_DIM_RATIO, ST_R_POS, .lim = &st_lim_calib),
    ST_FDIM(st_calib_cfg, "nvlink", nvlink, ST_DIM_RATIO, ST_R_POS, .lim = &st_lim_calib),
    ST_FDIM(st_calib_cfg, "network", network, ST_DIM_RATIO, ST_R_POS, .lim = &st_lim_calib),
    ST_FDIM(st_calib_cfg, "latency", latency_s, ST_DIM_TIME, ST_R_NONNEG, .lim = &st_lim_latency),
    ST_FDIM(st_calib_cfg, "step_overhead", step_overhead_s, ST_DIM_TIME, ST_R_NONNEG,
            .lim = &st_lim_span),
    ST_FFN("residuals", fn_residuals),
    ST_FINT(st_calib_cfg, "steps", steps, ST_R_NONNEG, .max = 1e9),
    ST_FEND,
};

/* The file's top level: what `strata calibrate` writes. */
static const st_field file_fields[] = {
    ST_FFN("version", st_rd_skip),
    ST_FFN("calibration", st_rd_skip, .required = 1),
    ST_FFN("sources", st_rd_skip),
    ST_FEND,
};

/* The calibration file at n's path (relative paths start at the scenario's folder). */
static int read_file(st_ld *ld, const st_ynode *n, st_calib_cfg *c)
{
    st_rd *rd = &ld->rd;
    char path[4096], why[256], *buf = NULL;
    size_t len = 0;
    int plen = n->text[0] == '/' ? snprintf(path, sizeof path, "%s", n->text)
                                 : snprintf(path, sizeof path, "%s/%s", ld->s->dir, n->text);
    if (plen < 0 || (size_t)plen >= sizeof path)
        return st_rd_fail(rd, n, ST_ELIMIT, "calibration file path is longer than %zu bytes",
                          sizeof path - 1);
    int rc = st__read_file(path, &buf, &len, why, sizeof why);
    if (rc)
        return st_rd_fail(rd, n, rc, "calibration file '%s': %s", n->text, why);
    c->file = st_rd_strdup(rd, path);
    st_ytree *t = NULL;
    st_err err = {0};
    rc = st_ytree_parse(c->file, buf, len, &t, &err);
    free(buf);
    if (rc) {
        st_diag_add(rd->diag, rc, err.loc, "%s", err.msg);
        return -1;
    }
    const st_ynode *root = st_ytree_root(t), *cal = st_ynode_get(root, "calibration");
    if (!root) {
        st_ytree_free(t);
        return st_rd_fail(rd, n, ST_EINVAL,
                          "calibration file '%s' is empty: expected the calibration: mapping "
                          "strata calibrate writes",
                          n->text);
    }
    rc = st_rd_map(rd, root, file_fields, NULL, "the calibration file");
    if (!rc && st_rd_expect(rd, cal, ST_YN_MAP, "calibration"))
        rc = -1;
    if (!rc) {
        c->loc = cal->loc;
        rc = st_rd_map(rd, cal, calib_fields, c, "calibration");
    }
    st_ytree_free(t);
    return rc;
}

int st__fn_calibration(st_rd *rd, const st_ynode *n, void *base)
{
    st_calib_cfg *c = &((st_cluster_cfg *)base)->calib;
    memset(c, 0, sizeof *c);
    c->enabled = 1;
    c->loc = n->loc;
    if (n->kind == ST_YN_SCALAR)
        return read_file(st__ld(rd), n, c) ? (c->enabled = 0, -1) : 0;
    if (st_rd_expect(rd, n, ST_YN_MAP, "cluster.calibration") ||
        st_rd_map(rd, n, calib_fields, c, "cluster.calibration")) {
        c->enabled = 0;
        return -1;
    }
    return 0;
}

int st__check_calibration(st_ld *ld, const st_cluster_cfg *c)
{
    const st_calib_cfg *k = &c->calib;
    if (!k->enabled || !c->gpu || !k->gpu || strcmp(k->gpu, c->gpu->name) == 0)
        return 0;
    return st_diag_add(ld->rd.diag, ST_EINVAL, k->loc,
                       "cluster.calibration was fitted on %s, but the cluster's GPU is %s: a "
                       "calibration holds one GPU type's measurements (fit one for %s with "
                       "strata calibrate)",
                       k->gpu, c->gpu->name, c->gpu->name);
}
