/* Reads `workloads`: kind, model (through load_model.c), parallel plan (its keys through
 * load_parallel.c), checkpoint and data settings, and the checks that tie them to the cluster;
 * a collective workload's own keys are load_collective.c's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/config/pools.h"
#include "models/fabric/nccl.h"
#include "models/silicon/llm.h"
#include "models/silicon/plan_check.h"
#include "scenarios/catalog.h"
#include "scenarios/load_internal.h"
#include "scenarios/software.h"
#include "sim/xalloc.h"

/* ---- model ------------------------------------------------------------------------------ */

static int fn_model(st_rd *rd, const st_ynode *n, void *base)
{
    st_workload_cfg *w = base;
    w->model_loc = n->loc;
    w->model = st__read_model(st__ld(rd), n, "model");
    return w->model ? 0 : -1;
}

/* ---- checkpoint, data (the parallel plan's keys are load_parallel.c's) ------------------ */

int st__tier_named(st_rd *rd, const st_ynode *n, int *out)
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
    if (st__broken_has(&ld->bad_tiers, n->text))
        return -1; /* its cluster.storage entry has an error of its own */
    if (!c->n_tiers && !ld->bad_tiers.n)
        return st_rd_fail(rd, n, ST_ENOTFOUND,
                          "unknown storage tier '%s': cluster.storage defines no tiers", n->text);
    return st__unknown_name(ld, n, "storage tier", names, c->n_tiers < 64 ? c->n_tiers : 64,
                            " (tiers are named under cluster.storage)");
}

/* The cadence of one checkpoint level, as every: reads it. */
typedef struct every_out {
    double *every_s;
    int64_t *every_steps;
    int *every_auto;
} every_out;

/* every: a time ("30 min"), a step count ("500 steps") or "auto" (Young-Daly optimum). */
static int read_every(st_rd *rd, const st_ynode *n, every_out c)
{
    if (st_rd_expect(rd, n, ST_YN_SCALAR, "every"))
        return -1;
    if (strcmp(n->text, "auto") == 0) {
        *c.every_auto = 1;
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
        *c.every_steps = (int64_t)v;
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
    return st_rd_dim_lim(rd, n, "every", ST_DIM_TIME, ST_R_POS, &st_lim_span, c.every_s);
}

static int fn_every(st_rd *rd, const st_ynode *n, void *base)
{
    st_ckpt_cfg *c = base;
    return read_every(rd, n, (every_out){&c->every_s, &c->every_steps, &c->every_auto});
}

static int fn_mem_every(st_rd *rd, const st_ynode *n, void *base)
{
    st_ckpt_mem_cfg *c = base;
    return read_every(rd, n, (every_out){&c->every_s, &c->every_steps, &c->every_auto});
}

static const st_field mem_fields[] = {
    ST_FFN("every", fn_mem_every, .required = 1),
    ST_FINT(st_ckpt_mem_cfg, "replicas", replicas, ST_R_NONNEG, .max = 16),
    ST_FEND,
};

/* memory: the in-memory level of two-level checkpoints; replicas defaults to the preset's. */
static int fn_memory(st_rd *rd, const st_ynode *n, void *base)
{
    st_ckpt_mem_cfg *m = &((st_ckpt_cfg *)base)->memory;
    m->loc = n->loc;
    m->enabled = 1;
    m->replicas = st_ckpt_preset_default.replicas;
    return st_rd_map(rd, n, mem_fields, m, "memory");
}

static int fn_ckpt_tier(st_rd *rd, const st_ynode *n, void *base)
{
    return st__tier_named(rd, n, &((st_ckpt_cfg *)base)->tier);
}

static int fn_data_tier(st_rd *rd, const st_ynode *n, void *base)
{
    return st__tier_named(rd, n, &((st_data_cfg *)base)->tier);
}

static const st_field ckpt_fields[] = {
    ST_FFN("every", fn_every, .required = 1),
    ST_FENUM(st_ckpt_cfg, "mode", mode, st_ckpt_mode_names),
    ST_FFN("tier", fn_ckpt_tier, .required = 1),
    ST_FFN("memory", fn_memory),
    ST_FEND,
};

/* `bytes_per_token: 4` is a plain number of bytes, or with a unit. At most 1 MB: a text token
 * is a few bytes and an image patch token of raw pixels under a kilobyte (16 x 16 x 3), so a
 * larger figure is a typo, and an unbounded one made the ingest rate overflow to infinity. */
#define ST_MAX_BYTES_PER_TOKEN 1e6
static int fn_bytes_per_token(st_rd *rd, const st_ynode *n, void *base)
{
    int bare =
        n->kind == ST_YN_SCALAR && st_unit_sniff(n->text) == ST_DIM_RATIO && !strchr(n->text, '%');
    st_dim d = bare ? ST_DIM_RATIO : ST_DIM_BYTES;
    return st_rd_dim(rd, n, "bytes_per_token", d, ST_R_POS, ST_MAX_BYTES_PER_TOKEN,
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
    return st_rd_map(rd, n, st__parallel_fields, p, "parallel");
}

/* kernels: one value for every memory-bound operator, or a mapping per operator (the rest
 * fused). */
static const st_field kernels_fields[] = {
    ST_FENUM(st_kernels_cfg, "norm", norm, st_kernels_names),
    ST_FENUM(st_kernels_cfg, "rope", rope, st_kernels_names),
    ST_FENUM(st_kernels_cfg, "act", act, st_kernels_names),
    ST_FENUM(st_kernels_cfg, "residual", residual, st_kernels_names),
    ST_FENUM(st_kernels_cfg, "permute", permute, st_kernels_names),
    ST_FENUM(st_kernels_cfg, "router", router, st_kernels_names),
    ST_FEND,
};

static int fn_kernels(st_rd *rd, const st_ynode *n, void *base)
{
    st_kernels_cfg *k = &((st_workload_cfg *)base)->kernels;
    if (n->kind == ST_YN_MAP)
        return st_rd_map(rd, n, kernels_fields, k, "kernels");
    int v;
    if (st_rd_enum(rd, n, "kernels", st_kernels_names, &v))
        return -1;
    k->norm = k->rope = k->act = k->residual = k->permute = k->router = (st_kernels)v;
    return 0;
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

/* `software: STACK RELEASE`: a row of scenarios/software.c, the newest of that stack at or
 * before the release. Its settings are applied once the workload's own keys have read
 * (apply_software). */
static const st_software *software_row(st_ld *ld, const st_ynode *n, int report)
{
    st_software_words sw;
    if (!st_software_split(n->text, &sw)) {
        if (report)
            st_rd_fail(&ld->rd, n, ST_EINVAL,
                       "software: expected 'STACK RELEASE', two words of at most 63 bytes (such "
                       "as 'megatron-bridge 26.04'), found '%s'",
                       n->text);
        return NULL;
    }
    int why = 0;
    const st_software *r = st_software_find(sw.stack, sw.release, &why);
    if (r || !report)
        return r;
    if (why == 1) {
        const char *names[32];
        size_t k = st_software_stacks(names, 32);
        char near[200];
        st_did_you_mean(sw.stack, names, k, near, sizeof near);
        st_rd_fail(&ld->rd, n, ST_ENOTFOUND,
                   "software: unknown stack '%s'%s (`strata catalog software` lists them)",
                   sw.stack, near);
    } else if (why == 2) {
        st_rd_fail(&ld->rd, n, ST_EINVAL,
                   "software: expected a release of numbers between '.' or '-' (such as 26.04, "
                   "0.8 or 2024-04), found '%s'",
                   sw.release);
    } else {
        const char *first = "";
        for (size_t i = st_software_count(); i-- > 0;) /* rows of a stack run oldest first */
            if (strcmp(st_software_at(i)->stack, sw.stack) == 0)
                first = st_software_at(i)->release;
        st_rd_fail(&ld->rd, n, ST_ENOTFOUND,
                   "software: %s %s is older than %s %s, the first release strata has read; "
                   "state the attention kernel and overlaps as keys instead",
                   sw.stack, sw.release, sw.stack, first);
    }
    return NULL;
}

static int fn_software(st_rd *rd, const st_ynode *n, void *base)
{
    st_workload_cfg *w = base;
    if (st_rd_expect(rd, n, ST_YN_SCALAR, "software"))
        return -1;
    if (!software_row(st__ld(rd), n, 1))
        return -1;
    w->software = st_rd_strdup(rd, n->text);
    return 0;
}

/* `cudnn: MAJOR.MINOR[.PATCH]`: the cuDNN release of the job's software, which picks the
 * published attention sweep of that release or the nearest newer one (st_attn_release_sweep). */
static int fn_cudnn(st_rd *rd, const st_ynode *n, void *base)
{
    st_workload_cfg *w = base;
    if (st_rd_expect(rd, n, ST_YN_SCALAR, "cudnn"))
        return -1;
    w->cudnn_release = st_software_cudnn(n->text);
    if (w->cudnn_release == 0)
        return st_rd_fail(rd, n, ST_EINVAL,
                          "cudnn: expected a cuDNN release MAJOR.MINOR (such as 9.10, or 9.10.2), "
                          "found '%s'",
                          n->text);
    return 0;
}

/* Whether the workload mapping ctx states key ("attention", "parallel.tp_comm_overlap"); a
 * `parallel` that is not a mapping counts as stating all of its keys. */
static int stated_key(const void *ctx, const char *key)
{
    const st_ynode *n = ctx;
    const char *dot = strchr(key, '.');
    if (!dot)
        return st_ynode_get(n, key) != NULL;
    char head[32];
    snprintf(head, sizeof head, "%.*s", (int)(dot - key), key);
    const st_ynode *m = st_ynode_get(n, head);
    return m && (m->kind != ST_YN_MAP || st_ynode_get(m, dot + 1));
}

/* The GPU workload w runs on (NULL when the cluster's did not read). */
static const st_gpu_spec *workload_gpu(const st_ld *ld, const st_workload_cfg *w)
{
    return st_pools_gpu_of_workload(&ld->s->cluster, w);
}

/* The software row's settings for what the workload did not state, on its pool's GPU. */
static void apply_software(st_ld *ld, const st_ynode *n, st_workload_cfg *w)
{
    const st_ynode *at = st_ynode_get(n, "software");
    if (!w->software || !at || st_rd_failed(&ld->rd, at))
        return;
    const st_software *r = software_row(ld, at, 0);
    if (r)
        st_software_apply(r, workload_gpu(ld, w), w, stated_key, n);
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
static const st_field workload_fields[] = {
    ST_FSTR(st_workload_cfg, "name", name),
    ST_FFN("kind", fn_kind),
    ST_FFN("model", fn_model),
    ST_FFN("collective", st__fn_collective),
    ST_FFN("requests", st__fn_requests),
    ST_FFN("slo", st__fn_slo),
    ST_FFN("batching", st__fn_batching),
    ST_FFN("frontend", st__fn_frontend),
    ST_FFN("autoscale", st__fn_autoscale),
    ST_FINT(st_workload_cfg, "seq_len", seq_len, ST_R_MIN1, .max = 1e8),
    ST_FINT(st_workload_cfg, "global_batch", global_batch, ST_R_MIN1, .max = 1e9),
    ST_FENUM(st_workload_cfg, "precision", precision, st_precision_names),
    ST_FENUM(st_workload_cfg, "expert_precision", expert_precision, st_precision_names),
    ST_FENUM(st_workload_cfg, "expert_weights", expert_weights, st_weight_format_names),
    ST_FENUM(st_workload_cfg, "fp8_recipe", fp8_recipe, st_fp8_recipe_names),
    ST_FBOOL(st_workload_cfg, "fp8_param_gather", fp8_param_gather),
    ST_FENUM(st_workload_cfg, "attention", attention, st_attention_names),
    ST_FFN("cudnn", fn_cudnn),
    ST_FFN("kernels", fn_kernels),
    ST_FFN("gpus", fn_gpus),
    ST_FFN("parallel", fn_parallel),
    ST_FDIM(st_workload_cfg, "memory_reserved", memory_reserved, ST_DIM_BYTES, ST_R_NONNEG,
            .lim = &st_lim_bytes),
    ST_FDIM(st_workload_cfg, "routing_imbalance", routing_imbalance, ST_DIM_RATIO, ST_R_MIN1,
            .lim = &st_lim_moe_imbalance),
    ST_FDIM(st_workload_cfg, "capacity_factor", capacity_factor, ST_DIM_RATIO, ST_R_POS,
            .lim = &st_lim_moe_capacity),
    ST_FBOOL(st_workload_cfg, "pad_to_capacity", pad_to_capacity),
    ST_FINT(st_workload_cfg, "mtp_layers", mtp_layers, ST_R_NONNEG, .max = 16),
    ST_FINT(st_workload_cfg, "steps", steps, ST_R_MIN1, .max = 1e15),
    ST_FDIM(st_workload_cfg, "tokens", tokens, ST_DIM_COUNT, ST_R_POS),
    ST_FDIM(st_workload_cfg, "submit", submit_s, ST_DIM_TIME, ST_R_NONNEG, .lim = &st_lim_span),
    ST_FSTR(st_workload_cfg, "tenant", tenant),
    ST_FINT(st_workload_cfg, "priority", priority, ST_R_ANY, .max = 1e9),
    ST_FFN("checkpoint", fn_checkpoint),
    ST_FFN("data", fn_data),
    ST_FFN("pool", st__fn_pool),
    ST_FFN("pool_batch", st__fn_pool_batch),
    ST_FFN("software", fn_software),
    ST_FEND,
};

/* The workload checks below name the key whose value is wrong (or the workload mapping when
 * the key is absent). */

/* routing_imbalance is a mixture-of-experts figure, and an EP rank receives at most every row
 * of its group: at most ep times the mean (docs/models/step-ops.md, "Routing imbalance"). */
static int check_routing(st_ld *ld, const st_ynode *n, const st_workload_cfg *w)
{
    const st_ynode *at = st_ynode_get(n, "routing_imbalance");
    static const char *const keys[] = {"routing_imbalance", "model", "parallel", NULL};
    if (!at || st_rd_any_failed(&ld->rd, n, keys) || !w->model)
        return 0;
    if (w->model->experts <= 0)
        return st_rd_fail(&ld->rd, at, ST_EINVAL,
                          "workload '%s': routing_imbalance needs a mixture-of-experts model, "
                          "found '%s' (dense)",
                          w->name, w->model->name);
    double ep = (double)(w->parallel.ep > 1 ? w->parallel.ep : 1);
    if (w->routing_imbalance > ep)
        return st_rd_fail(&ld->rd, at, ST_EINVAL,
                          "workload '%s': routing_imbalance %g is more than parallel.ep %g: an "
                          "EP rank receives at most every row of its group",
                          w->name, w->routing_imbalance, ep);
    return 0;
}

/* capacity_factor drops a mixture-of-experts model's tokens, and pad_to_capacity pads to it. */
static int check_capacity(st_ld *ld, const st_ynode *n, const st_workload_cfg *w)
{
    const st_ynode *cf = st_ynode_get(n, "capacity_factor"),
                   *pad = st_ynode_get(n, "pad_to_capacity");
    static const char *const keys[] = {"capacity_factor", "pad_to_capacity", "model", NULL};
    if ((!cf && !pad) || st_rd_any_failed(&ld->rd, n, keys) || !w->model)
        return 0;
    if (w->model->experts <= 0)
        return st_rd_fail(&ld->rd, cf ? cf : pad, ST_EINVAL,
                          "workload '%s': %s needs a mixture-of-experts model, found '%s' (dense)",
                          w->name, cf ? "capacity_factor" : "pad_to_capacity", w->model->name);
    if (pad && w->pad_to_capacity && !cf)
        return st_rd_fail(&ld->rd, pad, ST_EINVAL,
                          "workload '%s': pad_to_capacity pads each expert's rows to its capacity: "
                          "it needs capacity_factor",
                          w->name);
    return 0;
}

/* FP8 training needs FP8 Tensor Cores: Transformer Engine refuses FP8 below compute capability
 * 8.9 ("Device compute capability 8.9 or higher required for FP8 execution", check_fp8_support
 * in transformer_engine/pytorch/fp8.py), so an A100 cannot train in FP8; the step model would
 * otherwise run its GEMMs at the BF16 peak under an FP8 label. fp8_recipe means something only
 * for FP8 training, and MXFP8's block-scaled GEMMs exist only on Blackwell's Tensor Cores
 * (NVIDIA Blackwell architecture technical brief; Transformer Engine's MXFP8BlockScaling
 * requires compute capability 10.0). */
static int check_fp8_recipe(st_ld *ld, const st_ynode *n, const st_workload_cfg *w)
{
    static const char *const keys[] = {"precision", "fp8_recipe", "fp8_param_gather", NULL};
    if (st_rd_any_failed(&ld->rd, n, keys))
        return -1; /* what the rules compare did not read */
    const st_gpu_spec *g = workload_gpu(ld, w);
    const st_ynode *prec = st_ynode_get(n, "precision");
    if (prec && w->precision == ST_PREC_FP8 && g && !st_gpu_has_precision(g, ST_PREC_FP8))
        return st_rd_fail(&ld->rd, prec, ST_EINVAL,
                          "workload '%s': precision: fp8 needs FP8 Tensor Cores (Transformer "
                          "Engine trains in FP8 from compute capability 8.9), found %s, which "
                          "has none (use bf16)",
                          w->name, g->name);
    const st_ynode *gather = st_ynode_get(n, "fp8_param_gather");
    if (gather && w->fp8_param_gather && w->precision != ST_PREC_FP8)
        return st_rd_fail(&ld->rd, gather, ST_EINVAL,
                          "workload '%s': fp8_param_gather needs precision: fp8, found precision: "
                          "%s",
                          w->name, st_precision_names[w->precision]);
    const st_ynode *at = st_ynode_get(n, "fp8_recipe");
    if (!at)
        return 0;
    if (w->precision != ST_PREC_FP8)
        return st_rd_fail(&ld->rd, at, ST_EINVAL,
                          "workload '%s': fp8_recipe applies to precision: fp8, found precision: "
                          "%s",
                          w->name, st_precision_names[w->precision]);
    const st_gpu_spec *gpu = workload_gpu(ld, w);
    if (w->fp8_recipe == ST_FP8_MXFP8 && gpu && !st_gpu_is_blackwell(gpu))
        return st_rd_fail(&ld->rd, at, ST_EINVAL,
                          "workload '%s': fp8_recipe: mxfp8 needs Blackwell Tensor Cores (b200, "
                          "gb200), found %s (use delayed or current)",
                          w->name, gpu->name);
    return 0;
}

/* NVFP4 (precision: fp4) is modelled for serving, where NVIDIA publishes its checkpoints and
 * runs (TensorRT-LLM's performance overview): weights and activations of the linear layers in
 * FP4 on Blackwell's FP4 Tensor Cores. Training in FP4 needs recipes (stochastic rounding,
 * Hadamard transforms, some layers kept in higher precision) the step model does not have, so
 * it is refused, as is a GPU without FP4 Tensor Cores (peak_fp4 0). */
static int check_fp4(st_ld *ld, const st_ynode *n, const st_workload_cfg *w)
{
    const st_ynode *at = st_ynode_get(n, "precision");
    if (w->precision != ST_PREC_FP4 || !at || w->kind == ST_WL_COLLECTIVE)
        return 0;
    if (w->kind != ST_WL_INFERENCE)
        return st_rd_fail(&ld->rd, at, ST_EINVAL,
                          "workload '%s': precision: fp4 is modelled for kind: inference only "
                          "(NVFP4 serving); found a training workload (use bf16 or fp8)",
                          w->name);
    const st_gpu_spec *gpu = workload_gpu(ld, w);
    if (gpu && !st_gpu_has_precision(gpu, ST_PREC_FP4))
        return st_rd_fail(&ld->rd, at, ST_EINVAL,
                          "workload '%s': precision: fp4 needs FP4 Tensor Cores (b200, gb200, or "
                          "a gpu with peak_fp4), found %s",
                          w->name, gpu->name);
    return 0;
}

/* Sliding windows are modelled on the fused kernels only (models/silicon/ops_attn.c): the unfused
 * core's s x s score GEMMs and softmax would need a banded layout Megatron-LM's unfused path
 * does not have, so `attention: unfused` with a windowed model is refused. */
static int check_window_attention(st_ld *ld, const st_ynode *n, const st_workload_cfg *w)
{
    if (!w->model || w->model->sliding_window <= 0 || w->attention != ST_ATTN_UNFUSED)
        return 0;
    return st_rd_fail(&ld->rd, st__key_or(n, "attention"), ST_EINVAL,
                      "workload '%s': attention: unfused cannot run a sliding window (the model's "
                      "sliding_window: %lld); use flash, flash2 or cudnn",
                      w->name, (long long)w->model->sliding_window);
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
            return st__key_or(at, part);
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

/* A plan issue about the GPU count (tp*cp*pp*dp against gpus and the cluster) names the
 * workload, its `gpus` or its `parallel` mapping; the shape and ZeRO rules name a key under
 * `parallel`. */
static int is_count_issue(const st_plan_issue *is)
{
    return strcmp(is->key, "") == 0 || strcmp(is->key, "gpus") == 0 ||
           strcmp(is->key, "parallel") == 0;
}

/* A failed or misspelt key of mapping m among keys[] (NULL-terminated), with m's field table:
 * the value meant for the key is unknown. keys NULL means any key of m, unknown ones included
 * (the reader marks their values failed). A value that is not a mapping hides them all. */
static int unknown_of(const st_rd *rd, const st_ynode *m, const st_field *fields,
                      const char *const *keys)
{
    if (!m)
        return 0;
    if (m->kind != ST_YN_MAP)
        return 1;
    if (!keys) {
        for (size_t i = 0; i < m->n; i++)
            if (st_rd_failed(rd, m->kids[i]))
                return 1;
        return 0;
    }
    if (st_rd_any_failed(rd, m, keys))
        return 1;
    for (size_t i = 0; keys[i]; i++)
        if (st_rd_misspelt(m, fields, keys[i]))
            return 1;
    return 0;
}

/* Which plan rules can be checked: the GPU count needs gpus and tp, cp, pp, dp to have read
 * (a failed or misspelt one leaves its default, so tp*cp*pp*dp would be wrong); the shape and
 * ZeRO rules need the model, seq_len and every parallel key; the batch split needs both and
 * global_batch. */
typedef struct plan_ok {
    int count, shape, batch;
} plan_ok;

static plan_ok plan_readable(const st_rd *rd, const st_ynode *n)
{
    static const char *const count_keys[] = {"gpus", NULL};
    static const char *const count_par[] = {"tp", "cp", "pp", "dp", NULL};
    static const char *const shape_keys[] = {"model", "seq_len", NULL};
    static const char *const batch_keys[] = {"global_batch", NULL};
    const st_ynode *par = st_ynode_get(n, "parallel");
    plan_ok ok;
    ok.count = !unknown_of(rd, n, workload_fields, count_keys) &&
               !unknown_of(rd, par, st__parallel_fields, count_par);
    ok.shape = !unknown_of(rd, n, workload_fields, shape_keys) &&
               !unknown_of(rd, par, st__parallel_fields, NULL);
    ok.batch = ok.count && ok.shape && !unknown_of(rd, n, workload_fields, batch_keys);
    return ok;
}

/* The work must fit the life model's span (models/config/limits.h). No plan runs faster than
 * its model FLOPs (st_llm_flops_per_token, PaLM's definition) at every GPU's peak, so
 * steps x FLOPs per step / (GPUs x peak) is a lower bound on the work: a job over the span by
 * that bound is refused here, the rest by the life model when `run` knows the step time. */
static int check_work(st_ld *ld, const st_ynode *n, const st_workload_cfg *w)
{
    const st_gpu_spec *g = workload_gpu(ld, w);
    if (!g || !w->model)
        return 0;
    double peak = fmax(fmax(g->peak_bf16, g->peak_fp8), g->peak_fp4) * (double)w->gpus;
    double tokens = (double)w->global_batch * (double)w->seq_len;
    double steps = w->steps > 0 ? (double)w->steps : ceil(w->tokens / tokens);
    double work = steps * tokens * st_llm_flops_per_token(w->model, w->seq_len) / peak;
    if (!(peak > 0) || !(work > ST_LIM_SPAN_S))
        return 0;
    char b[48], span[48];
    st_unit_format(work, ST_DIM_TIME, b, sizeof b);
    st_unit_format(ST_LIM_SPAN_S, ST_DIM_TIME, span, sizeof span);
    return st_rd_fail(&ld->rd, st__key_or(n, w->steps > 0 ? "steps" : "tokens"), ST_ELIMIT,
                      "workload '%s': %.4g steps take at least %s at the GPUs' peak, beyond %s "
                      "(at most %s: %s)",
                      w->name, steps, b, st_lim_span.what, span, st_lim_span.how);
}

/* A training plan: its defaults and rules are the model's (models/silicon/plan_check.c); the
 * fp8 keys are checked between its shape and batch rules, as they always were. Each rule whose
 * values read is reported; a cluster of unknown size is given one no plan exceeds. */
static int derive_plan(st_ld *ld, const st_ynode *n, st_workload_cfg *w)
{
    enum { CAP = 8 };
    st_plan_issue is[CAP];
    plan_ok ok = plan_readable(&ld->rd, n);
    st_plan_fill(w);
    st_cluster_cfg room;
    st__pool_room(ld, w, &room);
    if (ld->size_bad) {
        room.nodes = (int64_t)ST_PLAN_MAX_GPUS;
        room.gpus_per_node = 1;
    }
    int k = st_plan_check(w, &room, is, CAP), bad = 0, count_issue = 0;
    for (int i = 0; i < k; i++) {
        int count = is_count_issue(&is[i]);
        count_issue |= count;
        if (count ? ok.count : ok.shape)
            bad = plan_issue(ld, n, w, &is[i]);
    }
    bad |= check_fp8_recipe(ld, n, w);
    bad |= check_routing(ld, n, w);
    bad |= check_capacity(ld, n, w);
    bad |= check_window_attention(ld, n, w);
    if (ok.batch && !count_issue && st_plan_check_batch(w, w->parallel.microbatch, is, 1))
        bad = plan_issue(ld, n, w, &is[0]);
    if (!bad && !count_issue && ok.count && w->pool_gpus && st__span_check(ld, n, w))
        bad = 1;
    /* a pool: that failed already said so (its pools unread: not a job across none) */
    if (!w->pool_gpus && (w->pool_batch || w->pool_batch_balanced) &&
        !st_rd_failed(&ld->rd, st_ynode_get(n, "pool")))
        bad = st_rd_fail(&ld->rd, st_ynode_get(n, "pool_batch"), ST_EINVAL,
                         "workload '%s': pool_batch splits the batch of a job across pools; "
                         "name its pools' GPUs as pool: {NAME: GPUS, ...}",
                         w->name) != 0;
    if (w->steps && w->tokens)
        bad = st_rd_fail(&ld->rd, st_ynode_get(n, "tokens"), ST_EINVAL,
                         "workload '%s': give either 'steps' or 'tokens', not both", w->name);
    if (!w->steps && !w->tokens)
        w->steps = 1; /* scenario-reference.md: one step, the step-level forecast */
    if (!bad && !count_issue && ok.batch &&
        !unknown_of(&ld->rd, n, workload_fields, (const char *const[]){"steps", "tokens", NULL}))
        bad = check_work(ld, n, w);
    return bad ? -1 : 0;
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
    if (st_rd_failed(&ld->rd, st_ynode_get(n, "kind")))
        return -1; /* which rules apply depends on the kind */
    if (!st_rd_failed(&ld->rd, st_ynode_get(n, "precision")) && check_fp4(ld, n, w))
        return -1;
    if (w->kind != ST_WL_TRAINING && (w->pool_gpus || w->pool_batch || w->pool_batch_balanced))
        return st_rd_fail(&ld->rd, st_ynode_get(n, w->pool_gpus ? "pool" : "pool_batch"), ST_EINVAL,
                          "workload '%s': %s runs inside one pool (pool: NAME); only a training "
                          "job runs across pools",
                          w->name,
                          w->kind == ST_WL_INFERENCE ? "a service" : "a collective workload");
    if (w->kind == ST_WL_COLLECTIVE)
        return st__derive_collective(ld, n, w, workload_fields);
    if (w->kind == ST_WL_INFERENCE)
        return st__derive_inference(ld, n, w, workload_fields);
    int bad = 0;
    static const char *const serving_only[] = {"requests",       "slo",      "batching",
                                               "autoscale",      "frontend", "expert_precision",
                                               "expert_weights", NULL};
    for (int i = 0; serving_only[i]; i++)
        if (st_ynode_get(n, serving_only[i]))
            bad = st_rd_fail(&ld->rd, st_ynode_get(n, serving_only[i]), ST_EINVAL,
                             "workload '%s': '%s' needs kind: inference", w->name, serving_only[i]);
    if (!st_ynode_get(n, "model") && !st_rd_misspelt(n, workload_fields, "model"))
        bad = st_rd_fail(&ld->rd, n, ST_EINVAL, "workload '%s': missing required key 'model'",
                         w->name);
    if (st_ynode_get(n, "collective"))
        bad = st_rd_fail(&ld->rd, st_ynode_get(n, "collective"), ST_EINVAL,
                         "workload '%s': 'collective' needs kind: collective", w->name);
    return derive_plan(ld, n, w) || bad ? -1 : 0;
}

/* Workload names are how reports and later sections refer to a job: they must differ. */
static int check_names(st_ld *ld, const st_ynode *n)
{
    st_scn *s = ld->s;
    const char **names = st_xmalloc(s->n_workloads * sizeof *names);
    for (size_t i = 0; i < s->n_workloads; i++) /* a name that did not read is not compared */
        names[i] =
            st_rd_failed(&ld->rd, st_ynode_get(n->kids[i], "name")) ? NULL : s->workloads[i].name;
    long first = -1, dup = st_first_dup_name(names, s->n_workloads, &first);
    free(names);
    if (dup < 0)
        return 0;
    return st_rd_fail(&ld->rd, st__name_at(n->kids[dup]), ST_EINVAL,
                      "duplicate workload name '%s' (first at line %u)", s->workloads[dup].name,
                      s->workloads[first].loc.line);
}

/* A workload before its keys (load_internal.h). */
void st__workload_defaults(st_workload_cfg *w)
{
    w->seq_len = 2048; /* GPT-3's context, the scenario-reference.md default */
    w->parallel = (st_parallel_cfg){.tp = 1,
                                    .cp = 1,
                                    .pp = 1,
                                    .virtual_stages = 1,
                                    .ep = 1,
                                    .microbatch = 1,
                                    .overlap_grad_reduce = 1,
                                    .overlap_p2p = 1,
                                    .loc = w->loc};
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
    char *clean = st_xcalloc(n->n, 1);
    int bad = 0;
    size_t i;
    for (i = 0; i < n->n && !st_diag_full(ld->rd.diag); i++) {
        st_workload_cfg *w = &s->workloads[i];
        w->loc = n->kids[i]->loc;
        st__workload_defaults(w);
        /* The cross-field checks run even when a key failed: each skips what it cannot know. */
        int keys = st_rd_map(&ld->rd, n->kids[i], workload_fields, w, "workload");
        if (n->kids[i]->kind == ST_YN_MAP)
            apply_software(ld, n->kids[i], w);
        int rules = n->kids[i]->kind == ST_YN_MAP ? workload_derive(ld, n->kids[i], w, i) : -1;
        clean[i] = !keys && !rules;
        bad |= !clean[i];
        w->memory_reserved_given = st_ynode_get(n->kids[i], "memory_reserved") != NULL;
        w->routing_imbalance_given = st_ynode_get(n->kids[i], "routing_imbalance") != NULL;
        w->attention_stated = st_ynode_get(n->kids[i], "attention") != NULL;
    }
    s->n_workloads = i;
    bad |= check_names(ld, n) != 0;
    bad |= st__check_collective_room(ld, n, clean) != 0;
    free(clean);
    return bad || st_diag_full(ld->rd.diag) ? -1 : 0; /* full: entries left unread */
}
