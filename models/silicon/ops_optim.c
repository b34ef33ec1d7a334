/* The optimizer step and the separate gradient-accumulation pass: memory-bound passes over the
 * parameters a GPU updates, beside the layer operator graph of models/silicon/ops.c.
 * docs/models/step-ops.md, "Optimizer". */
#include "models/silicon/gpu.h"
#include "models/silicon/ops.h"
#include "models/silicon/parallel.h"

/* Bytes per parameter of the two passes, in one table with their sources. */
static const struct optim_bytes {
    double accum;        /* per parameter, the separate accumulation pass, per micro-batch */
    double optim;        /* per parameter updated */
    double bf16_moments; /* per parameter updated, added with adam_moments: bf16 */
} OPT = {
    /* grad_accum: separate (DeepSpeed's BF16 optimizer): after each micro-batch's backward,
     * update_hp_grads runs hp_grad.add_(lp.grad.to(float32)) per parameter: read the bf16
     * gradient (2), write the fp32 copy (4), read it back and the fp32 accumulator (4 + 4),
     * write the accumulator (4). 18 bytes per parameter per micro-batch
     * (deepspeed/runtime/bf16_optimizer.py, deepspeed/runtime/pipe/engine.py
     * _exec_backward_pass). */
    .accum = 18,
    /* Mixed-precision Adam (Megatron's fused Adam over the distributed optimizer's shard): reads
     * the fp32 gradient, master weight, m and v (16) and writes master, m and v (12); copying
     * the master weight to the bf16 model weight reads 4 and writes 2; the gradient norm for
     * clipping reads the gradient again (4). 38 bytes per parameter. */
    .optim = 38,
    /* adam_moments: bf16 (Transformer Engine's FusedAdam with exp_avg_dtype and
     * exp_avg_sq_dtype bf16, transformer_engine/pytorch/optimizers/fused_adam.py at 04912bf):
     * step() unscales each non-fp32 state into a temporary fp32 copy (get_unscaled_state's
     * .float(): read 2, write 4), runs the fp32 kernel on it (read 4 and write 4, as counted in
     * optim), then writes it back (_apply_scale's copy_(unscaled.bfloat16()): read 4, write a
     * bf16 temporary 2, copy it, read 2 and write 2). Each moment's 8 bytes become 24: 32 more
     * per parameter for m and v. */
    .bf16_moments = 32,
};

/* A pass of `bytes` at the achievable HBM bandwidth (models/silicon/gemm_eff.c). */
static double hbm_time(const st_gpu_spec *gpu, double bytes)
{
    return bytes / (st_hbm_efficiency(gpu) * gpu->hbm_bw);
}

static double ranks(int64_t v)
{
    return v < 1 ? 1.0 : (double)v;
}

double st_ops_grad_accum_time(const st_workload_cfg *w, const st_gpu_spec *gpu, double params)
{
    return w->parallel.grad_accum_separate ? hbm_time(gpu, params * OPT.accum) : 0.0;
}

double st_ops_optimizer_bytes_per_param(void)
{
    return OPT.optim;
}

double st_ops_optimizer_time(const st_workload_cfg *w, const st_gpu_spec *gpu)
{
    st_memory mem;
    st_memory_estimate(w, gpu, w->parallel.microbatch, &mem);
    double params = mem.params_per_gpu;
    /* ZeRO 1 and up shard the optimizer over the data-parallel ranks, which include cp
     * (Megatron-LM's distributed optimizer; models/silicon/parallel.c shards memory the same way).
     */
    double shards = ranks(w->parallel.dp) * ranks(w->parallel.cp);
    double adam = w->parallel.zero >= 1 ? params / shards : params;
    /* An MoE model's experts are sharded over their expert-data-parallel group instead
     * (edp = tp*cp*dp / (ep etp) ranks), as their memory is. */
    double experts = mem.expert_params_per_gpu;
    double edp = ranks(w->parallel.tp) * shards / (ranks(w->parallel.ep) * ranks(w->parallel.etp));
    if (experts > 0 && w->parallel.zero >= 1)
        adam = (params - experts) / shards + experts / edp;
    /* Then the gradient buffer is zeroed for the next step (Megatron-LM's zero_grad_buffer, a
     * memset of every gradient the GPU keeps: all of its slice's, or its shard under ZeRO 2 and
     * 3), 4 bytes each in fp32 and 2 with grad_reduce: bf16. */
    double grads = w->parallel.zero >= 2 ? params / shards : params;
    if (experts > 0 && w->parallel.zero >= 2)
        grads = adam;
    double zero = grads * (w->parallel.grad_bf16 ? 2.0 : 4.0);
    double per = OPT.optim + (w->parallel.adam_bf16 ? OPT.bf16_moments : 0.0);
    return hbm_time(gpu, adam * per + zero);
}
