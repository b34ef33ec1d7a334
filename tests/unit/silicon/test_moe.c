/* Mixture-of-experts layers: the presets' total and activated parameter counts against the
 * published ones (Qwen3 model cards, Mixtral of Experts arXiv 2401.04088), the active-weight
 * FLOPs per token, the operator graph of an MoE layer (shapes, totals, the E/ep grouping), its
 * expert-parallel all-to-alls, and memory per GPU under expert parallelism
 * (docs/models/step-ops.md and docs/models/memory-model.md, "Mixture of experts"). */
#include <check.h>
#include <math.h>
#include <string.h>

#include "models/silicon/llm.h"
#include "models/silicon/ops.h"
#include "models/silicon/parallel.h"
#include "scenarios/catalog.h"
#include "unit/check_util.h"
#include "unit/silicon/ops_find.h"

static const st_llm_spec *model(const char *name)
{
    const st_llm_spec *m = st_catalog_model(name);
    ck_assert_msg(m != NULL, "no preset '%s'", name);
    return m;
}

static const st_gpu_spec *h100(void)
{
    const st_gpu_spec *g = st_catalog_gpu("h100-sxm");
    ck_assert_ptr_nonnull(g);
    return g;
}

/* Qwen3-30B-A3B at seq 4096 on dp x ep GPUs, BF16, flash attention, one micro-batch. */
static st_workload_cfg qwen(int64_t dp, int64_t ep, st_recompute rc)
{
    st_workload_cfg w;
    memset(&w, 0, sizeof w);
    /* balanced routing, so the graph's counts are the mean rank's (models/silicon/ops.h) */
    w.routing_imbalance = 1, w.routing_imbalance_given = 1;
    w.name = "moe";
    w.model = model("qwen3-30b-a3b");
    w.seq_len = 4096;
    w.precision = ST_PREC_BF16;
    w.attention = ST_ATTN_FLASH;
    w.parallel.tp = 1, w.parallel.pp = 1, w.parallel.dp = dp, w.parallel.cp = 1;
    w.parallel.ep = ep, w.parallel.zero = 1, w.parallel.microbatch = 1;
    w.parallel.virtual_stages = 1, w.parallel.recompute = rc;
    w.global_batch = dp;
    w.gpus = dp;
    return w;
}

/* Published totals and activated counts: Qwen/Qwen3-30B-A3B model card (30.5B, 3.3B),
 * Qwen/Qwen3-235B-A22B (235B, 22B), Mixtral of Experts section 2 (46.7B, 12.9B). `digit` is the
 * last digit the activated figure states: the count must be within one of it. Qwen's 3.3B is
 * 3.353B cut to two digits (its card's non-embedding total, 29.9B, matches the count exactly:
 * the activated one counts both embeddings), so 1% would not hold: 1.6%. */
static const struct {
    const char *name;
    double total, active, digit;
} published[] = {
    {"qwen3-30b-a3b", 30.5e9, 3.3e9, 0.1e9},
    {"qwen3-235b-a22b", 235e9, 22e9, 1e9},
    {"mixtral-8x7b", 46.7e9, 12.9e9, 0.1e9},
};

START_TEST(test_total_and_active_params_match_published)
{
    const st_llm_spec *m = model(published[_i].name);
    ck_assert_double_eq(m->published_params, published[_i].total);
    ASSERT_REL(st_llm_params(m, 4096), published[_i].total, 0.01);
    double active = st_llm_active_params(m, 4096);
    ck_assert_msg(fabs(active - published[_i].active) < published[_i].digit,
                  "%s: %.6g activated, published %.6g", m->name, active, published[_i].active);
    /* Activated is well under the total: the k of E experts. */
    ck_assert(active < 0.45 * published[_i].total);
}
END_TEST

START_TEST(test_counts_by_hand)
{
    /* Qwen3-30B-A3B: attention q 2048 x 4096, k and v 2048 x 512, o 4096 x 2048; router
     * 2048 x 128; an expert gate + up 2048 x 1536 and down 768 x 2048; two RMSNorms. */
    const st_llm_spec *m = model("qwen3-30b-a3b");
    double attn = 2048.0 * 4096 + 2 * 2048.0 * 512 + 4096.0 * 2048;
    double expert = 2048.0 * 1536 + 768.0 * 2048, router = 2048.0 * 128;
    ck_assert_double_eq(st_llm_expert_params(m), expert);
    ck_assert_double_eq(st_llm_router_params(m), router);
    ck_assert_double_eq(st_llm_layer_params(m), attn + router + 128 * expert + 2 * 2048.0);
    double edges = 2 * 151936.0 * 2048 + 2048; /* untied embeddings, final norm */
    ck_assert_double_eq(st_llm_params(m, 4096), 48 * st_llm_layer_params(m) + edges);
    ck_assert_double_eq(st_llm_active_params(m, 4096),
                        48 * (attn + router + 8 * expert + 2 * 2048.0) + edges);
    /* A dense model's active count is its total. */
    const st_llm_spec *d = model("llama3-8b");
    ck_assert_double_eq(st_llm_active_params(d, 8192), st_llm_params(d, 8192));
    ck_assert_double_eq(st_llm_expert_params(d), 0);
}
END_TEST

START_TEST(test_flops_count_the_active_weights)
{
    /* 6 x (layers x (attention + router + k experts) + output layer) + 12 L d_attn s. */
    const st_llm_spec *m = model("qwen3-30b-a3b");
    double attn = 2048.0 * 4096 + 2 * 2048.0 * 512 + 4096.0 * 2048;
    double expert = 2048.0 * 1536 + 768.0 * 2048, router = 2048.0 * 128;
    double matmul = 48 * (attn + router + 8 * expert) + 151936.0 * 2048;
    double want = 6 * matmul + 12.0 * 48 * 4096 * 4096;
    ck_assert_double_eq(st_llm_flops_per_token(m, 4096), want);
    ASSERT_REL(want, 27.91e9, 0.001);
    /* The unused dense width has no part in an MoE model's counts. */
    st_llm_spec other = *m;
    other.ffn_hidden = 99999;
    ck_assert_double_eq(st_llm_flops_per_token(&other, 4096), want);
    ck_assert_double_eq(st_llm_params(&other, 4096), st_llm_params(m, 4096));
}
END_TEST

START_TEST(test_moe_layer_graph)
{
    st_workload_cfg w = qwen(8, 8, ST_RECOMPUTE_NONE);
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_layer_forward(&w, h100(), 1, ops, ST_OPS_MAX);
    static const char *const order[] = {
        "norm1",      "qkv",        "rope",          "attn",      "proj",        "bda1",
        "norm2",      "router",     "router_topk",   "permute",   "sort_chunks", "expert_fc1",
        "expert_act", "expert_fc2", "unsort_chunks", "unpermute", "bda2"};
    ck_assert_uint_eq(n, sizeof order / sizeof order[0]);
    for (size_t i = 0; i < n; i++)
        ck_assert_str_eq(ops[i].name, order[i]);
    const double T = 4096, h = 2048, k = 8, fe = 768;
    const st_op *r = find_op(ops, n, "router");
    ck_assert_double_eq(r->m, T);
    ck_assert_double_eq(r->n, 128);
    ck_assert_double_eq(r->k, h);
    /* the top-k reads the BF16 logits and writes BF16 probabilities and a bool map per expert */
    ck_assert_double_eq(find_op(ops, n, "router_topk")->bytes, 5 * T * 128);
    ck_assert_double_eq(find_op(ops, n, "permute")->bytes, 2 * T * h + 2 * k * T * h);
    ck_assert_double_eq(find_op(ops, n, "unpermute")->bytes, 2 * k * T * h + 2 * T * h);
    ck_assert_double_eq(find_op(ops, n, "expert_act")->bytes, 6 * k * T * fe);
    /* 16 local experts: the received rows are sorted by expert and back (read, write). */
    ck_assert_double_eq(find_op(ops, n, "sort_chunks")->bytes, 4 * k * T * h);
    ck_assert_double_eq(find_op(ops, n, "unsort_chunks")->bytes, 4 * k * T * h);
    /* 16 local experts of k T ep / E = 2048 tokens each. */
    const st_op *f1 = find_op(ops, n, "expert_fc1"), *f2 = find_op(ops, n, "expert_fc2");
    ck_assert_double_eq(f1->count, 16);
    ck_assert_double_eq(f1->m, 2048);
    ck_assert_double_eq(f1->n, 2 * fe);
    ck_assert_double_eq(f1->k, h);
    ck_assert_double_eq(f1->flops, 2 * k * T * 2 * fe * h);
    ck_assert_double_eq(f1->bytes, 16 * ((2048 * h + h * 2 * fe) * 2 + 2048 * 2 * fe * 2));
    ck_assert_double_eq(f2->count, 16);
    ck_assert_double_eq(f2->m, 2048);
    ck_assert_double_eq(f2->n, h);
    ck_assert_double_eq(f2->k, fe);
    ck_assert_double_eq(f2->flops, 2 * k * T * fe * h);
    /* The grouped GEMM is timed as count GEMMs of its shape: its time is 16 times that of a
     * 1-expert group of the same shape, forward and backward. */
    st_llm_spec one = *w.model;
    one.experts = 1, one.experts_per_token = 1;
    st_workload_cfg w1 = w;
    w1.model = &one;
    w1.parallel.ep = 1;
    w1.seq_len = 2048; /* k T ep / E = 1 x 2048 x 1 / 1: the same 2048-token GEMM */
    st_op o1[ST_OPS_MAX];
    size_t n1 = st_ops_layer_forward(&w1, h100(), 1, o1, ST_OPS_MAX);
    const st_op *g1 = find_op(o1, n1, "expert_fc1");
    ck_assert_double_eq(g1->m, 2048);
    ASSERT_REL(f1->time_s, 16 * g1->time_s, 1e-12);
    ASSERT_REL(st_ops_backward_time(&w, h100(), f1), 16 * st_ops_backward_time(&w1, h100(), g1),
               1e-12);
}
END_TEST

START_TEST(test_graph_flops_equal_the_model_flops)
{
    /* Layers' forward FLOPs plus the logits GEMM are a third of st_llm_flops_per_token per
     * token, at every ep. */
    for (int64_t ep = 1; ep <= 8; ep *= 2) {
        st_workload_cfg w = qwen(8, ep, ST_RECOMPUTE_NONE);
        st_op ops[ST_OPS_MAX];
        size_t n = st_ops_layer_forward(&w, h100(), 1, ops, ST_OPS_MAX);
        double fwd = 0;
        for (size_t i = 0; i < n; i++)
            fwd += ops[i].flops;
        fwd *= 48;
        n = st_ops_head_forward(&w, h100(), 1, ops, ST_OPS_MAX);
        fwd += find_op(ops, n, "logits")->flops;
        ASSERT_REL(3 * fwd / 4096, st_llm_flops_per_token(w.model, 4096), 1e-12);
    }
}
END_TEST

START_TEST(test_expert_act_follows_kernels_and_fp8_quantises_each_expert)
{
    /* kernels: {act: eager}: F.silu(gate) * up, 10 bytes per element as the dense act. */
    st_workload_cfg w = qwen(8, 8, ST_RECOMPUTE_NONE);
    w.kernels.act = ST_KERNELS_EAGER;
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_layer_forward(&w, h100(), 1, ops, ST_OPS_MAX);
    ck_assert_double_eq(find_op(ops, n, "expert_act")->bytes, 10.0 * 8 * 4096 * 768);
    /* FP8: each expert's input (a plain kernel's output) is quantised, 16 times one expert's
     * cost; the router stays BF16. */
    st_workload_cfg f = qwen(8, 8, ST_RECOMPUTE_NONE);
    f.precision = ST_PREC_FP8;
    f.fp8_recipe = ST_FP8_DELAYED;
    n = st_ops_layer_forward(&f, h100(), 1, ops, ST_OPS_MAX);
    const st_op *f1 = find_op(ops, n, "expert_fc1");
    /* Delayed scaling on Hopper: cast 3 bytes plus the transposed copy 1 per element. */
    ck_assert_double_eq(f1->quant_fwd_bytes, 16 * 2048 * 2048 * 4.0);
    ck_assert_double_eq(f1->quant_bwd_bytes, 16 * 2048 * 1536 * 4.0);
    ck_assert_int_eq(f1->prec, ST_PREC_FP8);
    ck_assert_int_eq(find_op(ops, n, "router")->prec, ST_PREC_BF16);
    ck_assert_double_eq(find_op(ops, n, "router")->quant_fwd_bytes, 0);
}
END_TEST

/* kernels: {permute: eager, router: eager} (Megatron-Core at core_v0.11.0 with its fusions off):
 * the permutation's and unpermutation's PyTorch chains by hand, R = k T routed rows, T tokens,
 * h wide, 2 bytes an element; the router's extra kernels; the default runs neither. */
START_TEST(test_eager_permutation_and_router_by_hand)
{
    st_workload_cfg w = qwen(8, 8, ST_RECOMPUTE_NONE);
    w.kernels.permute = w.kernels.router = ST_KERNELS_EAGER;
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_layer_forward(&w, h100(), 1, ops, ST_OPS_MAX);
    double T = 4096, h = 2048, k = 8, R = k * T;
    const st_op *p = find_op(ops, n, "permute"), *u = find_op(ops, n, "unpermute");
    ck_assert_double_eq_tol(p->bytes, 4 * R * h, 1);               /* index_select */
    ck_assert_double_eq_tol(p->bwd_bytes, (2 * R + 6 * T) * h, 1); /* zeros, index_add_ */
    ck_assert_double_eq(p->extra_kernels_fwd, 6);
    ck_assert_double_eq(p->extra_kernels_bwd, 1);
    ck_assert_double_eq_tol(u->bytes, (6 * R + 6 * T) * h, 1);
    ck_assert_double_eq_tol(u->bwd_bytes, 16 * R * h, 1);
    const st_op *r = find_op(ops, n, "router_eager");
    ck_assert_ptr_nonnull(r);
    ck_assert_double_eq(r->extra_kernels_fwd, 13 + 8 - 2); /* no capacity factor */
    ck_assert_double_eq(r->extra_kernels_bwd, 7 + 10 - 2);
    /* each extra kernel pays a boundary: the eager permutation is slower than the fused */
    st_workload_cfg f = qwen(8, 8, ST_RECOMPUTE_NONE);
    st_op fo[ST_OPS_MAX];
    size_t fn = st_ops_layer_forward(&f, h100(), 1, fo, ST_OPS_MAX);
    for (size_t i = 0; i < fn; i++)
        ck_assert_str_ne(fo[i].name, "router_eager");
    const st_op *fp = find_op(fo, fn, "permute");
    ck_assert_double_gt(p->time_s, fp->time_s + 6 * st_kernel_boundary_s(h100()) * 0.999);
    ck_assert_double_gt(st_ops_backward_time(&w, h100(), u),
                        st_ops_backward_time(&f, h100(), find_op(fo, fn, "unpermute")));
    /* a capacity factor adds the top-capacity mask's 6 kernels */
    w.capacity_factor = 1.0;
    n = st_ops_layer_forward(&w, h100(), 1, ops, ST_OPS_MAX);
    ck_assert_double_eq(find_op(ops, n, "router_eager")->extra_kernels_fwd, 13 + 6 + 8 - 2);
}
END_TEST

START_TEST(test_expert_flops_do_not_depend_on_ep)
{
    st_workload_cfg w8 = qwen(8, 8, ST_RECOMPUTE_NONE), w1 = qwen(8, 1, ST_RECOMPUTE_NONE);
    st_op a[ST_OPS_MAX], b[ST_OPS_MAX];
    size_t na = st_ops_layer_forward(&w8, h100(), 1, a, ST_OPS_MAX);
    size_t nb = st_ops_layer_forward(&w1, h100(), 1, b, ST_OPS_MAX);
    const st_op *x = find_op(a, na, "expert_fc1"), *y = find_op(b, nb, "expert_fc1");
    ck_assert_double_eq(x->flops, y->flops);
    ck_assert_double_eq(y->count, 128);
    ck_assert_double_eq(y->m, 256);
    /* Without EP the permutation already sorts the rows by expert: no second sort. */
    ck_assert_uint_eq(nb + 2, na);
    for (size_t i = 0; i < nb; i++)
        ck_assert(strstr(b[i].name, "sort_chunks") == NULL);
    /* 128 GEMMs of 256 tokens run less efficiently than 16 of 2048. */
    ck_assert(y->time_s > x->time_s);
}
END_TEST

/* The routing imbalance (docs/models/step-ops.md, "Routing imbalance"): the most loaded EP
 * rank's expert rows, its sorts and activation and the all-to-alls scale by I; the permutation
 * of its own tokens before the dispatch does not; unstated, the default applies at ep > 1 and
 * nothing at ep 1; the memory peak grows with it. */
START_TEST(test_routing_imbalance_scales_the_hot_rank)
{
    st_op a[ST_OPS_MAX], b[ST_OPS_MAX];
    st_workload_cfg w1 = qwen(8, 8, ST_RECOMPUTE_NONE), wi = w1;
    wi.routing_imbalance = 1.5;
    size_t na = st_ops_layer_forward(&w1, h100(), 1, a, ST_OPS_MAX);
    size_t nb = st_ops_layer_forward(&wi, h100(), 1, b, ST_OPS_MAX);
    ck_assert_uint_eq(na, nb);
    ASSERT_REL(find_op(b, nb, "expert_fc1")->m, 1.5 * find_op(a, na, "expert_fc1")->m, 1e-12);
    ASSERT_REL(find_op(b, nb, "expert_act")->bytes, 1.5 * find_op(a, na, "expert_act")->bytes,
               1e-12);
    ASSERT_REL(find_op(b, nb, "sort_chunks")->bytes, 1.5 * find_op(a, na, "sort_chunks")->bytes,
               1e-12);
    ck_assert_double_eq(find_op(b, nb, "permute")->bytes, find_op(a, na, "permute")->bytes);
    ck_assert(find_op(b, nb, "expert_fc2")->time_s > find_op(a, na, "expert_fc2")->time_s);
    st_layer_cost c1, ci;
    st_ops_layer_cost(&w1, h100(), 1, &c1);
    st_ops_layer_cost(&wi, h100(), 1, &ci);
    ASSERT_REL(ci.ep_a2a_bytes, 1.5 * c1.ep_a2a_bytes, 1e-12);
    st_memory m1, mi;
    st_memory_estimate(&w1, h100(), 1, &m1);
    st_memory_estimate(&wi, h100(), 1, &mi);
    ck_assert(mi.term[ST_MEM_ACTIVATIONS] > m1.term[ST_MEM_ACTIVATIONS]);
    /* unstated: the default at ep 8, none at ep 1 */
    st_workload_cfg wd = w1;
    wd.routing_imbalance_given = 0;
    ck_assert(st_moe_imbalance(&wd) > 1.5 && st_moe_imbalance(&wd) < 1.7);
    st_workload_cfg e1 = qwen(8, 1, ST_RECOMPUTE_NONE);
    e1.routing_imbalance_given = 0;
    ck_assert_double_eq(st_moe_imbalance(&e1), 1.0);
}
END_TEST

/* Token dropping: an expert keeps at most capacity_factor times its mean rows, so the busiest
 * rank's rows are capped there; padded, every expert runs exactly its capacity, above or below
 * what routing would give it; at ep 1 a padded layer runs capacity_factor times the rows. */
START_TEST(test_capacity_factor_caps_the_hot_rank)
{
    st_workload_cfg w = qwen(8, 8, ST_RECOMPUTE_NONE), c = w;
    w.routing_imbalance = 1.5;
    c = w;
    c.capacity_factor = 1.25;
    ck_assert_double_eq(st_moe_imbalance(&c), 1.25);
    ck_assert_double_eq(st_moe_routing(&c), 1.5);
    c.capacity_factor = 2;
    ck_assert_double_eq(st_moe_imbalance(&c), 1.5); /* above the routing's: nothing dropped */
    c.pad_to_capacity = 1;
    ck_assert_double_eq(st_moe_imbalance(&c), 2); /* padded to it */
    st_op a[ST_OPS_MAX], b[ST_OPS_MAX];
    size_t na = st_ops_layer_forward(&w, h100(), 1, a, ST_OPS_MAX);
    size_t nb = st_ops_layer_forward(&c, h100(), 1, b, ST_OPS_MAX);
    ASSERT_REL(find_op(b, nb, "expert_fc1")->m, 2 / 1.5 * find_op(a, na, "expert_fc1")->m, 1e-12);
    st_workload_cfg e1 = qwen(8, 1, ST_RECOMPUTE_NONE);
    e1.capacity_factor = 1.25;
    e1.pad_to_capacity = 1;
    ck_assert_double_eq(st_moe_imbalance(&e1), 1.25);
}
END_TEST

/* Expert tensor parallelism: at ep 4 x etp 2 on 8 GPUs a GPU holds twice ep 8's experts, each
 * GEMM over as many rows (its EP group's rows for the expert and its etp pair's, gathered) at
 * half the width, so a GPU's expert FLOPs and expert parameters are ep 8's; the etp group's
 * gather and reduce-scatter appear, each over the gathered rows. */
START_TEST(test_expert_tensor_parallelism_splits_the_experts)
{
    st_workload_cfg w8 = qwen(8, 8, ST_RECOMPUTE_NONE), w42 = qwen(8, 4, ST_RECOMPUTE_NONE);
    w42.parallel.etp = 2;
    st_op a[ST_OPS_MAX], b[ST_OPS_MAX];
    size_t na = st_ops_layer_forward(&w8, h100(), 1, a, ST_OPS_MAX);
    size_t nb = st_ops_layer_forward(&w42, h100(), 1, b, ST_OPS_MAX);
    const st_op *f8 = find_op(a, na, "expert_fc1"), *f42 = find_op(b, nb, "expert_fc1");
    ASSERT_REL(f42->m, f8->m, 1e-12);
    ASSERT_REL(f42->n, f8->n / 2, 1e-12);
    ASSERT_REL(f42->count, 2 * f8->count, 1e-12);
    ASSERT_REL(f42->flops, f8->flops, 1e-12);
    st_layer_cost c8, c42;
    st_ops_layer_cost(&w8, h100(), 1, &c8);
    st_ops_layer_cost(&w42, h100(), 1, &c42);
    ck_assert_int_eq(c8.etp_colls_fwd, 0);
    ck_assert_int_eq(c42.etp_colls_fwd, 2);
    ck_assert_int_eq(c42.etp_colls_bwd, 2);
    ASSERT_REL(c42.etp_bytes, 2 * c42.ep_a2a_bytes, 1e-12);
    st_memory m8, m42;
    st_memory_estimate(&w8, h100(), 1, &m8);
    st_memory_estimate(&w42, h100(), 1, &m42);
    ASSERT_REL(m42.expert_params_per_gpu, m8.expert_params_per_gpu, 1e-9);
    /* and the optimizer's share of them: the same expert-data-parallel group of 1 */
    ASSERT_REL(st_ops_optimizer_time(&w42, h100()), st_ops_optimizer_time(&w8, h100()), 1e-9);
}
END_TEST

START_TEST(test_all_to_alls_per_layer)
{
    st_layer_cost c;
    st_workload_cfg w = qwen(8, 8, ST_RECOMPUTE_NONE);
    st_ops_layer_cost(&w, h100(), 1, &c);
    ck_assert_int_eq(c.ep_a2a_fwd, 2);
    ck_assert_int_eq(c.ep_a2a_bwd, 2);
    ck_assert_int_eq(c.ep_a2a_recompute, 0);
    ck_assert_double_eq(c.ep_a2a_bytes, 8.0 * 4096 * 2048 * 2);
    w.parallel.recompute = ST_RECOMPUTE_SELECTIVE;
    st_ops_layer_cost(&w, h100(), 1, &c);
    ck_assert_int_eq(c.ep_a2a_recompute, 0);
    w.parallel.recompute = ST_RECOMPUTE_FULL;
    st_ops_layer_cost(&w, h100(), 1, &c);
    ck_assert_int_eq(c.ep_a2a_recompute, 2);
    /* FP8 does not change the dispatched bytes. */
    w.precision = ST_PREC_FP8;
    st_ops_layer_cost(&w, h100(), 1, &c);
    ck_assert_double_eq(c.ep_a2a_bytes, 8.0 * 4096 * 2048 * 2);
    st_workload_cfg one = qwen(8, 1, ST_RECOMPUTE_FULL);
    st_ops_layer_cost(&one, h100(), 1, &c);
    ck_assert_int_eq(c.ep_a2a_fwd + c.ep_a2a_bwd + c.ep_a2a_recompute, 0);
    ck_assert_double_eq(c.ep_a2a_bytes, 0);
}
END_TEST

static st_memory estimate(const st_workload_cfg *w)
{
    st_memory m;
    st_memory_estimate(w, h100(), 1, &m);
    return m;
}

START_TEST(test_memory_falls_with_ep_for_the_expert_terms_only)
{
    const st_llm_spec *q = model("qwen3-30b-a3b");
    double experts = 48.0 * 128 * st_llm_expert_params(q);
    st_memory m1, m8;
    st_workload_cfg w1 = qwen(8, 1, ST_RECOMPUTE_NONE), w8 = qwen(8, 8, ST_RECOMPUTE_NONE);
    m1 = estimate(&w1);
    m8 = estimate(&w8);
    ck_assert_double_eq(m1.expert_params_per_gpu, experts);
    ASSERT_REL(m8.expert_params_per_gpu, experts / 8, 1e-12);
    ASSERT_REL(m1.params_per_gpu - m8.params_per_gpu, experts * 7 / 8, 1e-12);
    ASSERT_REL(m1.term[ST_MEM_WEIGHTS] - m8.term[ST_MEM_WEIGHTS], 2 * experts * 7 / 8, 1e-12);
    ASSERT_REL(m1.term[ST_MEM_GRADS] - m8.term[ST_MEM_GRADS], 4 * experts * 7 / 8, 1e-12);
    /* ZeRO 1 shards the expert states over edp = 8 / ep: at ep 1 all experts over 8 ranks, at
     * ep 8 an eighth of them over one rank, the same bytes; the dense states over dp = 8. */
    ASSERT_REL(m1.term[ST_MEM_OPTIMIZER], m8.term[ST_MEM_OPTIMIZER], 1e-12);
    double dense = m8.params_per_gpu - m8.expert_params_per_gpu;
    ASSERT_REL(m8.term[ST_MEM_OPTIMIZER], 12 * (dense / 8 + experts / 8), 1e-12);
    ck_assert_double_eq(m1.term[ST_MEM_ACTIVATIONS], m8.term[ST_MEM_ACTIVATIONS]);
    /* The checkpoint holds every parameter. */
    ck_assert_double_eq(m8.checkpoint_bytes, 14 * st_llm_params(q, 4096));
    /* With ZeRO 0 the expert optimizer states fall with ep too. */
    w1.parallel.zero = w8.parallel.zero = 0;
    m1 = estimate(&w1);
    m8 = estimate(&w8);
    ASSERT_REL(m1.term[ST_MEM_OPTIMIZER] - m8.term[ST_MEM_OPTIMIZER], 12 * experts * 7 / 8, 1e-12);
}
END_TEST

START_TEST(test_reserved_counts_the_expert_communicators)
{
    /* The CUDA context (400 MB) and 688 MB per NCCL communicator: dp, then ep (ep 8: edp is
     * one GPU) or edp (ep 1: the expert-data-parallel group spans the 8 GPUs). */
    st_workload_cfg w8 = qwen(8, 8, ST_RECOMPUTE_NONE), w1 = qwen(8, 1, ST_RECOMPUTE_NONE);
    ck_assert_double_eq(st_memory_reserved(&w8), 400e6 + 2 * 688e6);
    ck_assert_double_eq(st_memory_reserved(&w1), 400e6 + 2 * 688e6);
    st_workload_cfg w4 = qwen(8, 4, ST_RECOMPUTE_NONE);
    ck_assert_double_eq(st_memory_reserved(&w4), 400e6 + 3 * 688e6);
}
END_TEST

START_TEST(test_optimizer_shards_the_experts_over_edp)
{
    /* Adam's 38 bytes per parameter of the GPU's shard: the dense parameters over dp = 8, the
     * experts over edp = 8 / ep; then the fp32 gradient memset (zero 1: all of them). */
    const st_gpu_spec *g = h100();
    double bw = st_hbm_efficiency(g) * g->hbm_bw;
    for (int64_t ep = 1; ep <= 8; ep *= 8) {
        st_workload_cfg w = qwen(8, ep, ST_RECOMPUTE_NONE);
        st_memory m = estimate(&w);
        double dense = m.params_per_gpu - m.expert_params_per_gpu;
        double shard = dense / 8 + m.expert_params_per_gpu / (8.0 / (double)ep);
        ASSERT_REL(st_ops_optimizer_time(&w, g) * bw, 38 * shard + 4 * m.params_per_gpu, 1e-12);
        /* bf16 moments pass through fp32 copies in Transformer Engine's FusedAdam: 24 bytes
         * each where fp32 moments take 8 */
        w.parallel.adam_bf16 = 1;
        ASSERT_REL(st_ops_optimizer_time(&w, g) * bw, 70 * shard + 4 * m.params_per_gpu, 1e-12);
    }
}
END_TEST

START_TEST(test_router_is_replicated_over_tp)
{
    /* tp 2 halves attention but not the router nor the experts (expert tensor parallelism 1). */
    const st_llm_spec *q = model("qwen3-30b-a3b");
    st_workload_cfg w = qwen(4, 8, ST_RECOMPUTE_NONE);
    w.parallel.tp = 2, w.parallel.sequence_parallel = 1, w.gpus = 8;
    st_memory m = estimate(&w);
    double attn = 2048.0 * 4096 + 2 * 2048.0 * 512 + 4096.0 * 2048;
    double layer =
        attn / 2 + 2 * 2048.0 + st_llm_router_params(q) + 128.0 / 8 * st_llm_expert_params(q);
    double emb = 151936.0 * 2048 / 2;
    ASSERT_REL(m.params_per_gpu, 48 * layer + 2 * emb + 2048, 1e-12);
}
END_TEST

START_TEST(test_moe_layer_activations)
{
    /* Selective recompute, flash attention, no sequence parallelism: 8sbh (norms, QKV and
     * router inputs), 4sb(da + dkv) (Q, K, V, proj input), the log-sum-exp, and the MoE MLP:
     * 2k T (h + 2 f_e + f_e) + 4 T E. */
    st_workload_cfg w = qwen(8, 8, ST_RECOMPUTE_SELECTIVE);
    double s = 4096, h = 2048, da = 4096, dkv = 512, k = 8, fe = 768, E = 128;
    double want = 8 * s * h + 4 * s * (da + dkv) + 2 * k * s * (h + 2 * fe + fe) + 4 * s * E;
    ck_assert_double_eq(st_memory_layer_activations(&w, 1), want);
    /* Under FP8 the linear layers keep their FP8 inputs: the QKV and MLP inputs (2sbh less),
     * the proj input (sb da less), and the two expert GEMMs' inputs (k T (h + f_e) less,
     * Transformer Engine's GroupedLinear); the fc1 output stays BF16. */
    w.precision = ST_PREC_FP8;
    double fp8 = want - 2 * s * h - s * da - k * s * (h + fe);
    ck_assert_double_eq(st_memory_layer_activations(&w, 1), fp8);
    w.precision = ST_PREC_BF16;
    /* Full recompute keeps the layer input only, as for a dense layer. */
    w.parallel.recompute = ST_RECOMPUTE_FULL;
    ck_assert_double_eq(st_memory_layer_activations(&w, 1), 2 * s * h);
}
END_TEST

/* A batch of few tokens reaches few experts: at one token Qwen3-30B-A3B's router sends it to 8
 * of 128, and the grouped GEMMs run those 8 (reading their weights alone) with one row each;
 * at 4096 tokens every expert runs, 4096 x 8 / 128 = 256 rows each. A serving replica's
 * plan: tp 2 without sequence parallelism, each expert split over both ranks, every rank the
 * whole batch. */
START_TEST(test_a_small_batch_runs_the_experts_it_reaches)
{
    st_workload_cfg w = qwen(1, 1, ST_RECOMPUTE_NONE);
    w.seq_len = 1;
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_layer_forward(&w, h100(), 1, ops, ST_OPS_MAX);
    const st_op *fc1 = find_op(ops, n, "expert_fc1");
    ck_assert_double_eq_tol(fc1->count, 8, 1e-9);
    ck_assert_double_eq_tol(fc1->m, 1, 1e-9);
    w.seq_len = 4096;
    n = st_ops_layer_forward(&w, h100(), 1, ops, ST_OPS_MAX);
    fc1 = find_op(ops, n, "expert_fc1");
    ck_assert_double_eq(fc1->count, 128);
    ck_assert_double_eq(fc1->m, 256);
    /* a 16-token batch: 128 (1 - (120/128)^16) experts, 16 x 8 rows among them */
    w.seq_len = 16;
    n = st_ops_layer_forward(&w, h100(), 1, ops, ST_OPS_MAX);
    fc1 = find_op(ops, n, "expert_fc1");
    double busy = 128 * (1 - pow(120.0 / 128.0, 16));
    ck_assert_double_eq_tol(fc1->count, busy, 1e-9);
    ck_assert_double_eq_tol(fc1->m * fc1->count, 16 * 8, 1e-9);
    /* the serving plan: every TP rank holds the same tokens, so an expert's rows are k T / E,
     * not gathered over its etp ranks */
    w.parallel.tp = 2, w.parallel.etp = 2, w.parallel.sequence_parallel = 0;
    w.seq_len = 4096;
    n = st_ops_layer_forward(&w, h100(), 1, ops, ST_OPS_MAX);
    fc1 = find_op(ops, n, "expert_fc1");
    ck_assert_double_eq(fc1->count, 128);
    ck_assert_double_eq(fc1->m, 256);
}
END_TEST

Suite *moe_suite(void)
{
    Suite *s = suite_create("moe");
    TCase *tc = tcase_create("moe");
    tcase_add_loop_test(tc, test_total_and_active_params_match_published, 0,
                        (int)(sizeof published / sizeof published[0]));
    tcase_add_test(tc, test_counts_by_hand);
    tcase_add_test(tc, test_flops_count_the_active_weights);
    tcase_add_test(tc, test_moe_layer_graph);
    tcase_add_test(tc, test_graph_flops_equal_the_model_flops);
    tcase_add_test(tc, test_expert_act_follows_kernels_and_fp8_quantises_each_expert);
    tcase_add_test(tc, test_expert_flops_do_not_depend_on_ep);
    tcase_add_test(tc, test_eager_permutation_and_router_by_hand);
    tcase_add_test(tc, test_all_to_alls_per_layer);
    tcase_add_test(tc, test_memory_falls_with_ep_for_the_expert_terms_only);
    tcase_add_test(tc, test_reserved_counts_the_expert_communicators);
    tcase_add_test(tc, test_optimizer_shards_the_experts_over_edp);
    tcase_add_test(tc, test_router_is_replicated_over_tp);
    tcase_add_test(tc, test_moe_layer_activations);
    tcase_add_test(tc, test_routing_imbalance_scales_the_hot_rank);
    tcase_add_test(tc, test_capacity_factor_caps_the_hot_rank);
    tcase_add_test(tc, test_expert_tensor_parallelism_splits_the_experts);
    tcase_add_test(tc, test_a_small_batch_runs_the_experts_it_reaches);
    suite_add_tcase(s, tc);
    return s;
}
