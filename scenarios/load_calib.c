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
            .lim = &st_lim_calib_overhead),
    ST_FFN("residuals", fn_residuals),
    ST_FINT(st_calib_cfg, "steps", steps, ST_R_NONNEG, .max = 1e9),
    ST_FEND,
};

/* The version of the file `strata calibrate` writes (cli/cmd_calibrate.c): required, as a
 * scenario's is, so that a file of another format or version is refused rather than read. */
#define ST_CALIB_FILE_VERSION 1

static int fn_version(st_rd *rd, const st_ynode *n, void *base)
{
    (void)base;
    int64_t v;
    if (st_rd_int(rd, n, "version", ST_R_MIN1, 0, &v))
        return -1;
    if (v != ST_CALIB_FILE_VERSION)
        return st_rd_fail(rd, n, ST_EINVAL,
                          "unsupported calibration file version %lld; this strata reads version "
                          "%d",
                          (long long)v, ST_CALIB_FILE_VERSION);
    return 0;
}

/* One entry of `sources:`, what a term was fitted from, as strata calibrate writes it: read for
 * its keys and types only (nothing in a forecast depends on it), so a misspelt or mangled one is
 * refused where it stands. */
typedef struct source_cfg {
    int kind;
    const char *file, *op, *job;
    int64_t ranks, nodes, rows;
    double measured_s, predicted_s, calibrated_s;
} source_cfg;

static const char *const source_kinds[] = {"nccl-tests", "gemm", "step", NULL};

static const st_field source_fields[] = {
    ST_FENUM(source_cfg, "kind", kind, source_kinds, .required = 1),
    ST_FSTR(source_cfg, "file", file),
    ST_FSTR(source_cfg, "op", op),
    ST_FSTR(source_cfg, "job", job),
    ST_FINT(source_cfg, "ranks", ranks, ST_R_NONNEG, .max = ST_LIM_RANKS),
    ST_FINT(source_cfg, "nodes", nodes, ST_R_NONNEG, .max = ST_LIM_RANKS),
    ST_FINT(source_cfg, "rows", rows, ST_R_NONNEG, .max = ST_LIM_WHOLE),
    ST_FDIM(source_cfg, "measured_s", measured_s, ST_DIM_RATIO, ST_R_NONNEG, .lim = &st_lim_span),
    ST_FDIM(source_cfg, "predicted_s", predicted_s, ST_DIM_RATIO, ST_R_NONNEG, .lim = &st_lim_span),
    ST_FDIM(source_cfg, "calibrated_s", calibrated_s, ST_DIM_RATIO, ST_R_NONNEG,
            .lim = &st_lim_span),
    ST_FEND,
};

static int fn_sources(st_rd *rd, const st_ynode *n, void *base)
{
    (void)base;
    if (st_ynode_is_null(n))
        return 0; /* `sources:` with none listed */
    if (st_rd_expect(rd, n, ST_YN_SEQ, "sources"))
        return -1;
    int rc = 0;
    for (size_t i = 0; i < n->n; i++) {
        source_cfg src = {0};
        char what[32];
        snprintf(what, sizeof what, "sources[%zu]", i);
        if (st_rd_expect(rd, n->kids[i], ST_YN_MAP, what) ||
            st_rd_map(rd, n->kids[i], source_fields, &src, what))
            rc = -1;
    }
    return rc;
}

/* The file's top level: what `strata calibrate` writes. */
static const st_field file_fields[] = {
    ST_FFN("version", fn_version, .required = 1),
    ST_FFN("calibration", st_rd_skip, .required = 1),
    ST_FFN("sources", fn_sources),
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
    int rc = st__read_file(path, "calibration", &buf, &len, why, sizeof why);
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
