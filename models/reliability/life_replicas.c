/* st_life_replicas (lifetime.h): replicas 0 .. n - 1 of a job's life, each run by st_life_run, and
 * their Monte Carlo summary: each figure's mean with Student's t interval and its percentiles,
 * and the wall time's quantiles. docs/models/storage-and-failures.md. */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <string.h>

#include "models/reliability/lifetime.h"
#include "sim/progress.h"
#include "sim/stats.h"

/* The figures st_life_replicas summarises, each as a tally (mean and spread, for the interval)
 * and as stored values (for the percentiles). */
enum { FIG_WALL, FIG_GOODPUT, FIG_INTERRUPTIONS, FIG_LOST, FIG__COUNT };

typedef struct figures {
    st_tally t[FIG__COUNT];
    st_samples v[FIG__COUNT];
} figures;

static void figures_add(figures *f, const st_life_result *r)
{
    const double x[FIG__COUNT] = {r->wall_s, r->goodput, (double)r->interruptions, r->lost_work_s};
    for (int k = 0; k < FIG__COUNT; k++) {
        st_tally_add(&f->t[k], x[k]);
        st_samples_add(&f->v[k], x[k]);
    }
}

/* One figure's mean, interval (tq > 0; NaN without one) and percentiles. */
static st_life_stat figure(const st_tally *t, st_samples *v, double tq)
{
    st_life_stat st = {.mean = st_tally_mean(t), .lo = NAN, .hi = NAN};
    if (tq > 0) {
        double half = tq * st_tally_sd(t) / sqrt((double)t->n);
        st.lo = st.mean - half;
        st.hi = st.mean + half;
    }
    st.p10 = st_samples_quantile(v, 0.10);
    st.p50 = st_samples_quantile(v, 0.50);
    st.p90 = st_samples_quantile(v, 0.90);
    st.p99 = st_samples_quantile(v, 0.99);
    return st;
}

static int replicas_into(const st_life_spec *s, uint64_t master_seed, int64_t n, figures *f,
                         st_err *err)
{
    for (int64_t i = 0; i < n; i++) {
        st_life_result r;
        int rc = st_life_run(s, master_seed, (uint64_t)i, &r, err);
        if (rc)
            return rc;
        figures_add(f, &r);
        st_progress("life replicas", i + 1, n);
    }
    return 0;
}

int st_life_replicas(const st_life_spec *s, uint64_t master_seed, int64_t n, st_life_summary *out,
                     st_err *err)
{
    memset(out, 0, sizeof *out);
    if (n < 1)
        return st_err_set(err, ST_EINVAL, (st_loc){0},
                          "lifetime: %lld replicas; a summary needs at least 1", (long long)n);
    figures f;
    for (int k = 0; k < FIG__COUNT; k++) {
        st_tally_init(&f.t[k]);
        st_samples_init(&f.v[k]);
    }
    int rc = replicas_into(s, master_seed, n, &f, err);
    if (!rc) {
        /* The replicas are independent, so the mean of n of them has standard error
         * sd / sqrt(n), and (mean - mu) / (sd / sqrt(n)) follows Student's t with n - 1 degrees
         * of freedom for normal data, near enough for the sums these figures are (central limit
         * theorem). One replica has no degrees of freedom, hence no interval. */
        double tq = n >= 2 ? gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) : 0;
        out->replicas = n;
        out->wall_s = figure(&f.t[FIG_WALL], &f.v[FIG_WALL], tq);
        for (int k = 0; k < ST_LIFE_WALL_QUANTILES; k++)
            out->wall_q[k] =
                st_samples_quantile(&f.v[FIG_WALL], k / (double)(ST_LIFE_WALL_QUANTILES - 1));
        out->goodput = figure(&f.t[FIG_GOODPUT], &f.v[FIG_GOODPUT], tq);
        out->interruptions = figure(&f.t[FIG_INTERRUPTIONS], &f.v[FIG_INTERRUPTIONS], tq);
        out->lost_work_s = figure(&f.t[FIG_LOST], &f.v[FIG_LOST], tq);
    }
    for (int k = 0; k < FIG__COUNT; k++)
        st_samples_release(&f.v[k]);
    return rc;
}
