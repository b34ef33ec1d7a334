/* Reads a model architecture: the `hardware.models` list and a workload's `model:` (a preset
 * name or a mapping), with the defaults that the mapping's `mlp` style implies. */
#include <stdlib.h>
#include <string.h>

#include "scenarios/catalog.h"
#include "scenarios/load_internal.h"
#include "sim/xalloc.h"

static int fn_dropout(st_rd *rd, const st_ynode *n, void *base)
{
    int on;
    static const char *const names[] = {"false", "true", NULL};
    if (st_rd_enum(rd, n, "dropout setting", names, &on))
        return -1;
    ((st_llm_spec *)base)->dropout = on ? ST_DROPOUT_ON : ST_DROPOUT_OFF;
    return 0;
}

static const st_field model_fields[] = {
    ST_FSTR(st_llm_spec, "name", name),
    ST_FFN("base", st_rd_skip), /* applied before the other keys: see read_model_map */
    ST_FINT(st_llm_spec, "layers", layers, ST_R_MIN1, .max = 1e5),
    ST_FINT(st_llm_spec, "hidden", hidden, ST_R_MIN1, .max = 1e7),
    ST_FINT(st_llm_spec, "ffn_hidden", ffn_hidden, ST_R_MIN1, .max = 1e8),
    ST_FINT(st_llm_spec, "heads", heads, ST_R_MIN1, .max = 1e5),
    ST_FINT(st_llm_spec, "head_dim", head_dim, ST_R_MIN1, .max = 1e6),
    ST_FINT(st_llm_spec, "kv_heads", kv_heads, ST_R_MIN1, .max = 1e5),
    ST_FINT(st_llm_spec, "vocab", vocab, ST_R_MIN1, .max = 1e8),
    ST_FINT(st_llm_spec, "max_positions", max_positions, ST_R_MIN1, .max = 1e8),
    ST_FENUM(st_llm_spec, "mlp", mlp, st_mlp_names),
    ST_FENUM(st_llm_spec, "norm", norm, st_norm_names),
    ST_FENUM(st_llm_spec, "position", pos, st_posemb_names),
    ST_FBOOL(st_llm_spec, "bias", bias),
    ST_FBOOL(st_llm_spec, "tied_embeddings", tied_embeddings),
    ST_FFN("dropout", fn_dropout),
    ST_FINT(st_llm_spec, "experts", experts, ST_R_NONNEG, .max = 1e5),
    ST_FINT(st_llm_spec, "experts_per_token", experts_per_token, ST_R_MIN1, .max = 1e5),
    ST_FINT(st_llm_spec, "expert_ffn_hidden", expert_ffn_hidden, ST_R_MIN1, .max = 1e8),
    ST_FINT(st_llm_spec, "shared_expert_ffn_hidden", shared_expert_ffn_hidden, ST_R_NONNEG,
            .max = 1e8),
    ST_FINT(st_llm_spec, "dense_layers", dense_layers, ST_R_NONNEG, .max = 1e6),
    ST_FINT(st_llm_spec, "q_lora_rank", q_lora_rank, ST_R_NONNEG, .max = 1e7),
    ST_FINT(st_llm_spec, "kv_lora_rank", kv_lora_rank, ST_R_NONNEG, .max = 1e7),
    ST_FINT(st_llm_spec, "qk_rope_head_dim", qk_rope_head_dim, ST_R_NONNEG, .max = 1e6),
    ST_FINT(st_llm_spec, "qk_nope_head_dim", qk_nope_head_dim, ST_R_MIN1, .max = 1e6),
    ST_FINT(st_llm_spec, "v_head_dim", v_head_dim, ST_R_MIN1, .max = 1e6),
    ST_FINT(st_llm_spec, "sliding_window", sliding_window, ST_R_NONNEG, .max = 1e8),
    ST_FINT(st_llm_spec, "window_every", window_every, ST_R_MIN1, .max = 1e5),
    ST_FINT(st_llm_spec, "expert_groups", expert_groups, ST_R_MIN1, .max = 1e5),
    ST_FINT(st_llm_spec, "expert_groups_per_token", expert_groups_per_token, ST_R_MIN1, .max = 1e5),
    ST_FEND,
};

static int unknown_model(st_ld *ld, const st_ynode *n)
{
    if (st__broken_has(&ld->bad_models, n->text))
        return -1; /* its hardware.models entry has an error of its own */
    const char *names[256];
    size_t k = 0;
    for (size_t i = 0; i < ld->s->n_models && k < 256; i++)
        if (ld->s->models[i].name)
            names[k++] = ld->s->models[i].name;
    for (size_t i = 0; i < st_catalog_model_count() && k < 256; i++)
        names[k++] = st_catalog_model_at(i)->name;
    return st__unknown_name(ld, n, "model", names, k, " (`strata catalog` lists the presets)");
}

/* A mapping takes layers, hidden, heads, and optionally the rest; what
 * mlp implies (GPT style for gelu, Llama style for swiglu) fills the keys left out. */
static void model_defaults(st_llm_spec *m, const st_ynode *n)
{
    int gpt = m->mlp == ST_MLP_GELU;
    if (st_ynode_get(n, "base")) { /* a base model keeps its own style */
        st_llm_fill_defaults(m);
        return;
    }
    if (!st_ynode_get(n, "norm"))
        m->norm = gpt ? ST_NORM_LAYERNORM : ST_NORM_RMSNORM;
    if (!st_ynode_get(n, "position"))
        m->pos = gpt ? ST_POS_LEARNED : ST_POS_ROPE;
    if (!st_ynode_get(n, "bias"))
        m->bias = gpt;
    if (!st_ynode_get(n, "tied_embeddings"))
        m->tied_embeddings = gpt;
    st_llm_fill_defaults(m);
}

/* Group-limited routing: both keys or neither, groups of whole experts, no more groups a token
 * than there are, and enough experts in them for the top-k. */
static int check_groups(st_ld *ld, const st_ynode *n, const st_llm_spec *m)
{
    const st_ynode *g = st_ynode_get(n, "expert_groups");
    const st_ynode *gt = st_ynode_get(n, "expert_groups_per_token");
    if (!m->expert_groups && !m->expert_groups_per_token)
        return 0;
    const st_ynode *at = g ? g : gt ? gt : n;
    if (!m->expert_groups || !m->expert_groups_per_token)
        return st_rd_fail(&ld->rd, at, ST_EINVAL,
                          "model: group-limited routing needs both 'expert_groups' and "
                          "'expert_groups_per_token', found only '%s'",
                          m->expert_groups ? "expert_groups" : "expert_groups_per_token");
    if (m->experts % m->expert_groups)
        return st_rd_fail(&ld->rd, at, ST_EINVAL,
                          "model: expert_groups (%lld) must divide experts (%lld)",
                          (long long)m->expert_groups, (long long)m->experts);
    if (m->expert_groups_per_token > m->expert_groups)
        return st_rd_fail(&ld->rd, gt ? gt : at, ST_EINVAL,
                          "model: expert_groups_per_token (%lld) must be at most expert_groups "
                          "(%lld)",
                          (long long)m->expert_groups_per_token, (long long)m->expert_groups);
    if (m->expert_groups_per_token * (m->experts / m->expert_groups) < m->experts_per_token)
        return st_rd_fail(&ld->rd, gt ? gt : at, ST_EINVAL,
                          "model: %lld groups of %lld experts hold fewer than experts_per_token "
                          "(%lld)",
                          (long long)m->expert_groups_per_token,
                          (long long)(m->experts / m->expert_groups),
                          (long long)m->experts_per_token);
    return 0;
}

/* A mixture-of-experts model needs its top-k and expert width; a dense one takes neither, nor
 * shared experts (a nonzero width: 0 means none), nor dense first layers (nonzero). */
static int check_experts(st_ld *ld, const st_ynode *n, const st_llm_spec *m)
{
    const st_ynode *k = st_ynode_get(n, "experts_per_token");
    const st_ynode *f = st_ynode_get(n, "expert_ffn_hidden");
    const st_ynode *fs =
        m->shared_expert_ffn_hidden ? st_ynode_get(n, "shared_expert_ffn_hidden") : NULL;
    const st_ynode *dl = m->dense_layers ? st_ynode_get(n, "dense_layers") : NULL;
    const st_ynode *gr = m->expert_groups ? st_ynode_get(n, "expert_groups") : NULL;
    if (m->experts == 0) {
        const st_ynode *stray = k ? k : f ? f : fs ? fs : dl ? dl : gr;
        if (stray)
            return st_rd_fail(&ld->rd, stray, ST_EINVAL,
                              "model: '%s' needs 'experts' (a mixture-of-experts model), found a "
                              "dense model",
                              k    ? "experts_per_token"
                              : f  ? "expert_ffn_hidden"
                              : fs ? "shared_expert_ffn_hidden"
                              : dl ? "dense_layers"
                                   : "expert_groups");
        return 0;
    }
    const st_ynode *at = st_ynode_get(n, "experts") ? st_ynode_get(n, "experts") : n;
    if (!m->experts_per_token)
        return st_rd_fail(&ld->rd, at, ST_EINVAL,
                          "model: experts needs 'experts_per_token' (the top-k), found none");
    if (!m->expert_ffn_hidden)
        return st_rd_fail(
            &ld->rd, at, ST_EINVAL,
            "model: experts needs 'expert_ffn_hidden' (one expert's MLP width), found "
            "none");
    if (m->experts_per_token > m->experts)
        return st_rd_fail(&ld->rd, k ? k : at, ST_EINVAL,
                          "model: experts_per_token (%lld) must be at most experts (%lld)",
                          (long long)m->experts_per_token, (long long)m->experts);
    if (check_groups(ld, n, m))
        return -1;
    if (m->dense_layers >= m->layers) {
        const st_ynode *d = st_ynode_get(n, "dense_layers");
        return st_rd_fail(&ld->rd, d ? d : n, ST_EINVAL,
                          "model: dense_layers (%lld) must be below layers (%lld): an MoE model "
                          "keeps at least one MoE layer",
                          (long long)m->dense_layers, (long long)m->layers);
    }
    return 0;
}

/* Multi-head latent attention (kv_lora_rank > 0) needs its head widths (qk_nope_head_dim and
 * v_head_dim; qk_rope_head_dim may be 0) and takes neither grouped-query attention (kv_heads
 * other than heads: MLA has one K/V per head) nor head_dim (its widths are its own); the other
 * MLA keys need kv_lora_rank. Its biases are checked after the defaults (check_biases). */
static int check_mla(st_ld *ld, const st_ynode *n, const st_llm_spec *m)
{
    static const char *const keys[] = {"q_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim",
                                       "v_head_dim"};
    if (!st_llm_is_mla(m)) {
        for (int i = 0; i < 4; i++)
            if (st_ynode_get(n, keys[i]) && !st_ynode_get(n, "base"))
                return st_rd_fail(&ld->rd, st_ynode_get(n, keys[i]), ST_EINVAL,
                                  "model: '%s' needs 'kv_lora_rank' (multi-head latent "
                                  "attention), found none",
                                  keys[i]);
        return 0;
    }
    const st_ynode *at = st_ynode_get(n, "kv_lora_rank") ? st_ynode_get(n, "kv_lora_rank") : n;
    if (!m->qk_nope_head_dim || !m->v_head_dim)
        return st_rd_fail(&ld->rd, at, ST_EINVAL,
                          "model: kv_lora_rank needs '%s' (multi-head latent attention's head "
                          "widths), found none",
                          !m->qk_nope_head_dim ? "qk_nope_head_dim" : "v_head_dim");
    const st_ynode *kv = st_ynode_get(n, "kv_heads");
    if (kv && m->kv_heads != m->heads)
        return st_rd_fail(&ld->rd, kv, ST_EINVAL,
                          "model: kv_heads (%lld) with kv_lora_rank: multi-head latent attention "
                          "has one key/value per head (kv_heads = heads = %lld)",
                          (long long)m->kv_heads, (long long)m->heads);
    return 0;
}

/* window_every says which layers have the window: it needs one (sliding_window > 0), and at
 * most `layers` (every layers-th from the first: the first layer only). */
static int check_window(st_ld *ld, const st_ynode *n, const st_llm_spec *m)
{
    const st_ynode *every = st_ynode_get(n, "window_every");
    if (!every)
        return 0;
    if (m->sliding_window <= 0)
        return st_rd_fail(&ld->rd, every, ST_EINVAL,
                          "model: 'window_every' needs 'sliding_window' (a window of tokens), "
                          "found none");
    if (m->window_every > m->layers)
        return st_rd_fail(&ld->rd, every, ST_EINVAL,
                          "model: window_every (%lld) must be at most layers (%lld)",
                          (long long)m->window_every, (long long)m->layers);
    return 0;
}

static int check_model(st_ld *ld, const st_ynode *n, const st_llm_spec *m)
{
    static const char *const need[] = {"layers", "hidden", "heads"};
    for (int i = 0; i < 3; i++)
        if (!st_ynode_get(n, need[i]) && !st_ynode_get(n, "base"))
            return st_rd_fail(&ld->rd, n, ST_EINVAL, "model: missing required key '%s'", need[i]);
    if (m->head_dim == 0 && !st_llm_is_mla(m) && m->hidden % m->heads)
        return st_rd_fail(&ld->rd, n, ST_EINVAL,
                          "model: hidden (%lld) is not a multiple of heads (%lld)",
                          (long long)m->hidden, (long long)m->heads);
    if (m->kv_heads && m->heads % m->kv_heads)
        return st_rd_fail(&ld->rd, st_ynode_get(n, "kv_heads") ? st_ynode_get(n, "kv_heads") : n,
                          ST_EINVAL, "model: heads (%lld) is not a multiple of kv_heads (%lld)",
                          (long long)m->heads, (long long)m->kv_heads);
    if (check_mla(ld, n, m) || check_window(ld, n, m))
        return -1;
    return check_experts(ld, n, m);
}

/* Two parts Megatron-Core builds without biases, so both take `bias: false`: multi-head latent
 * attention (MLASelfAttention's projections, megatron/core/transformer/multi_latent_attention.py)
 * and shared experts (SharedExpertMLP asserts add_bias_linear off, "bias is not supported in
 * the shared experts", megatron/core/transformer/moe/shared_experts.py). Checked after the
 * defaults, since gelu implies biases. */
static int check_biases(st_ld *ld, const st_ynode *n, const st_llm_spec *m)
{
    if (!m->bias)
        return 0;
    const st_ynode *b = st_ynode_get(n, "bias");
    const char *implied = b ? "" : " (the model's style implies it)";
    if (st_llm_is_mla(m)) {
        const st_ynode *at = b ? b : st_ynode_get(n, "kv_lora_rank");
        return st_rd_fail(&ld->rd, at ? at : n, ST_EINVAL,
                          "model: kv_lora_rank needs bias: false (Megatron-Core's multi-head "
                          "latent attention builds its projections without biases), found "
                          "bias: true%s",
                          implied);
    }
    if (st_llm_shared_up(m) <= 0)
        return 0;
    const st_ynode *at = b ? b : st_ynode_get(n, "shared_expert_ffn_hidden");
    return st_rd_fail(&ld->rd, at ? at : n, ST_EINVAL,
                      "model: shared_expert_ffn_hidden needs bias: false (Megatron-Core's shared "
                      "experts have no biases), found bias: true%s",
                      implied);
}

/* Read a model mapping into the scenario's model table; returns the model or NULL. */
static const st_llm_spec *read_model_map(st_ld *ld, const st_ynode *n, const char *what)
{
    st_scn *s = ld->s;
    if (s->n_models >= s->cap_models)
        ST_BUG("model table sized %zu too small", s->cap_models);
    st_llm_spec *m = &s->models[s->n_models];
    memset(m, 0, sizeof *m);
    const st_ynode *b = st_ynode_get(n, "base");
    if (b && st_rd_expect(&ld->rd, b, ST_YN_SCALAR, "base"))
        return NULL;
    if (b) {
        const st_llm_spec *from = st__find_model(s, b->text);
        if (!from) {
            unknown_model(ld, b);
            return NULL;
        }
        *m = *from;
        m->name = NULL;
        m->published_params = 0;
        /* head_dim follows hidden / heads unless the mapping sets it: a base's derived value
         * must not outlive a change of either. */
        if ((st_ynode_get(n, "hidden") || st_ynode_get(n, "heads")) && !st_ynode_get(n, "head_dim"))
            m->head_dim = 0;
    }
    m->source = "scenario";
    if (st_rd_map(&ld->rd, n, model_fields, m, what))
        return NULL;
    if (check_model(ld, n, m))
        return NULL;
    model_defaults(m, n);
    if (check_biases(ld, n, m))
        return NULL;
    s->n_models++;
    return m;
}

int st__load_models(st_ld *ld, const st_ynode *n)
{
    if (st_rd_expect(&ld->rd, n, ST_YN_SEQ, "hardware.models") ||
        st_rd_list_limit(&ld->rd, n, "hardware.models", ST_SCN_MAX_NAMED)) {
        ld->bad_models.all = 1;
        return -1;
    }
    int bad = 0;
    unsigned *line = st_xcalloc(n->n ? n->n : 1, sizeof *line); /* by model table index */
    /* A bad entry does not stop the list: only what refers to it by name is skipped. */
    for (size_t i = 0; i < n->n && !st_diag_full(ld->rd.diag); i++) {
        const st_llm_spec *m = read_model_map(ld, n->kids[i], "hardware.models[]");
        if (m)
            line[ld->s->n_models - 1] = n->kids[i]->loc.line;
        if (!m) {
            st__broken_add(&ld->bad_models, n->kids[i]);
            bad = 1;
            continue;
        }
        if (!m->name) {
            bad = st_rd_fail(&ld->rd, n->kids[i], ST_EINVAL,
                             "hardware.models[]: missing required key 'name'");
            continue;
        }
        for (size_t j = 0; j + 1 < ld->s->n_models; j++)
            if (ld->s->models[j].name && strcmp(ld->s->models[j].name, m->name) == 0) {
                bad = st_rd_fail(&ld->rd, st__name_at(n->kids[i]), ST_EINVAL,
                                 "duplicate model name '%s' in hardware.models (first at line "
                                 "%u)",
                                 m->name, line[j]);
                break;
            }
    }
    free(line);
    return bad || st_diag_full(ld->rd.diag) ? -1 : 0; /* full: entries left unread */
}

const st_llm_spec *st__read_model(st_ld *ld, const st_ynode *n, const char *what)
{
    if (n->kind == ST_YN_MAP)
        return read_model_map(ld, n, what);
    if (st_rd_expect(&ld->rd, n, ST_YN_SCALAR, what))
        return NULL;
    const st_llm_spec *m = st__find_model(ld->s, n->text);
    if (!m)
        unknown_model(ld, n);
    return m;
}
