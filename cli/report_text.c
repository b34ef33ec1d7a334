/* The human summary of a run: what a planner reads first on the terminal. */
#include <stdio.h>
#include <stdlib.h>

#include "cli/audit.h"
#include "cli/cli.h"
#include "sim/units.h"
#include "sim/xalloc.h"

static const char *fmt(double v, st_dim d, char *buf, size_t n)
{
    st_unit_format(v, d, buf, n);
    return buf;
}

static void job_text(FILE *out, const st_forecast *f)
{
    static const char *const rc[] = {"none", "selective", "full"};
    static const char *const prec[] = {"bf16", "fp8"};
    const st_workload_cfg *w = f->w;
    const st_parallel_cfg *p = &w->parallel;
    const st_memory *m = &f->mem;
    char a[32], b[32];
    fprintf(out, "\njob %s: %s, %.2f B parameters, %lld GPUs\n", w->name,
            w->model->name ? w->model->name : "custom model", m->params / 1e9, (long long)w->gpus);
    fprintf(out, "  plan      tp %lld, cp %lld, pp %lld, dp %lld, zero %d, micro-batch %lld%s\n",
            (long long)p->tp, (long long)p->cp, (long long)p->pp, (long long)p->dp, p->zero,
            (long long)f->microbatch, p->microbatch ? "" : " (auto)");
    fprintf(out, "            seq %lld, global batch %lld, %s, recompute %s%s\n",
            (long long)w->seq_len, (long long)w->global_batch, prec[w->precision], rc[p->recompute],
            p->sequence_parallel ? ", sequence parallel" : "");
    fprintf(out, "  memory    per GPU on the most loaded pipeline stage:\n");
    for (int t = 0; t < ST_MEM__COUNT; t++)
        if (t != ST_MEM_RESERVED || m->term[t] > 0) /* not modelled yet: not shown as zero */
            fprintf(out, "            %-17s %10s\n", st_mem_term_name((st_mem_term)t),
                    fmt(m->term[t], ST_DIM_BYTES, a, sizeof a));
    fprintf(out, "            %-17s %10s of %s: %s\n", "total",
            fmt(m->total, ST_DIM_BYTES, a, sizeof a), fmt(m->capacity, ST_DIM_BYTES, b, sizeof b),
            m->fits ? "fits" : "DOES NOT FIT");
    if (!m->fits)
        fprintf(out, "            over by %s; the %s term is where it overflows\n",
                fmt(m->overflow_bytes, ST_DIM_BYTES, a, sizeof a),
                st_mem_term_name((st_mem_term)m->overflow_term));
    double fpt = m->flops_per_token;
    fprintf(out, "  compute   %.4g %s per token (model FLOPs, PaLM definition)\n",
            fpt >= 1e12 ? fpt / 1e12 : fpt / 1e9, fpt >= 1e12 ? "TFLOP" : "GFLOP");
    fprintf(out, "  checkpoint %s (weights and optimizer states)\n",
            fmt(m->checkpoint_bytes, ST_DIM_BYTES, a, sizeof a));
}

static void audit_text(FILE *out, const st_scn *s, const st_forecast *f, size_t n)
{
    size_t cap = 1 + 2 * n;
    st_audit *a = st_xcalloc(cap, sizeof *a);
    size_t k = st_audit_run(s, f, n, a, cap);
    fprintf(out, "\naudit\n");
    for (size_t i = 0; i < k; i++)
        fprintf(out, "  %-4s  %-8s %s: %s\n",
                a[i].status == ST_AUDIT_PASS   ? "PASS"
                : a[i].status == ST_AUDIT_WARN ? "WARN"
                                               : "FAIL",
                a[i].level, a[i].check, a[i].message);
    free(a);
}

void st_report_text(FILE *out, const st_scn *s, uint64_t seed, const st_forecast *f, size_t n)
{
    const st_cluster_cfg *c = st_scn_cluster(s);
    char hbm[32];
    fprintf(out, "strata %s: scenario '%s', seed %llu\n", STRATA_VERSION, st_scn_name(s),
            (unsigned long long)seed);
    fprintf(out, "cluster: %lld nodes x %lld %s = %lld GPUs, %s HBM each\n", (long long)c->nodes,
            (long long)c->gpus_per_node, c->gpu->name, (long long)(c->nodes * c->gpus_per_node),
            fmt(c->gpu->hbm_bytes, ST_DIM_BYTES, hbm, sizeof hbm));
    for (size_t i = 0; i < n; i++)
        job_text(out, &f[i]);
    audit_text(out, s, f, n);
}
