/* Reads a workload's `parallel:` mapping, its plan: the parallel degrees, ZeRO stage,
 * micro-batch, schedule, overlaps, recomputation, gradient precision and accumulation, pipeline
 * layout and MoE dispatch (docs/guide/scenario-reference.md, "parallel"). load_workload.c reads
 * the mapping through st__parallel_fields and checks the plan against the cluster. */
#include <string.h>

#include "models/config/config.h"
#include "models/silicon/ub_cfg.h"
#include "scenarios/load_internal.h"

static int fn_microbatch(st_rd *rd, const st_ynode *n, void *base)
{
    st_parallel_cfg *p = base;
    if (n->kind == ST_YN_SCALAR && strcmp(n->text, "auto") == 0) {
        p->microbatch = 0;
        return 0;
    }
    /* a word is not a number: say the word it takes too ("expected a number" left auto out) */
    if (n->kind == ST_YN_SCALAR && n->text[0] && !strchr("0123456789+-.", n->text[0]))
        return st_rd_fail(rd, n, ST_EINVAL,
                          "microbatch: expected a whole number of sequences or 'auto', found "
                          "'%s'",
                          n->text);
    return st_rd_int(rd, n, "microbatch", ST_R_MIN1, 1e6, &p->microbatch);
}

/* Gradient precision, and Adam's moments': index 0 is fp32 (Megatron-LM's default with --bf16),
 * 1 is bf16. */
static const char *const grad_reduce_names[] = {"fp32", "bf16", NULL};

/* Gradient accumulation: index 0 fused into the GEMM (Megatron), 1 a separate pass. */
static const char *const grad_accum_names[] = {"fused", "separate", NULL};

/* parallel.chunk_layers: a list of layer counts, one a chunk (plan_check.c checks it against
 * the plan and the model). */
static int fn_chunk_layers(st_rd *rd, const st_ynode *n, void *base)
{
    st_parallel_cfg *p = base;
    if (st_rd_expect(rd, n, ST_YN_SEQ, "chunk_layers") ||
        st_rd_list_limit(rd, n, "chunk_layers", 4096))
        return -1;
    int64_t *v = st_rd_alloc(rd, (n->n ? n->n : 1) * sizeof *v);
    for (size_t i = 0; i < n->n; i++)
        if (st_rd_int(rd, n->kids[i], "chunk_layers", ST_R_NONNEG, 1e6, &v[i]))
            return -1;
    p->chunk_layers = v;
    p->n_chunk_layers = (int64_t)n->n;
    return 0;
}

/* parallel.recompute_modules: a list of Megatron-Core's module names, each at most once
 * (plan_check.c checks them against the plan and the model). */
static int fn_recompute_modules(st_rd *rd, const st_ynode *n, void *base)
{
    st_parallel_cfg *p = base;
    if (st_rd_expect(rd, n, ST_YN_SEQ, "recompute_modules"))
        return -1;
    if (n->n == 0)
        return st_rd_fail(rd, n, ST_ERANGE,
                          "recompute_modules: expected at least one module, found an empty list");
    unsigned mask = 0;
    for (size_t i = 0; i < n->n; i++) {
        int m;
        if (st_rd_enum(rd, n->kids[i], "recompute_modules", st_recompute_module_names, &m))
            return -1;
        if (mask & (1u << m))
            return st_rd_fail(rd, n->kids[i], ST_ERANGE, "recompute_modules: '%s' is listed twice",
                              n->kids[i]->text);
        mask |= 1u << m;
    }
    p->recompute_modules = mask;
    return 0;
}

const st_field st__parallel_fields[] = {
    ST_FINT(st_parallel_cfg, "tp", tp, ST_R_MIN1, .max = 1e6),
    ST_FINT(st_parallel_cfg, "cp", cp, ST_R_MIN1, .max = 1e6),
    ST_FINT(st_parallel_cfg, "pp", pp, ST_R_MIN1, .max = 1e6),
    ST_FINT(st_parallel_cfg, "dp", dp, ST_R_MIN1, .max = 1e9),
    ST_FINT(st_parallel_cfg, "ep", ep, ST_R_MIN1, .max = 1e6),
    ST_FINT(st_parallel_cfg, "etp", etp, ST_R_MIN1, .max = 1024),
    ST_FINT(st_parallel_cfg, "zero", zero, ST_R_NONNEG, .max = 3),
    ST_FFN("microbatch", fn_microbatch),
    ST_FINT(st_parallel_cfg, "virtual_stages", virtual_stages, ST_R_MIN1, .max = 1e4),
    ST_FBOOL(st_parallel_cfg, "sequence_parallel", sequence_parallel),
    ST_FBOOL(st_parallel_cfg, "overlap_grad_reduce", overlap_grad_reduce),
    ST_FBOOL(st_parallel_cfg, "overlap_p2p", overlap_p2p),
    ST_FBOOL(st_parallel_cfg, "tp_comm_overlap", tp_comm_overlap),
    ST_FENUM(st_parallel_cfg, "tp_comm_overlap_cfg", tp_comm_overlap_cfg, st_ub_cfg_names),
    ST_FBOOL(st_parallel_cfg, "ep_comm_overlap", ep_comm_overlap),
    ST_FBOOL(st_parallel_cfg, "cp_comm_overlap", cp_comm_overlap),
    ST_FBOOL(st_parallel_cfg, "overlap_param_gather", overlap_param_gather),
    ST_FENUM(st_parallel_cfg, "recompute", recompute, st_recompute_names),
    ST_FFN("recompute_modules", fn_recompute_modules),
    ST_FENUM(st_parallel_cfg, "grad_reduce", grad_bf16, grad_reduce_names),
    ST_FENUM(st_parallel_cfg, "adam_moments", adam_bf16, grad_reduce_names),
    ST_FENUM(st_parallel_cfg, "grad_collective", grad_collective, st_grad_coll_names),
    ST_FENUM(st_parallel_cfg, "grad_accum", grad_accum_separate, grad_accum_names),
    ST_FBOOL(st_parallel_cfg, "embedding_slot", embedding_slot),
    ST_FBOOL(st_parallel_cfg, "loss_slot", loss_slot),
    ST_FFN("chunk_layers", fn_chunk_layers),
    ST_FINT(st_parallel_cfg, "offload_layers", offload_layers, ST_R_NONNEG, .max = 1e6),
    ST_FENUM(st_parallel_cfg, "moe_dispatcher", moe_dispatcher, st_moe_dispatcher_names),
    ST_FEND,
};
