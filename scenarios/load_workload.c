/* Reads `workloads`: kind, model (through load_model.c), parallel plan, checkpoint and data
 * settings, and the checks that tie them to the cluster. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/fabric/collective.h"
#include "models/fabric/nccl.h"
#include "models/silicon/llm.h"
#include "models/silicon/plan_check.h"
#include "scenarios/catalog.h"
#include "scenarios/load_internal.h"
#include "sim/xalloc.h"

/* ---- model ------------------------------------------------------------------------------ */

static int fn_model(st_rd *rd, const st_ynode *n, void *base)
{
    st_workload_cfg *w = base;
    w->model_loc = n->loc;
    w->model = st__read_model(st__ld(rd), n, "model");
    return w->model ? 0 : -1;
}

/* ---- parallel plan, checkpoint, data ---------------------------------------------------- */

static int fn_microbatch(st_rd *rd, const st_ynode *n, void *base)
{
    st_parallel_cfg *p = base;
    if (n->kind == ST_YN_SCALAR && strcmp(n->text, "auto") == 0) {
        p->microbatch = 0;
        return 0;
    }
    return st_rd_int(rd, n, "microbatch", ST_R_MIN1, 1e6, &p->microbatch);
}

/* Gradient precision: index 0 is fp32 (Megatron-LM's default with --bf16), 1 is bf16. */
static const char *const grad_reduce_names[] = {"fp32", "bf16", NULL};

/* Gradient accumulation: index 0 fused into the GEMM (Megatron), 1 a separate pass. */
static const char *const grad_accum_names[] = {"fused", "separate", NULL};

static const st_field parallel_fields[] = {
    ST_FINT(st_parallel_cfg, "tp", tp, ST_R_MIN1, .max = 1e6),
    ST_FINT(st_parallel_cfg, "cp", cp, ST_R_MIN1, .max = 1e6),
    ST_FINT(st_parallel_cfg, "pp", pp, ST_R_MIN1, .max = 1e6),
    ST_FINT(st_parallel_cfg, "dp", dp, ST_R_MIN1, .max = 1e9),
    ST_FINT(st_parallel_cfg, "zero", zero, ST_R_NONNEG, .max = 3),
    ST_FFN("microbatch", fn_microbatch),
    ST_FINT(st_parallel_cfg, "virtual_stages", virtual_stages, ST_R_MIN1, .max = 1e4),
    ST_FBOOL(st_parallel_cfg, "sequence_parallel", sequence_parallel),
    ST_FBOOL(st_parallel_cfg, "overlap_grad_reduce", overlap_grad_reduce),
    ST_FBOOL(st_parallel_cfg, "overlap_p2p", overlap_p2p),
    ST_FBOOL(st_parallel_cfg, "overlap_param_gather", overlap_param_gather),
    ST_FENUM(st_parallel_cfg, "recompute", recompute, st_recompute_names),
    ST_FENUM(st_parallel_cfg, "grad_reduce", grad_bf16, grad_reduce_names),
    ST_FENUM(st_parallel_cfg, "grad_collective", grad_collective, st_grad_coll_names),
    ST_FENUM(st_parallel_cfg, "grad_accum", grad_accum_separate, grad_accum_names),
    ST_FEND,
};

static int fn_tier(st_rd *rd, const st_ynode *n, int *out)
{
    st_ld *ld = st__ld(rd);
    const st_cluster_cfg *c = &ld->s->cluster;
    if (st_rd_expect(rd, n, ST_YN_SCALAR, "tier"))
        return -1;
    const char *names[64];
    for (int i = 0; i < c->n_tiers; i++) {
        if (strcmp(c->tiers[i].name, n->text) == 0) {
            *out = i;
            return 0;
        }
        if (i < 64)
            names[i] = c->tiers[i].name;
    }
    if (!c->n_tiers)
        return st_rd_fail(rd, n, ST_ENOTFOUND,
                          "unknown storage tier '%s': cluster.storage defines no tiers", n->text);
    return st__unknown_name(ld, n, "storage tier", names, c->n_tiers < 64 ? c->n_tiers : 64,
                            " (tiers are named under cluster.storage)");
}

/* every: a time ("30 min"), a step count ("500 steps") or "auto" (Young-Daly optimum). */
static int fn_every(st_rd *rd, const st_ynode *n, void *base)
{
    st_ckpt_cfg *c = base;
    if (st_rd_expect(rd, n, ST_YN_SCALAR, "every"))
        return -1;
    if (strcmp(n->text, "auto") == 0) {
        c->every_auto = 1;
        return 0;
    }
    /* "N steps": the number goes through the same locale-free parser as every other value. */
    const char *sp = strrchr(n->text, ' ');
    if (sp && (strcmp(sp + 1, "steps") == 0 || strcmp(sp + 1, "step") == 0)) {
        char num[64], why[200];
        double v;
        snprintf(num, sizeof num, "%.*s", (int)(sp - n->text), n->text);
        if (st_unit_parse(num, ST_DIM_COUNT, &v, why, sizeof why) || v < 1 || v != floor(v) ||
            v > 1e15)
            return st_rd_fail(rd, n, ST_ERANGE,
                              "every: a step count must be a whole number of at least 1, "
                              "found '%s'",
                              n->text);
        c->every_steps = (int64_t)v;
        return 0;
    }
    /* A time goes to the unit parser, which suggests spellings ("30 mins"); anything that is
     * not even a number gets the list of accepted forms. */
    st_dim d = st_unit_sniff(n->text);
    int numeric = strchr("0123456789.+-", n->text[0]) != NULL && n->text[0] != '\0';
    if (!numeric || (d != ST_DIM_TIME && d != ST_DIM__COUNT))
        return st_rd_fail(rd, n, ST_EINVAL,
                          "every: expected a time such as '30 min', a step count such as "
                          "'500 steps', or 'auto', found '%s'",
                          n->text);
    return st_rd_dim(rd, n, "every", ST_DIM_TIME, ST_R_POS, 0, &c->every_s);
}

static int fn_ckpt_tier(st_rd *rd, const st_ynode *n, void *base)
{
    return fn_tier(rd, n, &((st_ckpt_cfg *)base)->tier);
}

static int fn_data_tier(st_rd *rd, const st_ynode *n, void *base)
{
    return fn_tier(rd, n, &((st_data_cfg *)base)->tier);
}

static const st_field ckpt_fields[] = {
    ST_FFN("every", fn_every, .required = 1),
    ST_FENUM(st_ckpt_cfg, "mode", mode, st_ckpt_mode_names),
    ST_FFN("tier", fn_ckpt_tier, .required = 1),
    ST_FEND,
};

/* scenario-format.md writes `bytes_per_token: 4`: a plain number of bytes, or with a unit. */
static int fn_bytes_per_token(st_rd *rd, const st_ynode *n, void *base)
{
    int bare =
        n->kind == ST_YN_SCALAR && st_unit_sniff(n->text) == ST_DIM_RATIO && !strchr(n->text, '%');
    st_dim d = bare ? ST_DIM_RATIO : ST_DIM_BYTES;
    return st_rd_dim(rd, n, "bytes_per_token", d, ST_R_POS, 0,
                     &((st_data_cfg *)base)->bytes_per_token);
}

static const st_field data_fields[] = {
    ST_FFN("tier", fn_data_tier, .required = 1),
    ST_FFN("bytes_per_token", fn_bytes_per_token),
    ST_FEND,
};

static int fn_parallel(st_rd *rd, const st_ynode *n, void *base)
{
    st_parallel_cfg *p = &((st_workload_cfg *)base)->parallel;
    p->loc = n->loc;
    return st_rd_map(rd, n, parallel_fields, p, "parallel");
}

static int fn_checkpoint(st_rd *rd, const st_ynode *n, void *base)
{
    st_ckpt_cfg *c = &((st_workload_cfg *)base)->checkpoint;
    c->loc = n->loc;
    c->enabled = 1;
    return st_rd_map(rd, n, ckpt_fields, c, "checkpoint");
}

static int fn_data(st_rd *rd, const st_ynode *n, void *base)
{
    st_data_cfg *d = &((st_workload_cfg *)base)->data;
    d->loc = n->loc;
    d->enabled = 1;
    return st_rd_map(rd, n, data_fields, d, "data");
}

static int fn_gpus(st_rd *rd, const st_ynode *n, void *base)
{
    st_workload_cfg *w = base;
    w->gpus_loc = n->loc;
    return st_rd_int(rd, n, "gpus", ST_R_MIN1, 1e9, &w->gpus);
}

static int fn_kind(st_rd *rd, const st_ynode *n, void *base)
{
    return st_rd_enum(rd, n, "workload kind", st_workload_kind_names,
                      (int *)&((st_workload_cfg *)base)->kind);
}

/* The enums of models/fabric/collective.h, by the names its lists give them. */
static const char *const coll_op_names[] = {ST_COLL_OPS(ST_COLL_NAME) NULL};
static const char *const coll_algo_names[] = {ST_COLL_ALGOS(ST_COLL_NAME) NULL};
static const char *const coll_proto_names[] = {ST_COLL_PROTOS(ST_COLL_NAME) NULL};

static int coll_enum(st_rd *rd, const st_ynode *n, const char *what, const char *const *names,
                     int *out)
{
    if (st_rd_expect(rd, n, ST_YN_SCALAR, what))
        return -1;
    return st_rd_enum(rd, n, what, names, out);
}

static int fn_op(st_rd *rd, const st_ynode *n, void *base)
{
    return coll_enum(rd, n, "collective op", coll_op_names, &((st_collective_cfg *)base)->op);
}
static int fn_algo(st_rd *rd, const st_ynode *n, void *base)
{
    return coll_enum(rd, n, "collective algorithm", coll_algo_names,
                     &((st_collective_cfg *)base)->algo);
}
static int fn_proto(st_rd *rd, const st_ynode *n, void *base)
{
    return coll_enum(rd, n, "NCCL protocol", coll_proto_names, &((st_collective_cfg *)base)->proto);
}

static const st_field collective_fields[] = {
    ST_FFN("op", fn_op, .required = 1),
    ST_FFN("algo", fn_algo),
    ST_FFN("protocol", fn_proto),
    ST_FINT(st_collective_cfg, "channels", channels, ST_R_NONNEG, .max = ST_COLL_MAX_CHANNELS),
    ST_FBOOL(st_collective_cfg, "lockstep", lockstep),
    ST_FDIM(st_collective_cfg, "size", size_bytes, ST_DIM_BYTES, ST_R_NONNEG, .required = 1),
    ST_FINT(st_collective_cfg, "iterations", iterations, ST_R_MIN1, .max = 1e6),
    ST_FEND,
};

static int fn_collective(st_rd *rd, const st_ynode *n, void *base)
{
    st_collective_cfg *c = &((st_workload_cfg *)base)->collective;
    c->loc = n->loc;
    return st_rd_map(rd, n, collective_fields, c, "collective");
}

static const st_field workload_fields[] = {
    ST_FSTR(st_workload_cfg, "name", name),
    ST_FFN("kind", fn_kind),
    ST_FFN("model", fn_model),
    ST_FFN("collective", fn_collective),
    ST_FINT(st_workload_cfg, "seq_len", seq_len, ST_R_MIN1, .max = 1e8),
    ST_FINT(st_workload_cfg, "global_batch", global_batch, ST_R_MIN1, .max = 1e9),
    ST_FENUM(st_workload_cfg, "precision", precision, st_precision_names),
    ST_FENUM(st_workload_cfg, "fp8_recipe", fp8_recipe, st_fp8_recipe_names),
    ST_FBOOL(st_workload_cfg, "fp8_param_gather", fp8_param_gather),
    ST_FENUM(st_workload_cfg, "attention", attention, st_attention_names),
    ST_FFN("gpus", fn_gpus),
    ST_FFN("parallel", fn_parallel),
    ST_FINT(st_workload_cfg, "steps", steps, ST_R_MIN1, .max = 1e15),
    ST_FDIM(st_workload_cfg, "tokens", tokens, ST_DIM_COUNT, ST_R_POS),
    ST_FDIM(st_workload_cfg, "submit", submit_s, ST_DIM_TIME, ST_R_NONNEG),
    ST_FSTR(st_workload_cfg, "tenant", tenant),
    ST_FINT(st_workload_cfg, "priority", priority, ST_R_ANY, .max = 1e9),
    ST_FFN("checkpoint", fn_checkpoint),
    ST_FFN("data", fn_data),
    ST_FEND,
};

/* The workload checks below name the key whose value is wrong (or the workload mapping when
 * the key is absent). */
static const st_ynode *key_or(const st_ynode *map, const char *key)
{
    const st_ynode *v = st_ynode_get(map, key);
    return v ? v : map;
}

static int plan_fail(st_ld *ld, const st_ynode *at, const st_workload_cfg *w, const char *fmt,
                     long long a, long long b)
{
    char msg[200];
    snprintf(msg, sizeof msg, fmt, a, b);
    return st_rd_fail(&ld->rd, at, ST_EINVAL, "workload '%s': %s", w->name, msg);
}

/* The collective model's rules for this workload's op, algo, protocol and GPU count, located
 * at the key the model blames. */
static int check_collective_rules(st_ld *ld, const st_ynode *n, const st_workload_cfg *w)
{
    const st_collective_cfg *cc = &w->collective;
    st_coll_field field;
    st_err err = {0};
    if (st_coll_check(&ld->s->cluster, (st_coll_op)cc->op, (st_coll_algo)cc->algo,
                      (st_coll_proto)cc->proto, w->gpus, &field, &err) == 0)
        return 0;
    const st_ynode *coll = st_ynode_get(n, "collective");
    const st_ynode *at = field == ST_COLL_FIELD_ALGO    ? key_or(coll, "algo")
                         : field == ST_COLL_FIELD_PROTO ? key_or(coll, "protocol")
                                                        : key_or(n, "gpus");
    return st_rd_fail(&ld->rd, at, ST_EINVAL, "workload '%s': %s", w->name, err.msg);
}

/* A collective workload: its own section, its GPUs inside the cluster, and none of the
 * training keys (they would be silently meaningless). */
static int derive_collective(st_ld *ld, const st_ynode *n, st_workload_cfg *w)
{
    static const char *const training_only[] = {
        "model",     "seq_len",  "global_batch", "precision", "fp8_recipe", "fp8_param_gather",
        "attention", "parallel", "steps",        "tokens",    "checkpoint", "data",
        NULL};
    for (int i = 0; training_only[i]; i++)
        if (st_ynode_get(n, training_only[i]))
            return st_rd_fail(&ld->rd, st_ynode_get(n, training_only[i]), ST_EINVAL,
                              "workload '%s': '%s' does not apply to kind: collective", w->name,
                              training_only[i]);
    if (!st_ynode_get(n, "collective"))
        return st_rd_fail(&ld->rd, n, ST_EINVAL,
                          "workload '%s': kind: collective needs a 'collective' mapping", w->name);
    if (!w->gpus)
        return st_rd_fail(&ld->rd, n, ST_EINVAL, "workload '%s': missing required key 'gpus'",
                          w->name);
    const st_cluster_cfg *c = &ld->s->cluster;
    if (w->gpus > c->nodes * c->gpus_per_node)
        return plan_fail(ld, key_or(n, "gpus"), w, "asks for %lld GPUs, but the cluster has %lld",
                         w->gpus, c->nodes * c->gpus_per_node);
    if (check_collective_rules(ld, n, w))
        return -1;
    if (!w->collective.iterations)
        w->collective.iterations = 1;
    w->parallel.dp = w->gpus; /* every GPU is a rank */
    return 0;
}

/* fp8_recipe means something only for FP8 training, and MXFP8's block-scaled GEMMs exist only
 * on Blackwell's Tensor Cores (NVIDIA Blackwell architecture technical brief; Transformer
 * Engine's MXFP8BlockScaling requires compute capability 10.0). */
static int check_fp8_recipe(st_ld *ld, const st_ynode *n, const st_workload_cfg *w)
{
    const st_ynode *gather = st_ynode_get(n, "fp8_param_gather");
    if (gather && w->fp8_param_gather && w->precision != ST_PREC_FP8)
        return st_rd_fail(&ld->rd, gather, ST_EINVAL,
                          "workload '%s': fp8_param_gather needs precision: fp8, found precision: "
                          "bf16",
                          w->name);
    const st_ynode *at = st_ynode_get(n, "fp8_recipe");
    if (!at)
        return 0;
    if (w->precision != ST_PREC_FP8)
        return st_rd_fail(&ld->rd, at, ST_EINVAL,
                          "workload '%s': fp8_recipe applies to precision: fp8, found precision: "
                          "bf16",
                          w->name);
    const st_gpu_spec *gpu = ld->s->cluster.gpu;
    if (w->fp8_recipe == ST_FP8_MXFP8 && gpu && !st_gpu_is_blackwell(gpu))
        return st_rd_fail(&ld->rd, at, ST_EINVAL,
                          "workload '%s': fp8_recipe: mxfp8 needs Blackwell Tensor Cores (b200, "
                          "gb200), found %s (use delayed or current)",
                          w->name, gpu->name);
    return 0;
}

/* Point at the key a plan issue names: a path such as "parallel.tp" under the workload's
 * mapping n, or the deepest mapping on it that the input has ("" is n itself). */
static const st_ynode *issue_at(const st_ynode *n, const char *key)
{
    const st_ynode *at = n;
    char part[64];
    while (*key) {
        const char *dot = strchr(key, '.');
        size_t len = dot ? (size_t)(dot - key) : strlen(key);
        snprintf(part, sizeof part, "%.*s", (int)len, key);
        key += dot ? len + 1 : len;
        if (!*key)
            return key_or(at, part);
        at = st_ynode_get(at, part);
    }
    return at;
}

static int plan_issue(st_ld *ld, const st_ynode *n, const st_workload_cfg *w,
                      const st_plan_issue *is)
{
    return st_rd_fail(&ld->rd, issue_at(n, is->key), is->code, "workload '%s': %s", w->name,
                      is->msg);
}

/* A training plan: its defaults and rules are the model's (models/silicon/plan_check.c); the
 * fp8 keys are checked between its shape and batch rules, as they always were. */
static int derive_plan(st_ld *ld, const st_ynode *n, st_workload_cfg *w)
{
    st_plan_issue is;
    st_plan_fill(w);
    if (st_plan_check(w, &ld->s->cluster, &is, 1))
        return plan_issue(ld, n, w, &is);
    if (check_fp8_recipe(ld, n, w))
        return -1;
    if (st_plan_check_batch(w, w->parallel.microbatch, &is, 1))
        return plan_issue(ld, n, w, &is);
    if (w->steps && w->tokens)
        return st_rd_fail(&ld->rd, st_ynode_get(n, "tokens"), ST_EINVAL,
                          "workload '%s': give either 'steps' or 'tokens', not both", w->name);
    if (!w->steps && !w->tokens)
        w->steps = 1; /* scenario-reference.md: one step, the step-level forecast */
    return 0;
}

static int workload_derive(st_ld *ld, const st_ynode *n, st_workload_cfg *w, size_t index)
{
    if (!w->name) {
        char name[32];
        snprintf(name, sizeof name, "job%zu", index);
        w->name = st_rd_strdup(&ld->rd, name);
    }
    if (!w->tenant)
        w->tenant = "default";
    if (w->kind == ST_WL_COLLECTIVE)
        return derive_collective(ld, n, w);
    if (!w->model)
        return st_rd_fail(&ld->rd, n, ST_EINVAL, "workload '%s': missing required key 'model'",
                          w->name);
    if (st_ynode_get(n, "collective"))
        return st_rd_fail(&ld->rd, st_ynode_get(n, "collective"), ST_EINVAL,
                          "workload '%s': 'collective' needs kind: collective", w->name);
    return derive_plan(ld, n, w);
}

/* Collective workloads run together, each from a fresh node (models/fabric/fabric_run.c): together
 * they must fit in the cluster. */
static int check_collective_room(st_ld *ld, const st_ynode *n)
{
    const st_scn *s = ld->s;
    const st_cluster_cfg *c = &s->cluster;
    int64_t used = 0;
    for (size_t i = 0; i < s->n_workloads; i++) {
        const st_workload_cfg *w = &s->workloads[i];
        if (w->kind != ST_WL_COLLECTIVE)
            continue;
        used += (w->gpus + c->gpus_per_node - 1) / c->gpus_per_node * c->gpus_per_node;
        if (used > c->nodes * c->gpus_per_node)
            return st_rd_fail(&ld->rd, key_or(n->kids[i], "gpus"), ST_EINVAL,
                              "workload '%s': collective workloads need %lld GPUs together (each "
                              "starts on a fresh node), but the cluster has %lld",
                              w->name, (long long)used, (long long)(c->nodes * c->gpus_per_node));
    }
    return 0;
}

/* Workload names are how reports and later sections refer to a job: they must differ. */
static int check_names(st_ld *ld, const st_ynode *n)
{
    st_scn *s = ld->s;
    const char **names = st_xmalloc(s->n_workloads * sizeof *names);
    for (size_t i = 0; i < s->n_workloads; i++)
        names[i] = s->workloads[i].name;
    long first = -1, dup = st_first_dup_name(names, s->n_workloads, &first);
    free(names);
    if (dup < 0)
        return 0;
    return st_rd_fail(&ld->rd, key_or(n->kids[dup], "name"), ST_EINVAL,
                      "duplicate workload name '%s' (first at line %u)", s->workloads[dup].name,
                      s->workloads[first].loc.line);
}

int st__load_workloads(st_ld *ld, const st_ynode *n)
{
    st_scn *s = ld->s;
    if (st_rd_expect(&ld->rd, n, ST_YN_SEQ, "workloads"))
        return -1;
    if (n->n == 0)
        return st_rd_fail(&ld->rd, n, ST_EINVAL, "workloads: expected at least one workload");
    if (st_rd_list_limit(&ld->rd, n, "workloads", ST_SCN_MAX_WORKLOADS))
        return -1;
    s->workloads = st_xcalloc(n->n, sizeof *s->workloads);
    int bad = 0;
    for (size_t i = 0; i < n->n && !st_diag_full(ld->rd.diag); i++) {
        st_workload_cfg *w = &s->workloads[i];
        w->loc = n->kids[i]->loc;
        w->seq_len = 2048; /* GPT-3's context, the scenario-reference.md default */
        w->parallel = (st_parallel_cfg){.tp = 1,
                                        .cp = 1,
                                        .pp = 1,
                                        .virtual_stages = 1,
                                        .microbatch = 1,
                                        .overlap_grad_reduce = 1,
                                        .overlap_p2p = 1,
                                        .loc = w->loc};
        if (st_rd_map(&ld->rd, n->kids[i], workload_fields, w, "workload") ||
            workload_derive(ld, n->kids[i], w, i)) {
            bad = 1;
            continue;
        }
        s->n_workloads = i + 1;
    }
    return bad ? -1 : check_names(ld, n) ? -1 : check_collective_room(ld, n);
}
