/* GPU-sharing placement (gpushare.h), after the FGD artifact (repository
 * hkust-adsl/kubernetes-scheduler-simulator at 8f3d641): the protocol of pkg/simulator/core.go
 * and simulator.go (SortClusterPods shuffles, then TunePodsByNodeTotalResource appends copies),
 * the scores of pkg/simulator/plugin/ (random_score.go, best_fit_score.go, gpu_packing_score.go,
 * fgd_score.go) and the fragmentation measure of pkg/utils/frag.go with its typical pods
 * (GetTypicalPods, as scripts/generate_config_and_run.py configures it: CPU pods included, the
 * most frequent specs up to 95% of the pods, one spec at a time, no GPU weighting). Memory is
 * the scheduler's own fit check (Kubernetes' NodeResourcesFit); the scores do not read it. */
#include "models/place/gpushare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/rng.h"
#include "sim/xalloc.h"

const char *const st_gs_policy_names[] = {"random", "best-fit", "packing", "fgd", NULL};

/* pkg/type/open-gpu-share/utils/const.go: the normalisers of the best-fit score. */
#define MAX_SPEC_CPU 128000.0 /* milli-cores */
#define MAX_SPEC_GPU 8000.0   /* milli-GPU */
/* Kubernetes' framework.MaxNodeScore. */
#define MAX_SCORE 100
/* frag.go GetTypicalPods with the run script's --pod-popularity-threshold default: 95%. */
#define TYPICAL_SHARE 0.95

/* What is left on a node. */
typedef struct gnode {
    int64_t cpu, mem;
    int64_t milli[ST_GS_MAX_GPUS];
    int gpus;
    int32_t model;
} gnode;

/* A typical pod spec and its share of the pod list. */
typedef struct typical {
    int64_t cpu, milli;
    int gpus;
    uint64_t models;
    double share;
} typical;

/* A node state as the fragmentation measure sees it (its GPUs' milli left, sorted: the measure
 * does not depend on their order) and its measure, in an open-addressed memo: the same states
 * recur on thousands of nodes. */
typedef struct fkey {
    int64_t cpu;
    int32_t model, gpus;
    int64_t milli[ST_GS_MAX_GPUS];
} fkey;

typedef struct fslot {
    fkey k;
    double v;
    int used;
} fslot;

typedef struct gs {
    const st_gs_spec *sp;
    gnode *node;
    typical *typ;
    size_t n_typ;
    st_rng *rng;
    fslot *memo;
    size_t memo_cap, memo_n;
} gs;

static int accessible(const gnode *n, const st_gs_pod *p)
{
    if (!p->models)
        return 1;
    return n->model >= 0 && n->model < 64 && (p->models >> n->model & 1);
}

/* GPUs with at least milli free: are there `gpus` of them (frag.go CanNodeHostPodOnGpuMemory). */
static int gpus_fit(const gnode *n, int gpus, int64_t milli)
{
    int got = 0;
    for (int g = 0; g < n->gpus; g++)
        got += n->milli[g] >= milli;
    return got >= gpus;
}

static int fits(const gnode *n, const st_gs_pod *p)
{
    return n->cpu >= p->cpu_milli && n->mem >= p->mem_mib && accessible(n, p) &&
           (p->gpus == 0 || gpus_fit(n, p->gpus, p->gpu_milli));
}

static int64_t milli_left(const gnode *n)
{
    int64_t s = 0;
    for (int g = 0; g < n->gpus; g++)
        s += n->milli[g];
    return s;
}

/* frag.go NodeGpuShareFragAmountScore: the node's idle GPU that the typical pods, weighted by
 * their shares, cannot use (every fragment kind but Q3, "satisfied"). */
static double frag_of(const gs *s, const gnode *n)
{
    int64_t left = milli_left(n);
    double f = 0;
    for (size_t k = 0; k < s->n_typ; k++) {
        const typical *t = &s->typ[k];
        st_gs_pod p = {t->cpu, 0, t->gpus, t->milli, t->models};
        if (t->milli == 0 || !accessible(n, &p) || n->cpu < t->cpu ||
            !gpus_fit(n, t->gpus, t->milli)) {
            f += t->share * (double)left; /* XL, XR, no access, Q1, Q2, Q4: all of it */
            continue;
        }
        int64_t small = 0; /* Q3: only the GPUs too small for it */
        for (int g = 0; g < n->gpus; g++)
            small += n->milli[g] < t->milli ? n->milli[g] : 0;
        f += t->share * (double)small;
    }
    return f;
}

static uint64_t fhash(const fkey *k)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a over the fields */
    const int64_t w[3] = {k->cpu, k->model, k->gpus};
    for (int i = 0; i < 3 + ST_GS_MAX_GPUS; i++)
        h = (h ^ (uint64_t)(i < 3 ? w[i] : k->milli[i - 3])) * 1099511628211ull;
    return h;
}

static void memo_grow(gs *s)
{
    fslot *old = s->memo;
    size_t n = s->memo_cap;
    s->memo_cap = n ? 2 * n : 4096;
    s->memo = st_xcalloc(s->memo_cap, sizeof *s->memo);
    for (size_t i = 0; i < n; i++)
        for (size_t j = fhash(&old[i].k) & (s->memo_cap - 1); old[i].used;
             j = (j + 1) & (s->memo_cap - 1))
            if (!s->memo[j].used) {
                s->memo[j] = old[i];
                break;
            }
    free(old);
}

/* frag_of through the memo. */
static double frag(gs *s, const gnode *n)
{
    fkey k = {n->cpu, n->model, n->gpus, {0}};
    for (int g = 0; g < n->gpus; g++) { /* insertion sort, at most 8 */
        int64_t v = n->milli[g];
        int i = g;
        for (; i > 0 && k.milli[i - 1] > v; i--)
            k.milli[i] = k.milli[i - 1];
        k.milli[i] = v;
    }
    if (2 * (s->memo_n + 1) > s->memo_cap)
        memo_grow(s);
    size_t j = fhash(&k) & (s->memo_cap - 1);
    for (; s->memo[j].used; j = (j + 1) & (s->memo_cap - 1))
        if (memcmp(&s->memo[j].k, &k, sizeof k) == 0)
            return s->memo[j].v;
    s->memo[j] = (fslot){k, frag_of(s, n), 1};
    s->memo_n++;
    return s->memo[j].v;
}

/* The GPUs pod p takes on n, into use[] (1 each): the fitting ones with the least left first
 * (the artifact's "best" GPU selection; for fgd a sharing pod's GPU is chosen by the score). */
static void pick_gpus(const gnode *n, const st_gs_pod *p, int *use)
{
    memset(use, 0, sizeof(int) * ST_GS_MAX_GPUS);
    for (int need = p->gpus; need > 0; need--) {
        int best = -1;
        for (int g = 0; g < n->gpus; g++)
            if (!use[g] && n->milli[g] >= p->gpu_milli &&
                (best < 0 || n->milli[g] < n->milli[best]))
                best = g;
        use[best] = 1;
    }
}

static void take(gnode *n, const st_gs_pod *p, const int *use)
{
    n->cpu -= p->cpu_milli;
    n->mem -= p->mem_mib;
    for (int g = 0; g < n->gpus; g++)
        n->milli[g] -= use[g] ? p->gpu_milli : 0;
}

static int64_t sigmoid_score(double before, double after)
{
    return (int64_t)(1 / (1 + exp(-(before - after) / 1000)) * MAX_SCORE);
}

/* fgd_score.go calculateGpuShareFragExtendScore: a sharing pod tries each GPU that fits and
 * keeps the best (the first on a tie); *gpu: that GPU, or -1 for the others. */
static int64_t fgd_score(gs *s, const gnode *n, const st_gs_pod *p, int *gpu)
{
    double before = frag(s, n);
    *gpu = -1;
    if (p->gpus == 1 && p->gpu_milli < ST_GS_MILLI) {
        int64_t best = 0;
        for (int g = 0; g < n->gpus; g++) {
            if (n->milli[g] < p->gpu_milli)
                continue;
            gnode m = *n;
            m.cpu -= p->cpu_milli;
            m.milli[g] -= p->gpu_milli;
            int64_t sc = sigmoid_score(before, frag(s, &m));
            if (*gpu < 0 || sc > best)
                best = sc, *gpu = g;
        }
        return best;
    }
    int use[ST_GS_MAX_GPUS];
    pick_gpus(n, p, use);
    gnode m = *n;
    take(&m, p, use);
    return sigmoid_score(before, frag(s, &m));
}

/* gpu_packing_score.go getPackingScore. */
static int64_t packing_score(const gnode *n, const st_gs_pod *p)
{
    if (p->gpu_milli <= 0)
        return 0;
    int free_gpus = 0;
    for (int g = 0; g < n->gpus; g++)
        free_gpus += n->milli[g] == ST_GS_MILLI;
    if (free_gpus == n->gpus) {
        int64_t sc = MAX_SCORE / 3 - free_gpus;
        return sc > free_gpus ? sc : free_gpus;
    }
    int use[ST_GS_MAX_GPUS], fresh = 0;
    pick_gpus(n, p, use);
    int64_t ratio = 0;
    for (int g = 0; g < n->gpus; g++) {
        fresh += use[g] && n->milli[g] == ST_GS_MILLI;
        ratio += use[g] ? n->milli[g] * 100 / ST_GS_MILLI : 0;
    }
    if (fresh > 0) {
        int64_t sc = MAX_SCORE / 2 - fresh;
        return sc > MAX_SCORE / 3 ? sc : MAX_SCORE / 3;
    }
    int64_t sc = MAX_SCORE - ratio / 10;
    return sc > MAX_SCORE / 2 ? sc : MAX_SCORE / 2;
}

/* best_fit_score.go getBestFitScore: (1 - leftover CPU and GPU, half each) x 100. */
static int64_t best_fit_score(const gnode *n, const st_gs_pod *p)
{
    double cpu = (double)(n->cpu - p->cpu_milli) / MAX_SPEC_CPU;
    double gpu = (double)(milli_left(n) - p->gpu_milli * p->gpus) / MAX_SPEC_GPU;
    return (int64_t)((1.0 - (0.5 * cpu + 0.5 * gpu)) * MAX_SCORE);
}

/* frag.go GetTypicalPods: the pod specs (CPU, GPUs, milli-GPU, models) by count, most frequent
 * first (ties in spec order), taken until they cover 95% of the pods, shares renormalised. */
static int by_spec(const void *a, const void *b)
{
    const typical *x = a, *y = b;
    if (x->cpu != y->cpu)
        return x->cpu < y->cpu ? -1 : 1;
    if (x->gpus != y->gpus)
        return x->gpus < y->gpus ? -1 : 1;
    if (x->milli != y->milli)
        return x->milli < y->milli ? -1 : 1;
    return x->models < y->models ? -1 : x->models > y->models;
}

static int by_count(const void *a, const void *b)
{
    const typical *x = a, *y = b;
    if (x->share != y->share)
        return x->share > y->share ? -1 : 1;
    return by_spec(a, b);
}

static void typical_pods(gs *s)
{
    const st_gs_spec *sp = s->sp;
    typical *t = st_xcalloc(sp->n_pods ? sp->n_pods : 1, sizeof *t);
    for (size_t i = 0; i < sp->n_pods; i++) {
        const st_gs_pod *p = &sp->pods[i];
        t[i] = (typical){p->cpu_milli, p->gpus ? p->gpu_milli : 0, p->gpus, p->models, 1};
    }
    qsort(t, sp->n_pods, sizeof *t, by_spec);
    size_t n = 0;
    for (size_t i = 0; i < sp->n_pods; i++) {
        if (n && by_spec(&t[n - 1], &t[i]) == 0)
            t[n - 1].share += 1;
        else
            t[n++] = t[i];
    }
    qsort(t, n, sizeof *t, by_count);
    double total = (double)sp->n_pods, cum = 0;
    size_t k = 0;
    while (k < n && cum < TYPICAL_SHARE * total)
        cum += t[k++].share;
    for (size_t i = 0; i < k; i++)
        t[i].share /= cum;
    s->typ = t;
    s->n_typ = k;
}

/* The policy's score of pod p on node n (which fits); *gpu: fgd's choice of a sharing GPU. */
static int64_t score(gs *s, const gnode *n, const st_gs_pod *p, int *gpu)
{
    *gpu = -1;
    switch (s->sp->policy) {
    case ST_GS_BEST_FIT:
        return best_fit_score(n, p);
    case ST_GS_PACKING:
        return packing_score(n, p);
    case ST_GS_FGD:
        return fgd_score(s, n, p, gpu);
    default:
        return 0; /* random: every node that fits alike, one drawn among them */
    }
}

/* Place p on the best-scoring node that fits, ties to the first in the list (the artifact's
 * selectHost, vendor/k8s.io/kubernetes/pkg/scheduler/core/generic_scheduler.go, takes the
 * smallest node name "for reproducibility"; the openb names sort in file order); under random
 * a node drawn uniformly among those that fit (random_score.go's PreScore). 1 when placed. */
static int place(gs *s, const st_gs_pod *p)
{
    size_t best = SIZE_MAX, ties = 0;
    int64_t top = INT64_MIN;
    int best_gpu = -1, rnd = s->sp->policy == ST_GS_RANDOM;
    for (size_t k = 0; k < s->sp->n_nodes; k++) {
        gnode *n = &s->node[k];
        if (!fits(n, p))
            continue;
        int gpu;
        int64_t sc = score(s, n, p, &gpu);
        if (rnd ? st_rng_uniform_int(s->rng, (uint32_t)++ties) == 0 : sc > top)
            top = sc, best = k, best_gpu = gpu;
    }
    if (best == SIZE_MAX)
        return 0;
    gnode *n = &s->node[best];
    int use[ST_GS_MAX_GPUS];
    pick_gpus(n, p, use);
    if (p->gpus == 1 && p->gpu_milli < ST_GS_MILLI &&
        (best_gpu >= 0 || s->sp->policy == ST_GS_RANDOM)) {
        int g = best_gpu;
        if (g < 0) { /* random: a GPU drawn among those that fit ("-gpusel random") */
            int fit[ST_GS_MAX_GPUS], nf = 0;
            for (int i = 0; i < n->gpus; i++)
                if (n->milli[i] >= p->gpu_milli)
                    fit[nf++] = i;
            g = fit[st_rng_uniform_int(s->rng, (uint32_t)nf)];
        }
        memset(use, 0, sizeof use);
        use[g] = 1;
    }
    take(n, p, use);
    return 1;
}

/* SortClusterPods with shuffling on, then tuneUpPods: copies drawn from the list until one more
 * (its per-GPU milli, as the artifact tests it) would pass tune x capacity. */
static size_t arrivals(gs *s, int64_t cap, size_t **out)
{
    const st_gs_spec *sp = s->sp;
    size_t n = sp->n_pods, cap_n = n + 16;
    size_t *o = st_xcalloc(cap_n, sizeof *o);
    int64_t req = 0;
    for (size_t i = 0; i < n; i++) {
        o[i] = i;
        req += sp->pods[i].gpu_milli * sp->pods[i].gpus;
    }
    for (size_t i = sp->keep_order ? 0 : n; i > 1; i--) {
        size_t j = st_rng_uniform_int(s->rng, (uint32_t)i);
        size_t t = o[i - 1];
        o[i - 1] = o[j];
        o[j] = t;
    }
    double target = sp->tune * (double)cap;
    while (n && sp->tune > 0) {
        size_t k = st_rng_uniform_int(s->rng, (uint32_t)sp->n_pods);
        const st_gs_pod *p = &sp->pods[k];
        if ((double)(req + p->gpu_milli) > target)
            break;
        req += p->gpu_milli * p->gpus;
        o = st_xgrow(o, sizeof *o, n + 1, &cap_n);
        o[n++] = k;
    }
    *out = o;
    return n;
}

static int check(const st_gs_spec *sp, int64_t *cap, st_err *err)
{
    *cap = 0;
    for (size_t k = 0; k < sp->n_nodes; k++) {
        if (sp->nodes[k].gpus < 0 || sp->nodes[k].gpus > ST_GS_MAX_GPUS)
            return st_err_set(err, ST_EINVAL, (st_loc){0},
                              "node %zu has %d GPUs; at most %d are modelled", k, sp->nodes[k].gpus,
                              ST_GS_MAX_GPUS);
        *cap += (int64_t)sp->nodes[k].gpus * ST_GS_MILLI;
    }
    if (*cap <= 0)
        return st_err_set(err, ST_EINVAL, (st_loc){0}, "the nodes have no GPU");
    if (sp->n_at > 8)
        return st_err_set(err, ST_EINVAL, (st_loc){0}, "at most 8 arrived loads are read");
    return 0;
}

int st_gs_run(const st_gs_spec *sp, st_gs_result *out, st_err *err)
{
    memset(out, 0, sizeof *out);
    int64_t cap;
    int rc = check(sp, &cap, err);
    if (rc)
        return rc;
    gs s = {.sp = sp, .rng = st_rng_new(sp->seed, st_rng_tag("gpushare"), 0, 0)};
    s.node = st_xcalloc(sp->n_nodes ? sp->n_nodes : 1, sizeof *s.node);
    for (size_t k = 0; k < sp->n_nodes; k++) {
        const st_gs_node *n = &sp->nodes[k];
        s.node[k] = (gnode){n->cpu_milli, n->mem_mib, {0}, n->gpus, n->model};
        for (int g = 0; g < n->gpus; g++)
            s.node[k].milli[g] = ST_GS_MILLI;
    }
    typical_pods(&s);
    size_t *order, n = arrivals(&s, cap, &order), at = 0;
    int64_t arrived = 0, alloc = 0;
    for (size_t i = 0; i < n; i++) {
        const st_gs_pod *p = &sp->pods[order[i]];
        arrived += p->gpu_milli * p->gpus;
        if (place(&s, p)) {
            out->placed++;
            alloc += p->gpu_milli * p->gpus;
        } else {
            out->failed++;
        }
        while (at < sp->n_at && (double)arrived >= sp->at[at] * (double)cap)
            out->alloc[at++] = (double)alloc / (double)cap;
    }
    while (at < sp->n_at) /* the tuned list stops just short of its last load */
        out->alloc[at++] = (double)alloc / (double)cap;
    out->arrived = n;
    out->capacity_milli = cap;
    free(order);
    free(s.node);
    free(s.typ);
    free(s.memo);
    st_rng_free(s.rng);
    return 0;
}
