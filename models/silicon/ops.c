/* The operator graphs of one transformer layer (dense or MoE, ordinary or latent attention), of
 * the embedding, of the output layer and of an MTP module on one GPU, assembled from the parts in
 * ops_attn.c and ops_moe.c. docs/models/step-ops.md lists the operators, their byte counts and
 * sources. */
#include "models/silicon/ops.h"

#include "models/silicon/llm.h"
#include "models/silicon/ops_internal.h"

size_t st_ops_layer_forward(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t microbatch,
                            st_op *ops, size_t cap)
{
    dims d = st__ops_dims_of(w, microbatch);
    builder g = {gpu, ops, cap, 0};
    st__ops_memory(&g, "norm1", d.norm * d.Tr * d.h);
    if (d.mla) {
        st__ops_mla_projections(&g, &d);
    } else {
        /* column parallel */
        st__ops_linear(&g, &d, "qkv", d.T, d.da + 2.0 * d.dkv, d.h, d.Tr, ST__FEED_NORM, d.T);
        if (d.rope)
            st__ops_memory(&g, "rope", d.rope_b * d.T * (d.da + d.dkv));
    }
    if (w->attention == ST_ATTN_UNFUSED) {
        st__ops_attention_unfused(&g, &d);
    } else {
        size_t from = g.n;
        st__ops_attention(&g, &d, (int)w->attention, w->cudnn_release);
        st__ops_mark_core(&g, from);
    }
    st__ops_linear(&g, &d, "proj", d.T, d.h, d.dv, d.T, ST__FEED_PLAIN, d.Tr); /* row parallel */
    st__ops_memory(&g, "bda1", d.bda * d.Tr * d.h);
    st__ops_memory(&g, "norm2", d.norm * d.Tr * d.h);
    if (d.experts > 0) {
        st__ops_moe_mlp(&g, &d);
    } else {
        /* column parallel; gate and up fused */
        st__ops_linear(&g, &d, "fc1", d.T, d.up, d.h, d.Tr, ST__FEED_NORM, d.T);
        st__ops_memory(&g, "act", d.act * d.T * d.f);
        st__ops_linear(&g, &d, "fc2", d.T, d.h, d.f, d.T, ST__FEED_PLAIN, d.Tr); /* row parallel */
    }
    st__ops_memory(&g, "bda2", d.bda * d.Tr * d.h);
    return g.n;
}

/* One of an MoE model's dense layers is the layer of the same model without experts: the
 * workload is copied with that spec, so the MLP, its TP collectives and the absent all-to-alls
 * all follow from the dense path. */
size_t st_ops_layer_forward_kind(const st_workload_cfg *w, const st_gpu_spec *gpu,
                                 int64_t microbatch, int dense, st_op *ops, size_t cap)
{
    if (!dense || w->model->experts <= 0)
        return st_ops_layer_forward(w, gpu, microbatch, ops, cap);
    st_llm_spec m = st_llm_dense_spec(w->model);
    st_workload_cfg wd = *w;
    wd.model = &m;
    return st_ops_layer_forward(&wd, gpu, microbatch, ops, cap);
}

size_t st_ops_embed_forward(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t microbatch,
                            st_op *ops, size_t cap)
{
    dims d = st__ops_dims_of(w, microbatch);
    builder g = {gpu, ops, cap, 0};
    /* Vocabulary-parallel lookup: every rank writes all T rows (zeros where another rank owns
     * the token) before the all-reduce or reduce-scatter. */
    st__ops_memory(&g, "embed", st__ops_B.lookup * d.T * d.h);
    if (w->model->pos == ST_POS_LEARNED)
        st__ops_memory(&g, "pos", (st__ops_B.lookup + st__ops_B.pos_add) * d.T * d.h);
    if (w->model->embed_norm)
        st__ops_memory(&g, "embed_norm", d.norm * d.Tr * d.h);
    if (d.dropout)
        st__ops_memory(&g, "embed_drop", st__ops_B.dropout * d.Tr * d.h);
    return g.n;
}

size_t st_ops_head_forward(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t microbatch,
                           st_op *ops, size_t cap)
{
    dims d = st__ops_dims_of(w, microbatch);
    builder g = {gpu, ops, cap, 0};
    st__ops_memory(&g, "norm_f", d.norm * d.Tr * d.h);
    st__ops_gemm(&g, "logits", ST_PREC_BF16, d.T, d.v, d.h); /* vocabulary parallel */
    st__ops_memory(&g, "xent", st__ops_B.xent * d.T * d.v);
    return g.n;
}

/* One multi-token prediction module's operators besides its transformer layer (DeepSeek-V3,
 * arXiv 2412.19437, section 2.2; Megatron-Core's MultiTokenPredictionLayer): the shared
 * embedding's lookup of the shifted tokens, the RMSNorms of that embedding and of the previous
 * depth's hidden state, their concatenation projected 2h -> h (a column-parallel linear of the
 * workload's precision), and the shared output head with its loss, as st_ops_head_forward. */
size_t st_ops_mtp_forward(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t microbatch,
                          st_op *ops, size_t cap)
{
    dims d = st__ops_dims_of(w, microbatch);
    builder g = {gpu, ops, cap, 0};
    double t = w->parallel.tp > 1 ? (double)w->parallel.tp : 1.0;
    st__ops_memory(&g, "mtp_embed", st__ops_B.lookup * d.T * d.h);
    st__ops_memory(&g, "mtp_enorm", d.norm * d.Tr * d.h);
    st__ops_memory(&g, "mtp_hnorm", d.norm * d.Tr * d.h);
    st__ops_gemm(&g, "mtp_proj", w->precision, d.T, d.h / t, 2.0 * d.h);
    st__ops_memory(&g, "norm_f", d.norm * d.Tr * d.h);
    st__ops_gemm(&g, "logits", ST_PREC_BF16, d.T, d.v, d.h);
    st__ops_memory(&g, "xent", st__ops_B.xent * d.T * d.v);
    return g.n;
}
