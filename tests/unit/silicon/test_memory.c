/* The memory model against Korthikanti et al. 2022 (eq. 1-6, the selective-recompute savings
 * of §5), Megatron-LM's distributed-optimizer byte counts, the published checkpoint sizes
 * (Narayanan et al. SC21 section 5.10; BigScience's BLOOM README), and Llama 3 405B's plan on H100.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "models/silicon/parallel.h"
#include "scenarios/catalog.h"
#include "unit/check_util.h"

/* A workload is plain data: fill it by hand. One micro-batch per step unless changed. */
static st_workload_cfg plan(const char *name, int64_t seq, int64_t tp, int64_t pp, int64_t dp,
                            int sp, st_recompute rc)
{
    st_workload_cfg w;
    memset(&w, 0, sizeof w);
    w.name = "test";
    w.model = st_catalog_model(name);
    ck_assert_msg(w.model != NULL, "no preset '%s'", name);
    w.seq_len = seq;
    w.precision = ST_PREC_BF16;
    /* Korthikanti et al. 2022 count the stored score matrix: Megatron before FlashAttention. */
    w.attention = ST_ATTN_UNFUSED;
    w.parallel.tp = tp, w.parallel.pp = pp, w.parallel.dp = dp, w.parallel.cp = 1;
    w.parallel.zero = 1, w.parallel.microbatch = 1, w.parallel.virtual_stages = 1;
    w.parallel.sequence_parallel = sp, w.parallel.recompute = rc;
    w.global_batch = 0; /* no cap on the micro-batches in flight */
    w.gpus = tp * pp * dp;
    return w;
}

static st_memory estimate(const st_workload_cfg *w, const char *gpu)
{
    st_memory m;
    const st_gpu_spec *g = st_catalog_gpu(gpu);
    ck_assert_ptr_nonnull(g);
    st_memory_estimate(w, g, w->parallel.microbatch, &m);
    return m;
}

/* Korthikanti symbols for a workload's model: s, b, h, a, and the layer count. */
typedef struct syms {
    double s, b, h, a, l;
} syms;

static syms syms_of(const st_workload_cfg *w, int64_t b)
{
    syms y = {(double)w->seq_len, (double)b, (double)w->model->hidden, (double)w->model->heads,
              (double)w->model->layers};
    return y;
}

START_TEST(test_layer_activations_follow_korthikanti_eq1_to_eq6)
{
    static const char *const names[] = {"gpt-22b", "gpt3-175b", "gpt-530b", "gpt-1t"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        st_workload_cfg w = plan(names[i], 2048, 1, 1, 1, 0, ST_RECOMPUTE_NONE);
        syms y = syms_of(&w, 2);
        double sbh = y.s * y.b * y.h, t = 8, as_h = y.a * y.s / y.h;
        /* eq. 1: no parallelism */
        ASSERT_REL(st_memory_layer_activations(&w, 2), sbh * (34 + 5 * as_h), 1e-12);
        /* eq. 2: tensor parallelism */
        w.parallel.tp = 8;
        ASSERT_REL(st_memory_layer_activations(&w, 2), sbh * (10 + 24 / t + 5 * as_h / t), 1e-12);
        /* eq. 4: tensor and sequence parallelism */
        w.parallel.sequence_parallel = 1;
        ASSERT_REL(st_memory_layer_activations(&w, 2), sbh / t * (34 + 5 * as_h), 1e-12);
        /* eq. 6: and selective recompute */
        w.parallel.recompute = ST_RECOMPUTE_SELECTIVE;
        ASSERT_REL(st_memory_layer_activations(&w, 2), 34 * sbh / t, 1e-12);
        /* full recompute keeps the layer input, split by TP only with sequence parallelism */
        w.parallel.recompute = ST_RECOMPUTE_FULL;
        ASSERT_REL(st_memory_layer_activations(&w, 2), 2 * sbh / t, 1e-12);
        w.parallel.sequence_parallel = 0;
        ASSERT_REL(st_memory_layer_activations(&w, 2), 2 * sbh, 1e-12);
    }
}
END_TEST

/* Korthikanti §5: selective recompute saves 70% of activation memory for GPT-3 and 65% for
 * MT-NLG (the 5as/h share of 34 + 5as/h). */
START_TEST(test_selective_recompute_saves_70pct_for_gpt3_and_65pct_for_mtnlg)
{
    static const struct {
        const char *name;
        double saved_pct;
    } cases[] = {{"gpt3-175b", 70}, {"gpt-530b", 65}};
    for (size_t i = 0; i < 2; i++) {
        st_workload_cfg w = plan(cases[i].name, 2048, 8, 1, 1, 1, ST_RECOMPUTE_NONE);
        double none = st_memory_layer_activations(&w, 1);
        w.parallel.recompute = ST_RECOMPUTE_SELECTIVE;
        double sel = st_memory_layer_activations(&w, 1);
        ck_assert_double_eq(round(100 * (1 - sel / none)), cases[i].saved_pct);
    }
}
END_TEST

/* torchtitan's per-op policy (recompute: op) on Llama 3 8B, one sequence of 8192, no TP: the
 * block input and the odd mms' outputs (wq, wv, w1, w2), 2sb(h + da + dkv + f + h); with
 * PyTorch's flash op also the attention output 2sb da and the fp32 log-sum-exp 4asb. On a
 * B200 the core is cuDNN's and recomputed, and the whole estimate keeps less than selective's. */
START_TEST(test_op_recompute_keeps_what_torchtitan_saves)
{
    st_workload_cfg w = plan("llama3-8b", 8192, 1, 1, 8, 0, ST_RECOMPUTE_OP);
    w.attention = ST_ATTN_FLASH2;
    double s = 8192, h = 4096, da = 4096, dkv = 1024, f = 14336, a = 32;
    double kept = 2 * s * (h + da + dkv + f + h);
    ASSERT_REL(st_memory_layer_activations(&w, 1), kept + 2 * s * da + 4 * a * s, 1e-12);
    w.attention = ST_ATTN_FLASH;
    w.parallel.zero = 3;
    st_memory b200 = estimate(&w, "b200");
    double layers = (double)w.model->layers;
    w.parallel.recompute = ST_RECOMPUTE_SELECTIVE;
    st_memory sel = estimate(&w, "b200");
    /* the activation term: layers x what one layer keeps, plus one layer's recompute transient
     * (what it does not keep) and the head's inputs and logits, which both plans share;
     * selective's transient is the log-sum-exp 4as */
    double head =
        sel.term[ST_MEM_ACTIVATIONS] - layers * st_memory_layer_activations(&w, 1) - 4 * a * s;
    w.parallel.recompute = ST_RECOMPUTE_NONE;
    double none = st_memory_layer_activations(&w, 1);
    ASSERT_REL(b200.term[ST_MEM_ACTIVATIONS], layers * kept + (none - kept) + head, 1e-12);
    ck_assert(b200.total < sel.total);
}
END_TEST

/* The 22B model of Korthikanti Table 3 with t = 8, b = 4 and both techniques: 34 sbh / t. */
START_TEST(test_22b_layer_with_both_techniques_is_34sbh_over_t)
{
    st_workload_cfg w = plan("gpt-22b", 2048, 8, 1, 1, 1, ST_RECOMPUTE_SELECTIVE);
    ASSERT_REL(st_memory_layer_activations(&w, 4), 34.0 * 2048 * 4 * 6144 / 8, 1e-12);
}
END_TEST

/* Generalisation to GQA and SwiGLU without dropout: replicated 8sbh (two norm inputs, QKV and
 * MLP inputs) and split sb(4 da + 4 dkv + 6f) plus, without recompute, the softmax output
 * 2as^2b. */
START_TEST(test_swiglu_gqa_layer_follows_the_documented_breakdown)
{
    st_workload_cfg w = plan("llama3-70b", 8192, 8, 1, 1, 1, ST_RECOMPUTE_SELECTIVE);
    double s = 8192, b = 1, h = 8192, da = 8192, dkv = 1024, f = 28672, t = 8, a = 64;
    double sel = (8 * s * b * h + s * b * (4 * da + 4 * dkv + 6 * f)) / t;
    ASSERT_REL(st_memory_layer_activations(&w, 1), sel, 1e-12);
    w.parallel.recompute = ST_RECOMPUTE_NONE;
    ASSERT_REL(st_memory_layer_activations(&w, 1), sel + 2 * a * s * s * b / t, 1e-12);
}
END_TEST

/* A Llama-style spec reshaped into GPT's (GeLU, f = 4h, no GQA, dropout) gives the paper's
 * formula back: the generalisation contains it. */
START_TEST(test_generalisation_reduces_to_the_paper_for_gpt_shapes)
{
    st_llm_spec m = *st_catalog_model("llama3-8b");
    m.mlp = ST_MLP_GELU, m.ffn_hidden = 4 * m.hidden, m.kv_heads = m.heads;
    m.dropout = ST_DROPOUT_ON;
    st_workload_cfg w = plan("llama3-8b", 4096, 4, 1, 1, 0, ST_RECOMPUTE_NONE);
    w.model = &m;
    double sbh = 4096.0 * 3 * 4096, as_h = 32.0 * 4096 / 4096;
    ASSERT_REL(st_memory_layer_activations(&w, 3), sbh * (10 + 24 / 4.0 + 5 * as_h / 4), 1e-12);
}
END_TEST

START_TEST(test_context_parallelism_divides_the_sequence)
{
    st_workload_cfg w = plan("llama3-70b", 8192, 8, 1, 1, 1, ST_RECOMPUTE_SELECTIVE);
    double whole = st_memory_layer_activations(&w, 1);
    w.parallel.cp = 2;
    ASSERT_REL(st_memory_layer_activations(&w, 1), whole / 2, 1e-12);
}
END_TEST

/* 1F1B: the first stage holds pp micro-batches of its L/pp layers, L layers' worth
 * (Korthikanti §4.2.3), plus the embedding dropout mask sbh/t per micro-batch in flight and,
 * under selective recompute, one layer's scores while that layer's backward runs. */
START_TEST(test_first_stage_holds_pp_microbatches_of_its_layers)
{
    st_workload_cfg w = plan("gpt3-175b", 2048, 8, 8, 1, 1, ST_RECOMPUTE_SELECTIVE);
    syms y = syms_of(&w, 1);
    double sbh = y.s * y.b * y.h, layer = 34 * sbh / 8;
    double scores = 5 * y.a * y.s * y.s * y.b / 8;
    st_memory m = estimate(&w, "a100-sxm-80g");
    ck_assert_int_eq(m.stage, 0);
    ASSERT_REL(m.term[ST_MEM_ACTIVATIONS], y.l * layer + scores + 8 * sbh / 8, 1e-12);

    /* Interleaved with v = 3: factor 1 + (p - 1)/(p v) on L layers. */
    w.parallel.virtual_stages = 3;
    m = estimate(&w, "a100-sxm-80g");
    double f = 1 + 7.0 / 24;
    ASSERT_REL(m.term[ST_MEM_ACTIVATIONS], y.l * f * layer + scores + 8 * f * sbh / 8, 1e-12);

    /* With only 4 micro-batches per step, at most 4 are in flight. */
    w.parallel.virtual_stages = 1;
    w.global_batch = 4;
    m = estimate(&w, "a100-sxm-80g");
    ASSERT_REL(m.term[ST_MEM_ACTIVATIONS], 4 * (y.l / 8) * layer + scores + 4 * sbh / 8, 1e-12);
}
END_TEST

/* Without pipelining the one stage also holds the output layer: final-norm and projection
 * inputs 4sbh/t and the fp32 logits 4sbv/t (Korthikanti §4.3, the delta_{p=1} term). */
START_TEST(test_flash_attention_stores_no_score_matrix)
{
    st_workload_cfg w = plan("gpt3-175b", 2048, 8, 1, 1, 1, ST_RECOMPUTE_NONE);
    double unfused = st_memory_layer_activations(&w, 1);
    w.attention = ST_ATTN_FLASH;
    double flash = st_memory_layer_activations(&w, 1);
    /* sbh(34 + 5as/h)/t against sbh*34/t plus the log-sum-exp 4as b/t: GPT-3 saves the
     * 5as/h = 80 share of 114, less a sliver. */
    ck_assert(flash < unfused);
    ck_assert_double_gt(1 - flash / unfused, 0.69);
    ck_assert_double_lt(1 - flash / unfused, 0.71);
}
END_TEST

START_TEST(test_single_stage_adds_korthikanti_output_layer_terms)
{
    st_workload_cfg w = plan("gpt-22b", 2048, 8, 1, 1, 1, ST_RECOMPUTE_SELECTIVE);
    syms y = syms_of(&w, 4);
    w.parallel.microbatch = 4;
    double sbh = y.s * y.b * y.h, v = 51200, t = 8;
    double paper = sbh * y.l / t * (34 + 1 / y.l + 4 / y.l * (1 + v / y.h));
    double scores = 5 * y.a * y.s * y.s * y.b / t;
    st_memory m = estimate(&w, "a100-sxm-80g");
    ASSERT_REL(m.term[ST_MEM_ACTIVATIONS], paper + scores, 1e-12);
}
END_TEST

START_TEST(test_last_stage_is_most_loaded_when_one_microbatch_is_in_flight)
{
    /* One micro-batch per step: every stage holds one; the last adds the logits. */
    st_workload_cfg w = plan("llama3-8b", 8192, 1, 4, 1, 0, ST_RECOMPUTE_FULL);
    w.global_batch = 1;
    st_memory m = estimate(&w, "h100-sxm");
    ck_assert_int_eq(m.stage, 3);
}
END_TEST

/* Megatron-LM docs/source/distrib_optimizer.md: bf16 parameters with fp32 gradients take 18
 * bytes per parameter, 6 + 12/d with the distributed optimizer. */
START_TEST(test_state_bytes_follow_megatron_distributed_optimizer_table)
{
    st_workload_cfg w = plan("gpt3-175b", 2048, 8, 8, 16, 1, ST_RECOMPUTE_FULL);
    double d = 16;
    w.parallel.zero = 0;
    st_memory m = estimate(&w, "h100-sxm");
    double p = m.params_per_gpu;
    double state = m.term[ST_MEM_WEIGHTS] + m.term[ST_MEM_GRADS] + m.term[ST_MEM_OPTIMIZER];
    ASSERT_REL(state, 18 * p, 1e-12);
    w.parallel.zero = 1;
    m = estimate(&w, "h100-sxm");
    state = m.term[ST_MEM_WEIGHTS] + m.term[ST_MEM_GRADS] + m.term[ST_MEM_OPTIMIZER];
    ASSERT_REL(state, (6 + 12 / d) * p, 1e-12);
    /* Adam's moments in bf16 (adam_moments): the fp32 master weight and two 2-byte moments */
    w.parallel.adam_bf16 = 1;
    ASSERT_REL(estimate(&w, "h100-sxm").term[ST_MEM_OPTIMIZER], 8 * p / d, 1e-12);
    w.parallel.adam_bf16 = 0;
    w.parallel.zero = 2;
    m = estimate(&w, "h100-sxm");
    ASSERT_REL(m.term[ST_MEM_GRADS], 4 * p / d, 1e-12);
    ASSERT_REL(m.term[ST_MEM_WEIGHTS], 2 * p, 1e-12);
    /* ZeRO-3 shards the weights too, but gathers the largest unit whole while it computes:
     * here one layer (12h^2 + 9h split 8 ways, its 4h of norms replicated), larger than the
     * embedding's V h / t. */
    w.parallel.zero = 3;
    m = estimate(&w, "h100-sxm");
    double h = 12288, layer = (12 * h * h + 9 * h) / 8 + 4 * h;
    ck_assert_double_gt(layer, 51200.0 * h / 8);
    ASSERT_REL(m.term[ST_MEM_WEIGHTS], 2 * (p / d + layer), 1e-12);
    /* Prefetching the next layer's gather holds a second one beside it. */
    w.parallel.overlap_param_gather = 1;
    m = estimate(&w, "h100-sxm");
    ASSERT_REL(m.term[ST_MEM_WEIGHTS], 2 * (p / d + 2 * layer), 1e-12);
    /* FP8 weights (fp8_param_gather) take one byte each, sharded and gathered alike. */
    w.precision = ST_PREC_FP8;
    w.fp8_param_gather = 1;
    m = estimate(&w, "h100-sxm");
    ASSERT_REL(m.term[ST_MEM_WEIGHTS], p / d + 2 * layer, 1e-12);
}
END_TEST

START_TEST(test_zero_shards_over_data_and_context_parallel_ranks)
{
    st_workload_cfg w = plan("llama3-70b", 8192, 8, 4, 8, 1, ST_RECOMPUTE_FULL);
    st_memory a = estimate(&w, "h100-sxm");
    w.parallel.dp = 4, w.parallel.cp = 2;
    st_memory b = estimate(&w, "h100-sxm");
    ASSERT_REL(b.term[ST_MEM_OPTIMIZER], a.term[ST_MEM_OPTIMIZER], 1e-12);
}
END_TEST

/* FP8 keeps the weights, gradients and optimizer states as they are, and stores each linear
 * layer's input for its backward in FP8: per layer and micro-batch, one byte less for the QKV
 * and MLP inputs (s b h each, divided by tp under sequence parallelism) and for the
 * attention-output and second MLP GEMM inputs (s b (da + f) / tp). */
START_TEST(test_fp8_training_keeps_bf16_state_and_halves_linear_inputs)
{
    st_workload_cfg w = plan("llama3-70b", 8192, 8, 4, 8, 1, ST_RECOMPUTE_SELECTIVE);
    st_memory a = estimate(&w, "h100-sxm");
    double la = st_memory_layer_activations(&w, 1);
    w.precision = ST_PREC_FP8;
    st_memory b = estimate(&w, "h100-sxm");
    double lb = st_memory_layer_activations(&w, 1);
    ck_assert_double_eq(a.term[ST_MEM_WEIGHTS], b.term[ST_MEM_WEIGHTS]);
    ck_assert_double_eq(a.term[ST_MEM_GRADS], b.term[ST_MEM_GRADS]);
    ck_assert_double_eq(a.term[ST_MEM_OPTIMIZER], b.term[ST_MEM_OPTIMIZER]);
    const st_llm_spec *m = w.model;
    double sb = 8192.0, t = 8;
    double saved = 2 * sb * (double)m->hidden / t +
                   sb * ((double)st_llm_attn_width(m) + (double)st_llm_ffn(m)) / t;
    ASSERT_REL(la - lb, saved, 1e-12);
    ck_assert(b.term[ST_MEM_ACTIVATIONS] < a.term[ST_MEM_ACTIVATIONS]);
    /* Full recompute keeps only the layer input, in BF16 either way. */
    w.parallel.recompute = ST_RECOMPUTE_FULL;
    double full8 = st_memory_layer_activations(&w, 1);
    w.precision = ST_PREC_BF16;
    ck_assert_double_eq(full8, st_memory_layer_activations(&w, 1));
}
END_TEST

/* Narayanan et al. SC21 §5.10: a checkpoint of the 1T model is 13.8 TB (decimal). */
START_TEST(test_megatron_1t_checkpoint_is_13_8_tb)
{
    st_workload_cfg w = plan("gpt-1t", 2048, 8, 64, 6, 1, ST_RECOMPUTE_SELECTIVE);
    st_memory m = estimate(&w, "a100-sxm-80g");
    ASSERT_REL(m.checkpoint_bytes, 13.8e12, 0.05);
}
END_TEST

/* BigScience tr11-176B-ml README: 2.3 "TB" full checkpoint at 14 bytes per parameter, 329 "GB"
 * of bf16 weights. 176.2e9 x 2 bytes = 352 GB = 328 GiB: the README's units are binary, so
 * 2.3 is TiB (2.53e12 bytes), and a decimal reading would be 7% off. */
START_TEST(test_bloom_checkpoint_is_2_3_tib_and_weights_329_gib)
{
    st_workload_cfg w = plan("bloom-176b", 2048, 4, 12, 8, 0, ST_RECOMPUTE_FULL);
    st_memory m = estimate(&w, "a100-sxm-80g");
    double tib = 1024.0 * 1024 * 1024 * 1024, gib = 1024.0 * 1024 * 1024;
    ASSERT_REL(m.checkpoint_bytes, 2.3 * tib, 0.05);
    ck_assert_double_gt(fabs(m.checkpoint_bytes / 2.3e12 - 1), 0.05);
    ASSERT_REL(2 * m.params / gib, 329, 0.01);
}
END_TEST

/* Llama 3 405B's published plan (tp 8, pp 16, dp 128, seq 8192, micro-batch 1, 16M-token
 * batches of 2048 sequences) on 80 GB H100s. */
static st_workload_cfg llama405(st_recompute rc)
{
    st_workload_cfg w = plan("llama3-405b", 8192, 8, 16, 128, 1, rc);
    w.global_batch = 2048;
    return w;
}

START_TEST(test_llama3_405b_fits_with_full_recompute)
{
    st_workload_cfg w = llama405(ST_RECOMPUTE_FULL);
    st_memory m = estimate(&w, "h100-sxm");
    ck_assert_int_eq(m.fits, 1);
    ck_assert_int_eq(m.overflow_term, -1);
    ck_assert_double_eq(m.overflow_bytes, 0);
    ck_assert_int_eq(m.stage, 0);
    /* first stage: 8 layers and the embedding, split 8 ways */
    ASSERT_REL(m.params_per_gpu, (8 * 3187703808.0 + 128256.0 * 16384) / 8, 1e-4);
}
END_TEST

START_TEST(test_llama3_405b_needs_more_than_selective_recompute_on_80gb)
{
    st_workload_cfg w = llama405(ST_RECOMPUTE_SELECTIVE);
    st_memory m = estimate(&w, "h100-sxm");
    ck_assert_int_eq(m.fits, 0);
    ck_assert_int_eq(m.overflow_term, ST_MEM_ACTIVATIONS);
    w = llama405(ST_RECOMPUTE_NONE);
    m = estimate(&w, "h100-sxm");
    ck_assert_int_eq(m.overflow_term, ST_MEM_ACTIVATIONS);
}
END_TEST

START_TEST(test_llama3_405b_on_data_parallelism_alone_overflows_at_the_weights)
{
    st_workload_cfg w = plan("llama3-405b", 8192, 1, 1, 16384, 0, ST_RECOMPUTE_FULL);
    st_memory m = estimate(&w, "h100-sxm");
    ck_assert_int_eq(m.fits, 0);
    ck_assert_int_eq(m.overflow_term, ST_MEM_WEIGHTS);
    ASSERT_REL(m.term[ST_MEM_WEIGHTS], 2 * 405853388800.0, 1e-12);
    ASSERT_REL(m.overflow_bytes, m.total - 85045477376.0, 1e-12); /* H100 SXM: CUDA's total */
}
END_TEST

/* The reserved term: the CUDA context (400 MB under PyTorch's lazy module loading,
 * pytorch/pytorch issue 109888) and NCCL's buffers for each communicator the plan uses (688 MB,
 * NVIDIA/nccl issue 964), unless the scenario says memory_reserved. Llama 3's plan uses three
 * (tp, pp, dp): 2.464 GB on every stage. */
START_TEST(test_reserved_counts_cuda_context_and_one_nccl_buffer_set_per_group)
{
    st_workload_cfg w = llama405(ST_RECOMPUTE_FULL);
    st_memory m = estimate(&w, "h100-sxm");
    ck_assert_double_eq(m.term[ST_MEM_RESERVED], 400e6 + 3 * 688e6);
    ck_assert_double_eq(st_memory_reserved(&w), 400e6 + 3 * 688e6);
    double sum = 0;
    for (int t = 0; t < ST_MEM__COUNT; t++)
        sum += m.term[t];
    ASSERT_REL(m.total, sum, 1e-15);
    /* one GPU, no communicator: the context alone */
    st_workload_cfg one = plan("gpt3-175b", 2048, 1, 1, 1, 0, ST_RECOMPUTE_FULL);
    ck_assert_double_eq(st_memory_reserved(&one), 400e6);
    /* context parallelism adds its group, and the data-parallel group is dp x cp wide */
    one.parallel.cp = 2;
    ck_assert_double_eq(st_memory_reserved(&one), 400e6 + 2 * 688e6);
    /* the scenario's figure replaces the default, zero included */
    w.memory_reserved = 5e9;
    w.memory_reserved_given = 1;
    st_memory given = estimate(&w, "h100-sxm");
    ck_assert_double_eq(given.term[ST_MEM_RESERVED], 5e9);
    ASSERT_REL(given.total - m.total, 5e9 - (400e6 + 3 * 688e6), 1e-9);
    w.memory_reserved = 0;
    ck_assert_double_eq(st_memory_reserved(&w), 0);
}
END_TEST

/* Table 4's plan as section 3.3.2 runs it at dp data-parallel ranks and v chunks a stage: ZeRO-2,
 * FlashAttention, no recompute. */
static st_workload_cfg llama405_meta(int64_t dp, int64_t v)
{
    st_workload_cfg w = llama405(ST_RECOMPUTE_NONE);
    w.attention = ST_ATTN_FLASH;
    w.parallel.zero = 2;
    w.parallel.dp = dp;
    w.gpus = 8 * 16 * dp;
    w.parallel.virtual_stages = v;
    return w;
}

/* Llama 3 section 3.3.2: FSDP that shards the optimizer states and gradients (ZeRO-2),
 * interleaved 1F1B, no activation checkpointing at 8K. The plan ran on 80 GB H100s; the model
 * has it fit, with the reserved term counted, and so close to the limit that the audit warns. */
START_TEST(test_llama3_405b_published_plan_fits_without_recompute)
{
    st_workload_cfg w = llama405_meta(128, 4);
    st_memory m = estimate(&w, "h100-sxm");
    ck_assert_int_eq(m.fits, 1);
    ck_assert_double_gt(m.term[ST_MEM_RESERVED], 0);
    ck_assert_double_gt(m.total, 0.9 * m.capacity);
    /* the gradients are a 128th of Megatron's unsharded fp32 buffer */
    ASSERT_REL(m.term[ST_MEM_GRADS], 4 * m.params_per_gpu / 128, 1e-12);
    /* the figures docs/models/memory-model.md quotes: 78.05 GB, and 91.7 GB under ZeRO-1 */
    ASSERT_REL(m.total, 78.05e9, 1e-3);
    w.parallel.zero = 1;
    st_memory z1 = estimate(&w, "h100-sxm");
    ck_assert_int_eq(z1.fits, 0);
    ASSERT_REL(z1.total, 91.7e9, 1e-3);
}
END_TEST

/* The same table's 8,192-GPU plan (dp 64, so 32 micro-batches a replica) with the layout of
 * section 3.3.2: one-layer chunks, the embedding and the loss in slots of their own. It ran; the
 * model has it fit, by less than the eager-era CUDA context (781 MB, pytorch/pytorch issue 34323)
 * would take: the term that decides (docs/models/memory-model.md, worked example). */
START_TEST(test_llama3_405b_8k_gpu_plan_fits_with_a_lazy_cuda_context)
{
    st_workload_cfg w = llama405_meta(64, 8);
    w.parallel.embedding_slot = 1;
    w.parallel.loss_slot = 1;
    st_memory m = estimate(&w, "h100-sxm");
    ck_assert_int_eq(m.fits, 1);
    ck_assert_int_eq(m.stage, 1); /* eight one-layer chunks, 141 chunk-micro-batches in flight */
    ASSERT_REL(m.total, 84.82e9, 1e-3);
    w.memory_reserved = 781e6 + 3 * 688e6;
    w.memory_reserved_given = 1;
    st_memory eager = estimate(&w, "h100-sxm");
    ck_assert_int_eq(eager.fits, 0);
    ck_assert_int_eq(eager.overflow_term, ST_MEM_RESERVED);
}
END_TEST

/* The layers over the pipeline chunks (st_chunk_split): Llama 3 405B's 126 layers on 16
 * stages put the remainder on the earliest (8 layers on stages 0-13, 7 on 14 and 15); with the
 * embedding and loss slots (Megatron-Core's account_for_*_in_pipeline_split, Llama 3's layout)
 * 128 slots split 8 a stage, the first and last stages holding 7 layers; with 8 chunks a stage
 * (128 chunks) the first chunk is the embedding alone and the last the loss alone. */
START_TEST(test_embedding_and_loss_slots_take_a_layer_off_the_end_chunks)
{
    st_parallel_cfg p = {.pp = 16, .virtual_stages = 1};
    st_chunk_split s = st_chunk_split_of(126, &p);
    ck_assert_int_eq(st_chunk_layers(&s, 0), 8);
    ck_assert_int_eq(st_chunk_layers(&s, 14), 7);
    ck_assert_int_eq(st_chunk_first_layer(&s, 15), 14 * 8 + 7);
    p.embedding_slot = p.loss_slot = 1;
    s = st_chunk_split_of(126, &p);
    ck_assert_int_eq(st_chunk_layers(&s, 0), 7);
    ck_assert_int_eq(st_chunk_layers(&s, 1), 8);
    ck_assert_int_eq(st_chunk_layers(&s, 15), 7);
    ck_assert_int_eq(st_chunk_first_layer(&s, 0), 0);
    ck_assert_int_eq(st_chunk_first_layer(&s, 1), 7);
    ck_assert_int_eq(st_chunk_first_layer(&s, 15), 119);
    p.virtual_stages = 8;
    s = st_chunk_split_of(126, &p);
    ck_assert_int_eq(st_chunk_layers(&s, 0), 0);
    ck_assert_int_eq(st_chunk_layers(&s, 127), 0);
    ck_assert_int_eq(st_chunk_first_layer(&s, 1), 0);
    ck_assert_int_eq(st_chunk_first_layer(&s, 127), 126);
    /* every layer is in exactly one chunk, in order, whatever the split */
    for (int64_t L = 1; L <= 40; L++)
        for (int64_t pp = 1; pp <= 8; pp++)
            for (int64_t v = 1; v <= 3; v++)
                for (int f = 0; f < 4; f++) {
                    st_parallel_cfg q = {.pp = pp,
                                         .virtual_stages = v,
                                         .embedding_slot = f & 1,
                                         .loss_slot = f >> 1};
                    st_chunk_split t = st_chunk_split_of(L, &q);
                    if (pp * v > L + (f & 1) + (f >> 1))
                        continue;
                    int64_t next = 0;
                    for (int64_t c = 0; c < pp * v; c++) {
                        ck_assert_int_eq(st_chunk_first_layer(&t, c), next);
                        ck_assert_int_ge(st_chunk_layers(&t, c), 0);
                        next += st_chunk_layers(&t, c);
                    }
                    ck_assert_int_eq(next, L);
                }
}
END_TEST

/* The memory model holds the layers the split gives each stage: with the slots, Llama 3 405B's
 * first stage holds 7 layers and the embedding, a layer's parameters less than without. */
START_TEST(test_the_first_stage_holds_a_layer_less_with_the_embedding_slot)
{
    st_workload_cfg w = llama405(ST_RECOMPUTE_FULL);
    st_memory a = estimate(&w, "h100-sxm");
    w.parallel.embedding_slot = w.parallel.loss_slot = 1;
    st_memory b = estimate(&w, "h100-sxm");
    ck_assert_int_eq(a.stage, 0);
    ASSERT_REL(a.params_per_gpu, (8 * 3187703808.0 + 128256.0 * 16384) / 8, 1e-4);
    ck_assert_double_lt(b.total, a.total);
    if (b.stage == 0)
        ASSERT_REL(b.params_per_gpu, (7 * 3187703808.0 + 128256.0 * 16384) / 8, 1e-4);
    else
        ASSERT_REL(b.params_per_gpu, 8 * 3187703808.0 / 8, 1e-4);
}
END_TEST

/* With the slots a stage's chunks differ, and the micro-batches in flight are counted chunk by
 * chunk in Megatron's interleaved order. Six layers over pp 2 x v 4 with both slots is one slot
 * a chunk: stage 0 holds the embedding chunk and three one-layer chunks, stage 1 three
 * one-layer chunks and the loss chunk. With 4 micro-batches stage 1 runs 6 warm-up forwards (its
 * first three chunks, 6 layers), then its loss chunk's forwards and backwards, then the next
 * group's first chunk's forward before a backward frees a layer: 7 layers at its peak. Spreading
 * each stage's 3 layers evenly over its 4 chunks said 5.25 there and 6.75 on stage 0. The
 * vocabulary is small, so the last stage's own terms are under a quarter of a layer. */
START_TEST(test_slot_chunks_are_counted_one_by_one_in_the_interleaved_order)
{
    static const st_llm_spec m = {.name = "slots",
                                  .layers = 6,
                                  .hidden = 1024,
                                  .ffn_hidden = 16384,
                                  .heads = 8,
                                  .vocab = 1024,
                                  .mlp = ST_MLP_SWIGLU,
                                  .norm = ST_NORM_RMSNORM,
                                  .pos = ST_POS_ROPE};
    st_workload_cfg w = plan("gpt-22b", 2048, 1, 2, 1, 0, ST_RECOMPUTE_NONE);
    w.model = &m;
    w.attention = ST_ATTN_FLASH;
    w.parallel.virtual_stages = 4;
    w.parallel.embedding_slot = w.parallel.loss_slot = 1;
    w.global_batch = 4;
    st_memory a = estimate(&w, "h100-sxm");
    double layer = st_memory_layer_activations(&w, 1);
    ck_assert_int_eq(a.stage, 1);
    ck_assert_msg(a.term[ST_MEM_ACTIVATIONS] >= 7 * layer &&
                      a.term[ST_MEM_ACTIVATIONS] < 7.25 * layer,
                  "activations %g, a layer %g", a.term[ST_MEM_ACTIVATIONS], layer);
}
END_TEST

/* Activation offload (parallel.offload_layers): the first layers' activations leave HBM but for
 * one layer's in transit, so 40 of Llama 3 70B's 80 layers offloaded at pp 1 keep 41 layers'
 * activations, 39 fewer than without; nothing else moves. */
START_TEST(test_offloaded_layers_leave_all_but_one_layer_in_transit)
{
    st_workload_cfg w = plan("llama3-70b", 8192, 1, 1, 64, 0, ST_RECOMPUTE_NONE);
    w.attention = ST_ATTN_FLASH;
    w.parallel.zero = 3;
    w.parallel.microbatch = 2;
    st_memory a = estimate(&w, "gb200");
    w.parallel.offload_layers = 40;
    st_memory b = estimate(&w, "gb200");
    ASSERT_REL(a.term[ST_MEM_ACTIVATIONS] - b.term[ST_MEM_ACTIVATIONS],
               39 * st_memory_layer_activations(&w, 2), 1e-9);
    ck_assert_double_eq(a.term[ST_MEM_WEIGHTS], b.term[ST_MEM_WEIGHTS]);
    ck_assert_double_eq(a.term[ST_MEM_RESERVED], b.term[ST_MEM_RESERVED]);
}
END_TEST

/* The running sum in term order decides the overflow term: 70B on tp 8 over 40 GB GPUs
 * without ZeRO has 17.6 GB of weights, and the fp32 gradients push it past the 42.3 GB CUDA
 * reports of the A100 40GB (40339 MiB, scenarios/catalog.c). */
START_TEST(test_overflow_term_is_where_the_running_sum_passes_capacity)
{
    st_workload_cfg w = plan("llama3-70b", 4096, 8, 1, 1, 1, ST_RECOMPUTE_FULL);
    w.parallel.zero = 0;
    st_memory m = estimate(&w, "a100-sxm-40g");
    ck_assert_double_lt(m.term[ST_MEM_WEIGHTS], m.capacity);
    ck_assert_int_eq(m.overflow_term, ST_MEM_GRADS);
    double sum = 0;
    for (int t = 0; t < ST_MEM__COUNT; t++)
        sum += m.term[t];
    ASSERT_REL(m.total, sum, 1e-15);
    ck_assert_double_eq(m.capacity, 42298834944.0);
}
END_TEST

START_TEST(test_reported_figures_are_the_model_counts)
{
    st_workload_cfg w = plan("gpt3-175b", 2048, 8, 8, 1, 1, ST_RECOMPUTE_SELECTIVE);
    w.parallel.microbatch = 0; /* "auto" without a candidate counts as 1 */
    st_memory m = estimate(&w, "h100-sxm");
    ck_assert_double_eq(m.params, st_llm_params(w.model, 2048));
    ck_assert_double_eq(m.flops_per_token, st_llm_flops_per_token(w.model, 2048));
    ck_assert_double_eq(m.checkpoint_bytes, 14 * m.params);
    /* tp 8 and dp 8: the CUDA context and two NCCL communicators */
    ck_assert_double_eq(m.term[ST_MEM_RESERVED], 400e6 + 2 * 688e6);
    w.parallel.microbatch = 1;
    st_memory one = estimate(&w, "h100-sxm");
    ck_assert_double_eq(one.total, m.total);
}
END_TEST

START_TEST(test_term_names)
{
    ck_assert_str_eq(st_mem_term_name(ST_MEM_WEIGHTS), "weights");
    ck_assert_str_eq(st_mem_term_name(ST_MEM_GRADS), "gradients");
    ck_assert_str_eq(st_mem_term_name(ST_MEM_OPTIMIZER), "optimizer states");
    ck_assert_str_eq(st_mem_term_name(ST_MEM_ACTIVATIONS), "activations");
    ck_assert_str_eq(st_mem_term_name(ST_MEM_RESERVED), "reserved");
    ck_assert_str_eq(st_mem_term_name(ST_MEM__COUNT), "unknown");
}
END_TEST

START_TEST(test_bf16_gradient_reduction_halves_the_gradient_term_only)
{
    st_workload_cfg w = plan("gpt3-175b", 2048, 8, 8, 4, 1, ST_RECOMPUTE_SELECTIVE);
    st_memory a = estimate(&w, "h100-sxm");
    w.parallel.grad_bf16 = 1;
    st_memory b = estimate(&w, "h100-sxm");
    ck_assert_double_eq_tol(b.term[ST_MEM_GRADS], a.term[ST_MEM_GRADS] / 2, 1e-6);
    ck_assert_double_eq(b.term[ST_MEM_WEIGHTS], a.term[ST_MEM_WEIGHTS]);
    ck_assert_double_eq(b.term[ST_MEM_OPTIMIZER], a.term[ST_MEM_OPTIMIZER]);
    ck_assert_double_eq(b.term[ST_MEM_ACTIVATIONS], a.term[ST_MEM_ACTIVATIONS]);
    ck_assert_double_eq(b.checkpoint_bytes, a.checkpoint_bytes);
}
END_TEST

Suite *memory_suite(void)
{
    Suite *s = suite_create("memory");
    TCase *act = tcase_create("activations");
    tcase_add_test(act, test_layer_activations_follow_korthikanti_eq1_to_eq6);
    tcase_add_test(act, test_selective_recompute_saves_70pct_for_gpt3_and_65pct_for_mtnlg);
    tcase_add_test(act, test_op_recompute_keeps_what_torchtitan_saves);
    tcase_add_test(act, test_22b_layer_with_both_techniques_is_34sbh_over_t);
    tcase_add_test(act, test_swiglu_gqa_layer_follows_the_documented_breakdown);
    tcase_add_test(act, test_generalisation_reduces_to_the_paper_for_gpt_shapes);
    tcase_add_test(act, test_context_parallelism_divides_the_sequence);
    tcase_add_test(act, test_first_stage_holds_pp_microbatches_of_its_layers);
    tcase_add_test(act, test_flash_attention_stores_no_score_matrix);
    tcase_add_test(act, test_single_stage_adds_korthikanti_output_layer_terms);
    tcase_add_test(act, test_last_stage_is_most_loaded_when_one_microbatch_is_in_flight);
    suite_add_tcase(s, act);
    TCase *st = tcase_create("state");
    tcase_add_test(st, test_state_bytes_follow_megatron_distributed_optimizer_table);
    tcase_add_test(st, test_zero_shards_over_data_and_context_parallel_ranks);
    tcase_add_test(st, test_fp8_training_keeps_bf16_state_and_halves_linear_inputs);
    tcase_add_test(st, test_megatron_1t_checkpoint_is_13_8_tb);
    tcase_add_test(st, test_bloom_checkpoint_is_2_3_tib_and_weights_329_gib);
    suite_add_tcase(s, st);
    TCase *fit = tcase_create("fit");
    tcase_add_test(fit, test_llama3_405b_fits_with_full_recompute);
    tcase_add_test(fit, test_llama3_405b_needs_more_than_selective_recompute_on_80gb);
    tcase_add_test(fit, test_llama3_405b_on_data_parallelism_alone_overflows_at_the_weights);
    tcase_add_test(fit, test_overflow_term_is_where_the_running_sum_passes_capacity);
    tcase_add_test(fit, test_reported_figures_are_the_model_counts);
    tcase_add_test(fit, test_term_names);
    tcase_add_test(fit, test_reserved_counts_cuda_context_and_one_nccl_buffer_set_per_group);
    tcase_add_test(fit, test_llama3_405b_published_plan_fits_without_recompute);
    tcase_add_test(fit, test_llama3_405b_8k_gpu_plan_fits_with_a_lazy_cuda_context);
    tcase_add_test(fit, test_embedding_and_loss_slots_take_a_layer_off_the_end_chunks);
    tcase_add_test(fit, test_the_first_stage_holds_a_layer_less_with_the_embedding_slot);
    tcase_add_test(fit, test_slot_chunks_are_counted_one_by_one_in_the_interleaved_order);
    tcase_add_test(fit, test_offloaded_layers_leave_all_but_one_layer_in_transit);
    tcase_add_test(fit, test_bf16_gradient_reduction_halves_the_gradient_term_only);
    suite_add_tcase(s, fit);
    return s;
}
