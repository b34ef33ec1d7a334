/* The builder of an operator graph (ops_internal.h, builder): GEMMs, linear layers with their
 * FP8 casts, grouped expert GEMMs and memory operators, each timed as it is pushed, so every
 * graph (ops.c, ops_attn.c, ops_moe.c) sizes its operators one way. */
#include "models/silicon/ops.h"
#include "models/silicon/ops_internal.h"
#include "models/silicon/ops_quant.h"

void st__ops_push(builder *g, st_op op)
{
    st__ops_time_forward(g->gpu, &op);
    if (g->n < g->cap)
        g->ops[g->n] = op;
    g->n++;
}

/* A GEMM Y[m x n] = X[m x k] W[k x n] at prec: inputs read at the precision's width, Y written
 * in BF16. */
static st_op gemm_op(const builder *g, const char *name, st_precision prec, double m, double n,
                     double k)
{
    double in = st_ops_in_bytes(g->gpu, prec);
    st_op op = {.name = name, .kind = ST_OP_GEMM, .m = m, .n = n, .k = k, .prec = prec};
    op.flops = 2.0 * m * n * k;
    op.bytes = (m * k + k * n) * in + m * n * 2.0;
    return op;
}

void st__ops_gemm(builder *g, const char *name, st_precision prec, double m, double n, double k)
{
    st__ops_push(g, gemm_op(g, name, prec, m, n, k));
}

/* A linear layer of the workload's precision. Under FP8 its input x (x_rows x k, produced by
 * x_feed) is quantised before the forward GEMM and its output gradient (dy_rows x n, produced
 * by a plain kernel) before the backward ones (see QUANT). Rows are what this GPU quantises:
 * the sequence-parallel shard where the tensor is then all-gathered in FP8 (Transformer Engine
 * quantises, then gathers), all m tokens otherwise. The quantisation is timed with the GEMM but
 * kept out of its bytes, which stay the GEMM's own. */
void st__ops_linear(builder *g, const dims *d, const char *name, double m, double n, double k,
                    double x_rows, st__ops_feed x_feed, double dy_rows)
{
    st_op op = gemm_op(g, name, d->prec, m, n, k);
    if (st_ops_in_bytes(g->gpu, d->prec) < 2.0) {
        op.quant_fwd_bytes = st__ops_quant_operand(g->gpu, d->fp8_recipe, x_feed, x_rows, m, k);
        op.quant_bwd_bytes =
            st__ops_quant_operand(g->gpu, d->fp8_recipe, ST__FEED_PLAIN, dy_rows, m, n);
        if (d->quant_apart) {
            op.quant_fwd_kernels = st__ops_quant_kernels(g->gpu, d->fp8_recipe, x_feed, x_rows, m);
            op.quant_bwd_kernels =
                st__ops_quant_kernels(g->gpu, d->fp8_recipe, ST__FEED_PLAIN, dy_rows, m);
        }
    }
    st__ops_push(g, op);
}

/* A grouped GEMM of the workload's precision (Megatron-Core's TEGroupedMLP): `count` GEMMs
 * of m x n x k, one per expert on this GPU, each timed at its own shape; FLOPs, bytes and, under
 * FP8, the quantisation of each expert's input (produced by the permutation or the activation,
 * plain kernels) and output gradient are the totals. */
void st__ops_grouped(builder *g, const dims *d, const char *name, double count, double m, double n,
                     double k)
{
    st_op op = gemm_op(g, name, d->eprec, m, n, k);
    op.count = count;
    op.fused_group = d->moe_fused;
    if (d->ewprec != d->eprec) { /* weights stored apart: their own width */
        op.weight_bytes = st_ops_stored_bytes(d->ewprec);
        op.widen = st_ops_widens(g->gpu, d->eprec, d->ewprec);
        op.bytes =
            m * k * st_ops_in_bytes(g->gpu, d->eprec) + k * n * op.weight_bytes + m * n * 2.0;
    }
    op.flops *= count;
    op.bytes *= count;
    if (st_ops_in_bytes(g->gpu, d->eprec) < 2.0) {
        op.quant_fwd_bytes =
            count * st__ops_quant_operand(g->gpu, d->fp8_recipe, ST__FEED_PLAIN, m, m, k);
        op.quant_bwd_bytes =
            count * st__ops_quant_operand(g->gpu, d->fp8_recipe, ST__FEED_PLAIN, m, m, n);
        if (d->quant_apart) { /* every expert's input in one kernel (TE's multi-tensor cast) */
            op.quant_fwd_kernels =
                st__ops_quant_kernels(g->gpu, d->fp8_recipe, ST__FEED_PLAIN, m, m);
            op.quant_bwd_kernels = op.quant_fwd_kernels;
        }
    }
    st__ops_push(g, op);
}

void st__ops_memory(builder *g, const char *name, double bytes)
{
    st_op op = {.name = name, .kind = ST_OP_MEMORY, .bytes = bytes, .prec = ST_PREC_BF16};
    st__ops_push(g, op);
}

void st__ops_mark_core(builder *g, size_t from)
{
    for (size_t i = from; i < g->n && i < g->cap; i++)
        g->ops[i].attn_core = 1;
}
