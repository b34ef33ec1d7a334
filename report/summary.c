/* The answer in words each HTML and Markdown report opens with (report/report.h): what the run,
 * comparison, sweep or sizing found, in one sentence a decision-maker reads first. Every number
 * in it is one the report already holds (its JSON document's leaf, shown in its row's unit of the
 * report's schema, or the result the text summary prints), so the sentence and the tables below
 * it never disagree; nothing is computed here but counts, which row is least, and by how much
 * more energy a comparison's fastest policy spends in percent. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/forecast/band.h"
#include "planner/sweep.h"
#include "report/compare.h"
#include "report/report.h"
#include "sim/strfmt.h"
#include "sim/units.h"
#include "sim/xalloc.h"

static const cJSON *get(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = get(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = get(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* Leaf key of o, whose path in document doc is path, as its row shows it (buf of
 * ST_REPORT_VALUE_MAX bytes). */
static const char *shown(st_fig_doc doc, const char *path, const cJSON *o, const char *key,
                         char *buf)
{
    return st_report_value_text(doc, path, get(o, key), buf, ST_REPORT_VALUE_MAX);
}

/* v in the unit of the row at path of document doc. */
static const char *in_unit(st_fig_doc doc, const char *path, double v, char *buf)
{
    const st_fig *f = st_fig_find(doc, path);
    st_fig_number_text(f ? f->unit : ST_FU_NUMBER, v, buf, ST_REPORT_VALUE_MAX);
    return buf;
}

/* Whether job j's capex part key was bought with no price (null in the JSON). */
static int part_unpriced(const cJSON *j, const char *key)
{
    return cJSON_IsNull(get(get(get(j, "cost"), "capex"), key));
}

/* "optics, racks and cooling" into buf: the parts of job j's capex (of any job's, given the
 * jobs array) bought with no price ("not priced" in the text), so that a headline cost counting
 * them at 0 is not read as the whole bill; empty where every part is priced or there is no
 * capex. */
static void unpriced(const cJSON *j, char *buf, size_t cap)
{
    static const struct {
        const char *key, *word;
    } part[] = {{"nodes_usd", "nodes"},   {"switches_usd", "switches"},
                {"optics_usd", "optics"}, {"storage_usd", "storage"},
                {"racks_usd", "racks"},   {"cooling_usd", "cooling"}};
    const char *said[sizeof part / sizeof part[0]];
    size_t n = 0;
    for (size_t k = 0; k < sizeof part / sizeof part[0]; k++) {
        int none = 0;
        if (cJSON_IsArray(j)) {
            for (const cJSON *e = j->child; e && !none; e = e->next)
                none = part_unpriced(e, part[k].key);
        } else
            none = part_unpriced(j, part[k].key);
        if (none)
            said[n++] = part[k].word;
    }
    size_t at = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < n && at < cap; k++)
        at += (size_t)snprintf(buf + at, cap - at, "%s%s",
                               k == 0       ? ""
                               : k + 1 == n ? " and "
                                            : ", ",
                               said[k]);
}

/* "; audit: N FAIL, M WARN of K checks" from the run's audit array. */
static void audit_counts(FILE *out, const cJSON *audit)
{
    int fail = 0, warn = 0, all = 0;
    for (const cJSON *a = audit ? audit->child : NULL; a; a = a->next, all++) {
        fail += strcmp(str(a, "status"), "fail") == 0;
        warn += strcmp(str(a, "status"), "warn") == 0;
    }
    fprintf(out, "; audit: %d FAIL, %d WARN of %d checks", fail, warn, all);
}

/* The one training job whose life ran, when it is the run's only job: its index, else -1. */
static long lone_training(const st_run *r)
{
    long at = -1;
    for (size_t i = 0; i < r->n; i++) {
        if (!r->f[i].w)
            continue;
        if (at >= 0 || !r->f[i].has_life)
            return -1;
        at = (long)i;
    }
    return at;
}

/* The kind every job of r has, or -1 when they differ (or there are none). */
static int lone_kind(const st_run *r)
{
    int kind = -1;
    for (size_t i = 0; i < r->n; i++) {
        int k = r->f[i].w                   ? ST_WL_TRAINING
                : r->serve && r->serve[i].w ? ST_WL_INFERENCE
                                            : ST_WL_COLLECTIVE;
        if (kind >= 0 && k != kind)
            return -1;
        kind = k;
    }
    return kind;
}

/* A count as the reports show one: "16,384" from 10,000 up (st_fig_number_text). */
static const char *whole(double v, char b[ST_REPORT_VALUE_MAX])
{
    st_fig_number_text(ST_FU_NUMBER, v, b, ST_REPORT_VALUE_MAX);
    return b;
}

char *st_report_hardware(const cJSON *cl)
{
    char n1[ST_REPORT_VALUE_MAX];
    const cJSON *pools = get(cl, "pools");
    if (!cJSON_IsArray(pools))
        return st_xasprintf("%s node%s of %s", whole(num(cl, "nodes"), n1),
                            st_plural_s((long long)num(cl, "nodes")), str(cl, "gpu"));
    char *s = st_xasprintf("%s node%s in pools", whole(num(cl, "nodes"), n1),
                           st_plural_s((long long)num(cl, "nodes")));
    for (const cJSON *p = pools->child; p; p = p->next) { /* "h100 (256 nodes, 2,048 h100-sxm)":
                                                             "256 x h100-sxm" read as 256 GPUs */
        char n2[ST_REPORT_VALUE_MAX];
        char *more = st_xasprintf("%s%s %s (%s node%s, %s %s)", s, p == pools->child ? "" : ",",
                                  str(p, "name"), whole(num(p, "nodes"), n1),
                                  st_plural_s((long long)num(p, "nodes")),
                                  whole(num(p, "gpus"), n2), str(p, "gpu"));
        free(s);
        s = more;
    }
    return s;
}

/* "N TYPE GPUs", or on a cluster of several types "N GPUs (n1 TYPE1, n2 TYPE2)", a pool each. */
static void gpus_words(FILE *out, const cJSON *cl)
{
    const cJSON *pools = get(cl, "pools");
    char n1[ST_REPORT_VALUE_MAX];
    if (!cJSON_IsArray(pools)) {
        fprintf(out, "%s %s GPUs", whole(num(cl, "gpus"), n1), str(cl, "gpu"));
        return;
    }
    fprintf(out, "%s GPUs (", whole(num(cl, "gpus"), n1));
    for (const cJSON *p = pools->child; p; p = p->next)
        fprintf(out, "%s%s %s", p == pools->child ? "" : ", ", whole(num(p, "gpus"), n1),
                str(p, "gpu"));
    fputc(')', out);
}

/* Job j's GPU type: its pool's on a cluster of several types, else the cluster's. */
static const char *job_gpu(const cJSON *t, const cJSON *j)
{
    const cJSON *cl = get(t, "cluster"), *pool = get(j, "pool");
    for (const cJSON *p = get(cl, "pools") ? get(cl, "pools")->child : NULL; p && pool; p = p->next)
        if (cJSON_IsString(pool) && strcmp(str(p, "name"), pool->valuestring) == 0)
            return str(p, "gpu");
    return str(cl, "gpu");
}

/* How many lives job j's --replicas ran (0 without). */
static long replicas_of(const cJSON *j)
{
    const cJSON *n = get(get(j, "replicas"), "n");
    return cJSON_IsNumber(n) ? (long)n->valuedouble : 0;
}

/* Whether job j's span in the cluster run (start to end) reads longer than its life alone, whose
 * wall reads alone: a preemption or neighbours on its links stretched it. If so, writes the span
 * and its preemptions, "2.871 h, preempted 1 time", to out (a review found the headline quoting
 * the life alone beside a run that took longer). */
static int ran_longer(FILE *out, const cJSON *j, const char *alone)
{
    if (!cJSON_IsNumber(get(j, "start_s")) || !cJSON_IsNumber(get(j, "end_s")))
        return 0;
    double span = num(j, "end_s") - num(j, "start_s");
    char t[ST_REPORT_VALUE_MAX];
    in_unit(ST_DOC_RUN, "jobs[].wall_s", span, t);
    if (!(span > num(j, "wall_s")) || strcmp(t, alone) == 0)
        return 0;
    fputs(t, out);
    long long n = cJSON_IsNumber(get(j, "preemptions")) ? (long long)num(j, "preemptions") : 0;
    if (n > 0)
        fprintf(out, ", preempted %lld time%s", n, st_plural_s(n));
    return 1;
}

/* Job j's wall-time band after lead: "18.43 to 29.71 h at 80%, from N comparable published
 * runs", both ends in the unit of point, the wall it is about. */
static void band_words(FILE *out, const cJSON *j, const cJSON *band, double point, const char *lead)
{
    char range[2 * ST_REPORT_VALUE_MAX], c[ST_REPORT_VALUE_MAX];
    st_unit_format_range(cJSON_GetArrayItem(band, 0)->valuedouble,
                         cJSON_GetArrayItem(band, 1)->valuedouble, point, ST_DIM_TIME, range,
                         sizeof range);
    fprintf(out, "%s%s at %s, from %s", lead, range,
            shown(ST_DOC_RUN, "jobs[].band_level", j, "band_level", c), str(j, "band_basis"));
}

/* What the one training job does: "Trains MODEL (job NAME) in WALL on G GPU GPUs", or that its
 * plan does not fit. */
static void training_words(FILE *out, long i, const cJSON *t, int failures_stated)
{
    char a[ST_REPORT_VALUE_MAX], b[ST_REPORT_VALUE_MAX], c[ST_REPORT_VALUE_MAX];
    const cJSON *j = cJSON_GetArrayItem(get(t, "jobs"), (int)i);
    const char *gpu = job_gpu(t, j);
    if (cJSON_IsFalse(get(j, "fits"))) {
        fprintf(out, "%s (job %s) does not fit: %s per GPU against %s", str(j, "model"),
                str(j, "name"),
                shown(ST_DOC_RUN, "jobs[].memory_per_gpu_bytes", j, "memory_per_gpu_bytes", a),
                shown(ST_DOC_RUN, "jobs[].memory.capacity_bytes", get(j, "memory"),
                      "capacity_bytes", b));
        return;
    }
    fprintf(out, "Trains %s (job %s) in ", str(j, "model"), str(j, "name"));
    shown(ST_DOC_RUN, "jobs[].wall_s", j, "wall_s", c);
    long lives = replicas_of(j);
    int shared = 0, first_too = 0;
    double point = num(j, "wall_s"); /* the wall the band is about */
    if (lives >= 2) {                /* --replicas: their mean, not the first life's draw */
        point = num(get(get(j, "replicas"), "wall_s"), "mean");
        char first[ST_REPORT_VALUE_MAX];
        snprintf(first, sizeof first, "%s", c);
        in_unit(ST_DOC_RUN, "jobs[].replicas.wall_s", point, c);
        fprintf(out, "%s, the mean of %ld lives", c, lives);
        /* and the first life's, where it reads otherwise: the wall the Jobs table and the
         * text's life line hold (a review found the two apart with no word on why) */
        first_too = strcmp(first, c) != 0;
        if (first_too)
            fprintf(out, " (the first, in the tables: %s", first);
    } else
        shared = ran_longer(out, j, c); /* preempted or slowed: its span, then its life alone */
    const cJSON *band = get(j, "wall_s_band"); /* the step model's error band, when it has one */
    if (shared)
        fprintf(out, " (%s alone", c);
    else if (lives < 2)
        fputs(c, out);
    if (cJSON_GetArraySize(band) == 2)
        band_words(out, j, band, point, shared ? ", " : first_too ? "; " : " (");
    if (shared || first_too || cJSON_GetArraySize(band) == 2)
        fputc(')', out);
    char n1[ST_REPORT_VALUE_MAX];
    fprintf(out, " on %s %s GPUs", whole(num(j, "gpus"), n1), gpu);
    /* what the plan gets of the GPUs and of its wall time: the figures a plan is chosen on
     * (the goodput the lives' mean where the wall is) */
    int rates = cJSON_IsNumber(get(j, "mfu")) && cJSON_IsNumber(get(j, "goodput"));
    if (rates)
        fprintf(out, " (MFU %s, %sgoodput %s", shown(ST_DOC_RUN, "jobs[].mfu", j, "mfu", a),
                lives >= 2 ? "mean " : "",
                lives >= 2 ? in_unit(ST_DOC_RUN, "jobs[].replicas.goodput",
                                     num(get(get(j, "replicas"), "goodput"), "mean"), b)
                           : shown(ST_DOC_RUN, "jobs[].goodput", j, "goodput", b));
    if (!failures_stated) /* the wall is failure-free: say so where a reader takes it as a plan */
        fprintf(out, "%sno failures modelled: the scenario states none", rates ? "; " : " (");
    if (rates || !failures_stated)
        fputc(')', out);
}

/* A plain figure of unit per second as the sentence writes it, its unit after: "39.06" of
 * "39.06 requests/s" (the row's 4 significant digits, grouped from 10,000). */
static const char *per_s(const cJSON *o, const char *key, char b[ST_REPORT_VALUE_MAX])
{
    snprintf(b, ST_REPORT_VALUE_MAX, "%s", st_fig_plain(num(o, key)).s);
    return b;
}

/* Where an autoscaled service missed its targets because its load asked for more replicas than
 * ran: ": its load asks for up to A replicas at its peak, against the B its autoscaler may
 * start" (or "against B up at most", where the cluster held it lower) from its timeline's peak of
 * replicas_asked. Nothing where the replicas kept up. */
static void short_of_replicas(FILE *out, const cJSON *j, const cJSON *in)
{
    double asked = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, get(in, "timeline")) asked = fmax(asked, num(e, "replicas_asked"));
    double up = num(in, "replicas_peak"), most = num(get(j, "autoscale"), "max");
    if (!(asked > up) || !(up > 0))
        return;
    fprintf(out, ": its load asks for up to %s replicas at its peak, against %s%s",
            st_fig_plain(asked).s, most == up ? "the " : "", st_fig_plain(up).s);
    fputs(most == up ? " its autoscaler may start" : " up at most", out);
}

/* What the services serve, when the run is only services: for each, its rate, its P99 times to
 * first token and per output token, whether it meets its latency targets (and, missed for want
 * of replicas, how many its load asks for) and the highest rate that meets them: the figures a
 * serving decision reads, not the scheduler's. */
static void serving_words(FILE *out, const cJSON *t)
{
    char a[ST_REPORT_VALUE_MAX], b[ST_REPORT_VALUE_MAX], c[ST_REPORT_VALUE_MAX];
    const cJSON *jobs = get(t, "jobs");
    int k = 0;
    for (const cJSON *j = jobs ? jobs->child : NULL; j; j = j->next) {
        const cJSON *in = get(j, "inference");
        if (!in)
            continue;
        char n1[ST_REPORT_VALUE_MAX];
        fprintf(out, "%s %s (job %s) on %s %s GPUs at %s requests/s (%s output tokens/s)",
                k++ ? "; serves" : "Serves", str(j, "model"), str(j, "name"),
                whole(num(j, "gpus"), n1), job_gpu(t, j), per_s(in, "requests_per_s", a),
                per_s(in, "tokens_per_s", b));
        if (num(j, "wait_s") > 0)
            fprintf(out, " after waiting %s for GPUs",
                    shown(ST_DOC_RUN, "jobs[].wait_s", j, "wait_s", c));
        fprintf(out, ": P99 time to first token %s, per output token %s",
                in_unit(ST_DOC_RUN, "jobs[].inference.ttft_s", num(get(in, "ttft_s"), "p99"), a),
                in_unit(ST_DOC_RUN, "jobs[].inference.tpot_s", num(get(in, "tpot_s"), "p99"), b));
        const cJSON *slo = get(in, "slo");
        if (slo && cJSON_IsNumber(get(in, "slo_attainment"))) {
            int met = cJSON_IsTrue(get(slo, "met"));
            fprintf(out, ", latency targets %s (%s of requests within them", met ? "met" : "missed",
                    shown(ST_DOC_RUN, "jobs[].inference.slo_attainment", in, "slo_attainment", c));
            if (!met)
                short_of_replicas(out, j, in);
            fputc(')', out);
        }
        if (cJSON_IsNumber(get(in, "max_rate_under_slo")))
            fprintf(out, ", at most %s requests/s within the targets",
                    per_s(in, "max_rate_under_slo", c));
    }
}

/* Beside a cluster run, what each service serves and, with latency targets, whether it meets
 * them and the share of its requests within them (the cluster's waits counted): the figure a
 * scheduling choice moves for it (a review found the headline silent on a service whose every
 * request waited hours). */
static void services_beside(FILE *out, const cJSON *t)
{
    char a[ST_REPORT_VALUE_MAX], b[ST_REPORT_VALUE_MAX];
    const cJSON *jobs = get(t, "jobs");
    for (const cJSON *j = jobs ? jobs->child : NULL; j; j = j->next) {
        const cJSON *in = get(j, "inference");
        if (!in)
            continue;
        fprintf(out, "; service %s serves output tokens at %s", str(j, "name"),
                shown(ST_DOC_RUN, "jobs[].inference.tokens_per_s", in, "tokens_per_s", a));
        const cJSON *slo = get(in, "slo");
        if (slo && cJSON_IsNumber(get(in, "slo_attainment")))
            fprintf(out, ", its latency targets %s (%s of its requests within them)",
                    cJSON_IsTrue(get(slo, "met")) ? "met" : "missed",
                    shown(ST_DOC_RUN, "jobs[].inference.slo_attainment", in, "slo_attainment", b));
    }
}

/* What a run of several jobs does: the cluster run's counts, makespan, waits and utilisation;
 * without a cluster run (collective and inference jobs run apart from it), the jobs on the
 * GPUs. */
static void cluster_words(FILE *out, const cJSON *t)
{
    char a[ST_REPORT_VALUE_MAX], b[ST_REPORT_VALUE_MAX], c[ST_REPORT_VALUE_MAX];
    const cJSON *s = get(t, "scheduler"), *cl = get(t, "cluster");
    if (!s) {
        int n = cJSON_GetArraySize(get(t, "jobs"));
        fprintf(out, "Runs %d job%s on ", n, st_plural_s(n));
        gpus_words(out, cl);
        return;
    }
    char n1[ST_REPORT_VALUE_MAX];
    /* the scheduler's jobs count each service as one, but one scaled to zero, which runs as
     * replica stretches */
    int services = 0;
    for (const cJSON *j = get(t, "jobs") ? get(t, "jobs")->child : NULL; j; j = j->next)
        services += get(j, "inference") != NULL;
    double zero = cJSON_IsNumber(get(s, "services_scaled_to_zero"))
                      ? num(s, "services_scaled_to_zero")
                      : 0,
           trains = num(s, "jobs") - (services - zero);
    fprintf(out, "Runs ");
    if (trains > 0 || !services)
        fprintf(out, "%s %sjob%s%s", whole(trains, n1), services ? "training " : "",
                trains == 1 ? "" : "s", services ? " and " : "");
    if (services)
        fprintf(out, "%d service%s", services, services == 1 ? "" : "s");
    fprintf(out, " under %s on ", str(s, "policy"));
    gpus_words(out, cl);
    fprintf(out, ": ");
    if (trains > 0 || !services)
        fprintf(out, "%s finished, ", whole(num(s, "finished"), n1));
    if (num(s, "unfinished") > 0)
        fprintf(out, "%s unfinished at the horizon, ", whole(num(s, "unfinished"), n1));
    fprintf(out, "makespan %s, ", shown(ST_DOC_RUN, "scheduler.makespan_s", s, "makespan_s", a));
    if (get(s, "mean_wait_s")) /* absent where no job finished: no wait to say */
        fprintf(out, "mean queue wait %s, ",
                shown(ST_DOC_RUN, "scheduler.mean_wait_s", s, "mean_wait_s", b));
    fprintf(out, "GPU utilisation %s",
            shown(ST_DOC_RUN, "scheduler.utilization", s, "utilization", c));
}

char *st_summary_run(const st_report *rep, const cJSON *t)
{
    char *buf, a[ST_REPORT_VALUE_MAX], b[ST_REPORT_VALUE_MAX];
    size_t len;
    FILE *out = st_report_open(&buf, &len);
    long i = lone_training(rep->run);
    const cJSON *pw = get(t, "power"), *cost = get(t, "cost");
    /* only services: what they serve leads, not the scheduler's terms, with or without a
     * cluster run */
    int alone = i < 0 && lone_kind(rep->run) == ST_WL_INFERENCE;
    if (i >= 0)
        training_words(out, i, t, st_scn_states_failures(rep->s));
    else if (alone)
        serving_words(out, t);
    else
        cluster_words(out, t);
    if (cJSON_IsNumber(get(pw, "facility_peak_w"))) { /* after a service's rates, a clause */
        fprintf(out, "%s%s facility peak", alone ? "; " : " at ",
                shown(ST_DOC_RUN, "power.facility_peak_w", pw, "facility_peak_w", a));
        if (cJSON_IsNumber(get(pw, "power_capacity_w")))
            fprintf(out, " (capacity %s)",
                    shown(ST_DOC_RUN, "power.power_capacity_w", pw, "power_capacity_w", b));
    }
    if (cJSON_IsNumber(get(cost, "total_usd"))) { /* the cost is of the first life's wall */
        const cJSON *j = i >= 0 ? cJSON_GetArrayItem(get(t, "jobs"), (int)i) : NULL;
        const cJSON *own = get(j, "cost");
        shown(ST_DOC_RUN, "cost.total_usd", cost, "total_usd", b);
        /* the sentence is the training job's: its own cost, and the scenario's where services
         * beside it cost more (a user walk found the total beside the job's name) */
        if (cJSON_IsNumber(get(own, "total_usd")))
            shown(ST_DOC_RUN, "jobs[].cost.total_usd", own, "total_usd", a);
        else
            snprintf(a, sizeof a, "%s", b);
        fprintf(out, ", costing %s%s", a, replicas_of(j) >= 2 ? " in the first life" : "");
        char none[96]; /* "optics, racks and cooling", or "" */
        unpriced(j ? j : get(t, "jobs"), none, sizeof none);
        if (strcmp(a, b) != 0 && *none)
            fprintf(out, " (%s in all; %s not priced)", b, none);
        else if (strcmp(a, b) != 0)
            fprintf(out, " (%s in all)", b);
        else if (*none)
            fprintf(out, " (%s not priced)", none);
    }
    if (!alone) /* services alone are what serving_words says */
        services_beside(out, t);
    audit_counts(out, get(t, "audit"));
    fputc('.', out);
    return st_report_close(out, &buf);
}

/* A policy's name in the sentence as every format of compare names its row: with placements
 * that differ, "policy/placement" (st_compare_row_name). */
static char *policy_name(const cJSON *p, int placements)
{
    return st_compare_row_name(str(p, "policy"), str(p, "placement"), placements);
}

/* Whether policy p's within_band list (the figures within the error band of the best,
 * compare_out.c) names key. */
static int in_band(const cJSON *p, const char *key)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, get(p, "within_band")) if (cJSON_IsString(e) &&
                                                     strcmp(e->valuestring, key) == 0) return 1;
    return 0;
}

/* Figure key's label as a word inside the sentence: "makespan", but "GPU utilisation". */
static char *label_word(const char *path, const char *key)
{
    const st_fig *f = st_fig_find(ST_DOC_COMPARE, path);
    char *label = st_xstrdup(f ? f->label : key);
    if (label[0] && !isupper((unsigned char)label[1])) /* "Makespan", not "GPU" or "P95" */
        label[0] = (char)tolower((unsigned char)label[0]);
    return label;
}

/* The names of the rows of pols that pick(p) keeps, "a", "a and b", up to four named, and past
 * four "a, b, c and N others"; NULL when none does. */
static char *names_of(const cJSON *pols, int placements, int (*pick)(const cJSON *, const void *),
                      const void *arg)
{
    size_t n = 0, k = 0;
    for (const cJSON *p = pols->child; p; p = p->next)
        n += pick(p, arg) != 0;
    if (n == 0)
        return NULL;
    char *list = st_xstrdup("");
    size_t named = n <= 4 ? n : 3;
    for (const cJSON *p = pols->child; p && k < named; p = p->next) {
        if (!pick(p, arg))
            continue;
        char *who = policy_name(p, placements);
        k++;
        const char *sep = k == 1 ? "" : k == n ? " and " : ", ";
        char *next = st_xasprintf("%s%s%s", list, sep, who);
        free(who);
        free(list);
        list = next;
    }
    if (n > named) {
        char *next = st_xasprintf("%s and %zu others", list, n - named);
        free(list);
        list = next;
    }
    return list;
}

typedef struct {
    const char *key, *v; /* the figure, and the best's value as shown */
    const char *path;    /* its path in the first row, for its unit */
} same_shown;

/* A row that reads the best's value as shown. */
static int reads_best(const cJSON *p, const void *arg)
{
    const same_shown *s = arg;
    char w[ST_REPORT_VALUE_MAX];
    return cJSON_IsNumber(get(p, s->key)) &&
           strcmp(shown(ST_DOC_COMPARE, s->path, p, s->key, w), s->v) == 0;
}

/* A row within the error band of the best at the figure that does not read the best's value. */
static int band_only(const cJSON *p, const void *arg)
{
    const same_shown *s = arg;
    return in_band(p, s->key) && !reads_best(p, arg);
}

/* "; lowest LABEL: POLICY (VALUE)" for figure key over the policies (those that read the same as
 * the best named, "fifo and sjf"), or "; LABEL the same under every policy (VALUE)" where every
 * policy's value reads the same as the report shows it: a makespan 1.1 s apart in 1.815 h names
 * no policy lower to a reader who sees 1.815 h in every row. The policies within the error band
 * of the best (compare's within_band) are named after it: a difference smaller than the model's
 * error crowns no one outright. With placements, a row is a run of a policy under a placement,
 * and every run is what reads the same. Returns the best row (the first at a tie), or NULL. */
static const cJSON *least(FILE *out, const cJSON *t, const cJSON *pols, const char *key,
                          int placements)
{
    const cJSON *best = NULL;
    size_t at = 0, i = 0, n = 0, ties = 0;
    for (const cJSON *p = pols->child; p; p = p->next, i++) {
        if (!cJSON_IsNumber(get(p, key)))
            continue;
        n++;
        if (!best || num(p, key) < num(best, key)) {
            best = p;
            at = i;
        }
    }
    if (!best)
        return NULL;
    char *path = st_xasprintf("policies[%zu].%s", at, key), v[ST_REPORT_VALUE_MAX];
    shown(ST_DOC_COMPARE, path, best, key, v);
    same_shown s = {key, v, path};
    for (const cJSON *p = pols->child; p; p = p->next)
        ties += reads_best(p, &s) != 0;
    char *label = label_word(path, key);
    size_t nb = 0;
    for (const cJSON *p = pols->child; p; p = p->next)
        nb += band_only(p, &s) != 0;
    if (n >= 2 && ties == n) {
        fprintf(out, "; %s the same under every %s (%s)", label, placements ? "run" : "policy", v);
    } else {
        char *who = names_of(pols, placements, reads_best, &s),
             *near = names_of(pols, placements, band_only, &s);
        fprintf(out, "; lowest %s: %s (%s", label, who, v);
        if (near) /* the band's high end in whole percent, as the text's "error band -21%/+27%" */
            fprintf(out, "; %s within the +%.0f%% error band of it",
                    ties + nb == n ? (placements ? "every other run" : "every other policy") : near,
                    num(t, "band_above") * 100);
        fputc(')', out);
        free(near);
        free(who);
    }
    free(label);
    free(path);
    /* no lead where every row reads the best's value or lies within the band of it */
    return n >= 2 && ties + nb == n ? NULL : best;
}

/* A row that reads as the best row does, as shown, at every one of keys[0 .. n): the lead's
 * figure and what the lead costs, so that the rows tied for a lead at the same price are all
 * named (srtf, srsf and fair-share, not srtf alone). */
typedef struct {
    const cJSON *best;
    const char *const *keys;
    size_t n;
} reads_as_best;

static int reads_as(const cJSON *p, const void *arg)
{
    const reads_as_best *s = arg;
    for (size_t k = 0; k < s->n; k++) {
        const char *key = s->keys[k];
        if (cJSON_IsNumber(get(p, key)) != cJSON_IsNumber(get(s->best, key)))
            return 0;
        if (!cJSON_IsNumber(get(p, key)))
            continue;
        char *path = st_xasprintf("policies[0].%s", key), a[ST_REPORT_VALUE_MAX],
             b[ST_REPORT_VALUE_MAX];
        int same = strcmp(shown(ST_DOC_COMPARE, path, p, key, a),
                          shown(ST_DOC_COMPARE, path, s->best, key, b)) == 0;
        free(path);
        if (!same)
            return 0;
    }
    return 1;
}

/* " POLICY pays for its lead with LABEL X against Y, ... and ..." (" A, B and C pay for their
 * lead ..." where the rows tied for the lead read alike at each figure, reads_as): the figures
 * where best, the row of the lowest completion time or wait, reads worse than the best row
 * (more preemptions, a longer makespan, a lower GPU utilisation, more energy with how much more
 * in percent), each against the best's value; a figure within the error band of the best (compare's
 * within_band) is no cost the model can tell, nor is a GPU utilisation within the band's share of
 * the highest (the share of GPU time that is useful comes from the same step times the band is of).
 * Nothing where best gives up nothing. */
static void costs(FILE *out, const cJSON *t, const cJSON *pols, const cJSON *best, const char *lead,
                  int placements)
{
    static const struct {
        const char *key;
        int higher_better;
    } fig[] = {{"preemptions", 0}, {"makespan_s", 0}, {"utilization", 1}, {"energy_j", 0}};
    size_t said = 0, at = 0, i = 0;
    char *part[sizeof fig / sizeof fig[0]];
    for (const cJSON *p = pols->child; p; p = p->next, i++)
        if (p == best)
            at = i;
    const char *same[1 + sizeof fig / sizeof fig[0]] = {lead};
    for (size_t k = 0; k < sizeof fig / sizeof fig[0]; k++)
        same[k + 1] = fig[k].key;
    reads_as_best rb = {best, same, sizeof same / sizeof same[0]};
    size_t n_who = 0;
    for (const cJSON *p = pols->child; p; p = p->next)
        n_who += reads_as(p, &rb) != 0;
    char *who = names_of(pols, placements, reads_as, &rb);
    for (size_t k = 0; k < sizeof fig / sizeof fig[0]; k++) {
        const char *key = fig[k].key;
        if (!cJSON_IsNumber(get(best, key)) || in_band(best, key))
            continue;
        const cJSON *top = NULL;
        size_t ti = 0, j = 0;
        for (const cJSON *p = pols->child; p; p = p->next, j++)
            if (cJSON_IsNumber(get(p, key)) &&
                (!top || (fig[k].higher_better ? num(p, key) > num(top, key)
                                               : num(p, key) < num(top, key)))) {
                top = p;
                ti = j;
            }
        char *path = st_xasprintf("policies[%zu].%s", at, key),
             *tpath = st_xasprintf("policies[%zu].%s", ti, key), v[ST_REPORT_VALUE_MAX],
             w[ST_REPORT_VALUE_MAX];
        shown(ST_DOC_COMPARE, path, best, key, v);
        shown(ST_DOC_COMPARE, tpath, top, key, w);
        int near = fig[k].higher_better &&
                   fabs(num(top, key) - num(best, key)) <= num(t, "band_below") * num(top, key);
        if (top != best && strcmp(v, w) != 0 && !near) {
            char *label = label_word(path, key), more[32] = "";
            if (strcmp(key, "energy_j") == 0 && num(top, key) > 0)
                snprintf(more, sizeof more, " (+%.0f%%)",
                         (num(best, key) / num(top, key) - 1) * 100);
            part[said++] = st_xasprintf("%s %s against %s%s", label, v, w, more);
            free(label);
        }
        free(tpath);
        free(path);
    }
    for (size_t k = 0; k < said; k++) {
        if (k == 0)
            fprintf(out, " %s %s with", who,
                    n_who > 1 ? "pay for their lead" : "pays for its lead");
        fprintf(out, "%s%s", k == 0 ? " " : k + 1 == said ? " and " : ", ", part[k]);
        free(part[k]);
    }
    if (said)
        fputc('.', out);
    free(who);
}

/* How many different values key takes over the rows: the policies, or the placements, that
 * the rows run (each placement under every policy). */
static size_t distinct(const cJSON *pols, const char *key)
{
    size_t n = 0;
    for (const cJSON *p = pols->child; p; p = p->next) {
        const cJSON *q = pols->child;
        while (q != p && strcmp(str(q, key), str(p, key)) != 0)
            q = q->next;
        n += q == p;
    }
    return n;
}

/* "; most service requests within their targets: A (100%; 0% under B)", the rows of the
 * highest and the lowest share as shown, or "; ... the same under every policy (V)": what a
 * service beside training gets from each policy, which the completion times do not say. */
static void slo_shares(FILE *out, const cJSON *pols, int placements)
{
    const char *key = "slo_attainment";
    const cJSON *hi = NULL, *lo = NULL;
    size_t ih = 0, il = 0, i = 0;
    for (const cJSON *p = pols->child; p; p = p->next, i++) {
        if (!cJSON_IsNumber(get(p, key)))
            continue;
        if (!hi || num(p, key) > num(hi, key))
            hi = p, ih = i;
        if (!lo || num(p, key) < num(lo, key))
            lo = p, il = i;
    }
    if (!hi)
        return;
    char *ph = st_xasprintf("policies[%zu].%s", ih, key),
         *pl = st_xasprintf("policies[%zu].%s", il, key), vh[ST_REPORT_VALUE_MAX],
         vl[ST_REPORT_VALUE_MAX];
    shown(ST_DOC_COMPARE, ph, hi, key, vh);
    shown(ST_DOC_COMPARE, pl, lo, key, vl);
    char *label = label_word(ph, key);
    if (strcmp(vh, vl) == 0) {
        fprintf(out, "; %s the same under every %s (%s)", label, placements ? "run" : "policy", vh);
    } else {
        same_shown sh = {key, vh, ph}, sl = {key, vl, pl};
        char *most = names_of(pols, placements, reads_best, &sh),
             *least_ = names_of(pols, placements, reads_best, &sl);
        fprintf(out, "; most %s: %s (%s; %s under %s)", label, most, vh, vl, least_);
        free(most);
        free(least_);
    }
    free(label);
    free(pl);
    free(ph);
}

char *st_summary_compare(const cJSON *t)
{
    static const char *const keys[] = {"mean_jct_s", "makespan_s", "mean_wait_s", "energy_j"};
    const cJSON *pols = get(t, "policies");
    char *buf;
    size_t len, n = (size_t)cJSON_GetArraySize(pols);
    int placements = st_compare_placements_differ(pols);
    FILE *out = st_report_open(&buf, &len);
    char n1[ST_REPORT_VALUE_MAX];
    double jobs = pols->child ? num(pols->child, "jobs") : 0.0;
    int services = pols->child && cJSON_IsNumber(get(pols->child, "slo_attainment"));
    if (placements) { /* "1 policy under 2 placements (2 runs)": the rows are runs, not policies */
        size_t np = distinct(pols, "policy");
        fprintf(out, "%zu %s under %zu placements (%zu runs) on the same ", np,
                np == 1 ? "policy" : "policies", distinct(pols, "placement"), n);
    } else
        fprintf(out, "%zu %s on the same ", n, n == 1 ? "policy" : "policies");
    if (services && jobs == 0) /* the scheduler's jobs: a service scaled to zero is none */
        fprintf(out, "services");
    else
        fprintf(out, "%s job%s%s", whole(jobs, n1), jobs == 1 ? "" : "s",
                services ? ", services included" : "");
    if (cJSON_IsNumber(get(t, "replicas")))
        fprintf(out, " (means over %.0f seeds)", num(t, "replicas"));
    const cJSON *won[sizeof keys / sizeof keys[0]] = {NULL};
    for (size_t k = 0; n && k < sizeof keys / sizeof keys[0]; k++)
        won[k] = least(out, t, pols, keys[k], placements);
    if (services)
        slo_shares(out, pols, placements);
    fputc('.', out);
    /* what the fastest (completion time, then wait) gives up for it, once a policy */
    if (n >= 2)
        for (size_t k = 0; k < 3; k += 2)
            if (won[k] && (k == 0 || won[k] != won[0]))
                costs(out, t, pols, won[k], keys[k], placements);
    return st_report_close(out, &buf);
}

char *st_summary_sweep(const st_sweep *sw)
{
    char *buf;
    size_t len;
    FILE *out = st_report_open(&buf, &len);
    const st_grid *g = sw->grid;
    fprintf(out, "%zu %s a full run of the scenario", g->n_points,
            g->n_points == 1 ? "point," : "points, each");
    if (sw->fixed) /* an input of every point, so said once: not an axis */
        fprintf(out, " with %s", sw->fixed->label);
    fputs(": ", out);
    for (size_t a = 0; a < g->n_ax; a++) {
        fprintf(out, "%s%s in ", a ? "; " : "", g->ax[a].path);
        for (size_t v = 0; v < g->ax[a].n; v++)
            fprintf(out, "%s%s", v ? ", " : "", g->ax[a].values[v]);
    }
    fputc('.', out);
    return st_report_close(out, &buf);
}

/* How many points have status s. */
static size_t with_status(const cJSON *pts, const char *s)
{
    size_t n = 0;
    for (const cJSON *p = pts->child; p; p = p->next)
        n += strcmp(str(p, "status"), s) == 0;
    return n;
}

char *st_summary_sweep_outcome(const cJSON *pts)
{
    size_t n = (size_t)cJSON_GetArraySize(pts), ok = with_status(pts, ST_SWEEP_OK);
    size_t nofit = with_status(pts, ST_SWEEP_NOFIT);
    return st_xasprintf(" %zu of %zu ran (%s); %zu do not fit in memory; %zu failed to load or "
                        "run (the reason column says why).",
                        ok, n, ST_SWEEP_OK, nofit, n - ok - nofit);
}

/* "G GPUs (N nodes[ of VARIANT], tp T, pp P, dp D) train WORKLOAD in X" for ranked row r. */
static void plan_words(FILE *out, const cJSON *r, const char *workload)
{
    char a[ST_REPORT_VALUE_MAX];
    char g[ST_REPORT_VALUE_MAX], nn[ST_REPORT_VALUE_MAX];
    fprintf(out, "%s GPUs (%s %s", whole(num(r, "gpus"), g), whole(num(r, "nodes"), nn),
            num(r, "nodes") == 1 ? "node" : "nodes");
    if (*str(r, "variant"))
        fprintf(out, " of %s", str(r, "variant"));
    fprintf(out, ", tp %.0f, pp %.0f, dp %.0f) train %s in %s: ", num(r, "tp"), num(r, "pp"),
            num(r, "dp"), workload, shown(ST_DOC_SIZE, "ranked[].train_s", r, "train_s", a));
    if (cJSON_IsNumber(get(r, "cost_usd")))
        fputs(shown(ST_DOC_SIZE, "ranked[].cost_usd", r, "cost_usd", a), out);
    else
        fprintf(out, "%s GPU-hours", shown(ST_DOC_SIZE, "ranked[].gpu_hours", r, "gpu_hours", a));
    if (cJSON_IsNumber(get(r, "facility_peak_w")))
        fprintf(out, " at %s facility peak",
                shown(ST_DOC_SIZE, "ranked[].facility_peak_w", r, "facility_peak_w", a));
}

/* With --existing, what row r adds to the pool kept: "add N nodes of GPU (USD) to the N0 nodes of
 * POOL: " or "add nothing to ...: ". */
static void added_words(FILE *out, const cJSON *t, const cJSON *r)
{
    char a[ST_REPORT_VALUE_MAX];
    const cJSON *e = get(t, "existing");
    if (!cJSON_IsObject(e))
        return;
    if (num(r, "added_nodes") > 0)
        fprintf(out,
                "add %.0f nodes of %s (%s) to the %.0f nodes of pool %s: ", num(r, "added_nodes"),
                str(r, "added_gpu"),
                cJSON_IsNumber(get(r, "bought_usd"))
                    ? shown(ST_DOC_SIZE, "ranked[].bought_usd", r, "bought_usd", a)
                    : "price unknown",
                num(e, "nodes"), str(e, "pool"));
    else
        fprintf(out, "add nothing to the %.0f nodes of pool %s: ", num(e, "nodes"), str(e, "pool"));
}

/* "; its hottest GPU junction, X, is over the audit's Y limit (strata audit fails it)" where the
 * first row runs hotter than the limit the audit holds it to (planner/size.h: it stays ranked). */
static void junction_words(FILE *out, const cJSON *t, const cJSON *r)
{
    char a[ST_REPORT_VALUE_MAX], b[ST_REPORT_VALUE_MAX];
    if (!cJSON_IsNumber(get(t, "junction_limit_c")) || !cJSON_IsNumber(get(r, "junction_c")) ||
        !(num(r, "junction_c") > num(t, "junction_limit_c")))
        return;
    fprintf(out,
            "; its hottest GPU junction, %s, is over the %s limit the audit holds (strata audit "
            "fails it)",
            shown(ST_DOC_SIZE, "ranked[].junction_c", r, "junction_c", a),
            shown(ST_DOC_SIZE, "junction_limit_c", t, "junction_limit_c", b));
}

/* "; it leaves X of its Y HBM free, under the audit's Z (strata audit warns)" where the first row
 * leaves less of its memory free than audit.memory_headroom (planner/size.h: it stays ranked). */
static void memory_words(FILE *out, const cJSON *t, const cJSON *r)
{
    char a[ST_REPORT_VALUE_MAX], b[ST_REPORT_VALUE_MAX], c[ST_REPORT_VALUE_MAX];
    double cap = num(r, "memory_capacity_bytes"), want = num(t, "memory_headroom");
    if (!cJSON_IsNumber(get(t, "memory_headroom")) || !(cap > 0))
        return;
    double left = cap - num(r, "memory_per_gpu_bytes");
    if (!(left < want * cap))
        return;
    fprintf(out,
            "; it leaves %s of its %s HBM free, under the %s the audit wants left (strata audit "
            "warns: allocator fragmentation and transient buffers may not fit)",
            in_unit(ST_DOC_SIZE, "ranked[].memory_capacity_bytes", left, a),
            shown(ST_DOC_SIZE, "ranked[].memory_capacity_bytes", r, "memory_capacity_bytes", b),
            shown(ST_DOC_SIZE, "memory_headroom", t, "memory_headroom", c));
}

/* "; at the point forecast only: its 80% band, LO to HI, reaches past the deadline (...)" where
 * the first row meets the deadline at its point forecast while the upper end of its time to
 * train's error band does not (a VP read "meets 90 d" of a row whose band ran to 99 d). Under
 * --confidence the deadline already holds the band's upper end at that level. */
static void size_band_words(FILE *out, const cJSON *t, const cJSON *r)
{
    const cJSON *band = get(r, "train_s_band");
    if (cJSON_IsNumber(get(t, "confidence")) || !cJSON_IsTrue(get(r, "feasible")) ||
        cJSON_GetArraySize(band) != 2)
        return;
    double hi = cJSON_GetArrayItem(band, 1)->valuedouble;
    if (!(hi > num(t, "deadline_s")))
        return;
    char range[2 * ST_REPORT_VALUE_MAX];
    st_unit_format_range(cJSON_GetArrayItem(band, 0)->valuedouble, hi, num(r, "train_s"),
                         ST_DIM_TIME, range, sizeof range);
    fprintf(out,
            "; it meets the deadline at its point forecast only: its %.0f%% error band, %s, "
            "reaches past it (--confidence holds the deadline to the band)",
            100 * ST_BAND_LEVEL, range);
}

/* ", K of them across their whole 80% band" of the feasible rows, where the deadline is held
 * at the point forecast (no --confidence). */
static void band_count_words(FILE *out, const cJSON *t, const st_size_result *res, size_t feasible)
{
    if (cJSON_IsNumber(get(t, "confidence")) || feasible == 0)
        return;
    size_t whole = 0;
    for (size_t i = 0; i < res->n; i++)
        whole += res->cfg[i].feasible && res->cfg[i].train_band[1] <= num(t, "deadline_s");
    fprintf(out, " (%zu of them across their whole %.0f%% error band)", whole, 100 * ST_BAND_LEVEL);
}

char *st_summary_size(const cJSON *t, const st_size_result *res)
{
    char *buf, d[ST_REPORT_VALUE_MAX];
    size_t len, feasible = 0;
    FILE *out = st_report_open(&buf, &len);
    const cJSON *best = cJSON_GetArrayItem(get(t, "ranked"), 0);
    const char *deadline = shown(ST_DOC_SIZE, "deadline_s", t, "deadline_s", d);
    for (size_t i = 0; i < res->n; i++)
        feasible += res->cfg[i].feasible != 0;
    if (!best)
        fprintf(out, "No configuration could be evaluated");
    else if (cJSON_IsTrue(get(best, "feasible")) && get(t, "existing"))
        /* --existing ranks by what a row buys before the goal (docs/guide/sizing.md): the first
         * row buys the least, not the least cost or GPU-hours of all */
        fprintf(out, "First by what it buys (bought_usd), then by the %s goal: ", str(t, "goal"));
    else if (cJSON_IsTrue(get(best, "feasible")))
        fprintf(out, "Best for the %s goal: ", str(t, "goal"));
    else
        fprintf(out,
                "No configuration meets the %s deadline and the budgets; the nearest: ", deadline);
    if (best) {
        added_words(out, t, best);
        plan_words(out, best, str(t, "workload"));
        fprintf(out, " (what binds: %s", str(best, "binds"));
        if (cJSON_IsString(get(best, "unmet"))) /* over it, or misses it: JSON ranked[].unmet */
            fprintf(out, ", %s", str(best, "unmet"));
        fputc(')', out);
        size_band_words(out, t, best);
        junction_words(out, t, best);
        memory_words(out, t, best);
    }
    fprintf(out, "; %zu of %zu configurations evaluated meet the %s deadline and the budgets",
            feasible, res->n, deadline);
    band_count_words(out, t, res, feasible);
    fprintf(out, ", %.0f on the Pareto front.", (double)cJSON_GetArraySize(get(t, "front")));
    return st_report_close(out, &buf);
}

/* "G GPUs of TYPE (tp T[, pp P][, ep E], R replicas)" for a service's sizing row r. */
static void serve_plan_words(FILE *out, const cJSON *r)
{
    char g[ST_REPORT_VALUE_MAX];
    fprintf(out, "%s GPUs of %s (tp %.0f", whole(num(r, "gpus"), g), str(r, "gpu"), num(r, "tp"));
    if (num(r, "pp") > 1)
        fprintf(out, ", pp %.0f", num(r, "pp"));
    if (num(r, "ep") > 1)
        fprintf(out, ", ep %.0f", num(r, "ep"));
    fprintf(out, ", %.0f %s)", num(r, "replicas"),
            num(r, "replicas") == 1 ? "replica" : "replicas");
}

/* "; a P99 time to first token of X (target Y)" for each target t states, row r's p99. */
static void serve_target_words(FILE *out, const cJSON *t, const cJSON *r)
{
    static const char *const k[][3] = {
        {"ttft_p99_s", "ttft_p99_target_s", "time to first token"},
        {"tpot_p99_s", "tpot_p99_target_s", "time per output token"}};
    char a[ST_REPORT_VALUE_MAX], b[ST_REPORT_VALUE_MAX];
    const char *sep = " within ";
    for (int i = 0; i < 2; i++) {
        if (!cJSON_IsNumber(get(t, k[i][1])))
            continue;
        char *path = st_xasprintf("serving[].%s", k[i][0]);
        fprintf(out, "%sa P99 %s of %s (target %s)", sep, k[i][2],
                shown(ST_DOC_SIZE, path, r, k[i][0], a),
                shown(ST_DOC_SIZE, k[i][1], t, k[i][1], b));
        free(path);
        sep = " and ";
    }
}

char *st_summary_size_serve(const cJSON *t)
{
    char *buf, a[ST_REPORT_VALUE_MAX];
    size_t len, n = 0, fit = 0;
    FILE *out = st_report_open(&buf, &len);
    const cJSON *rows = get(t, "serving"), *best = NULL;
    for (const cJSON *r = rows ? rows->child : NULL; r; r = r->next, n++)
        if (cJSON_IsTrue(get(r, "fits")) && fit++ == 0)
            best = r;
    char load[ST_REPORT_VALUE_MAX + 16];
    if (cJSON_IsNumber(get(t, "clients")))
        snprintf(load, sizeof load, "%s clients", whole(num(t, "clients"), a));
    else
        snprintf(load, sizeof load, "%.4g requests/s", num(t, "rate_per_s"));
    if (!best) {
        const cJSON *r = rows ? rows->child : NULL;
        fprintf(out, "No configuration tried serves %s of %s", load, str(t, "workload"));
        if (r)
            fprintf(out, "; the first, %s at tp %.0f: %s", str(r, "gpu"), num(r, "tp"),
                    str(r, "why"));
        fputc('.', out);
        return st_report_close(out, &buf);
    }
    fprintf(out, "Best for the %s goal: ", str(t, "goal"));
    serve_plan_words(out, best);
    fprintf(out, " serve %s of %s", load, str(t, "workload"));
    serve_target_words(out, t, best);
    if (cJSON_IsNumber(get(best, "usd_per_hour")))
        fprintf(out, ", at %s",
                shown(ST_DOC_SIZE, "serving[].usd_per_hour", best, "usd_per_hour", a));
    /* the search's counts, whatever rows --top kept */
    if (cJSON_IsNumber(get(t, "tried")) && cJSON_IsNumber(get(t, "serve")))
        fit = (size_t)num(t, "serve"), n = (size_t)num(t, "tried");
    fprintf(out, "; %zu of %zu configurations tried serve it.", fit, n);
    return st_report_close(out, &buf);
}
