/* `strata size` on a kind: inference workload (planner/size_serve.h): the ranked table in text,
 * or its JSON (the size document's `serving` rows, docs/guide/scenario-reference.md). */
#include <stdio.h>
#include <string.h>

#include "models/silicon/gpu.h"
#include "report/report.h"
#include "report/size_out.h"

cJSON *st_size_serve_json(const char *file, const st_workload_cfg *w, const char *goal,
                          const st_serve_size *z)
{
    const st_inference_cfg *ic = &w->inference;
    cJSON *t = cJSON_CreateObject();
    cJSON_AddStringToObject(t, "file", file);
    cJSON_AddStringToObject(t, "workload", w->name);
    cJSON_AddStringToObject(t, "goal", goal);
    if (z->clients > 0) /* a closed loop: its clients, not a rate */
        cJSON_AddNumberToObject(t, "clients", (double)z->clients);
    else
        cJSON_AddNumberToObject(t, "rate_per_s", z->rate);
    if (ic->slo_ttft_s > 0)
        cJSON_AddNumberToObject(t, "ttft_p99_target_s", ic->slo_ttft_s);
    if (ic->slo_tpot_s > 0)
        cJSON_AddNumberToObject(t, "tpot_p99_target_s", ic->slo_tpot_s);
    cJSON_AddNumberToObject(t, "tried", (double)z->tried);
    cJSON_AddNumberToObject(t, "serve", (double)z->serve);
    size_t shown = 0; /* of those that serve it, the rows --top keeps */
    for (size_t i = 0; i < z->n; i++)
        shown += z->row[i].fits != 0;
    cJSON_AddNumberToObject(t, "left_out", (double)(z->serve > shown ? z->serve - shown : 0));
    cJSON *rows = cJSON_AddArrayToObject(t, "serving");
    for (size_t i = 0; i < z->n; i++) {
        const st_serve_size_row *r = &z->row[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "gpu", r->gpu->name);
        cJSON_AddNumberToObject(o, "tp", (double)r->tp);
        cJSON_AddNumberToObject(o, "pp", (double)r->pp);
        cJSON_AddNumberToObject(o, "ep", (double)r->ep);
        cJSON_AddBoolToObject(o, "fits", r->fits);
        if (!r->fits) {
            cJSON_AddStringToObject(o, "why", r->why);
        } else {
            cJSON_AddNumberToObject(o, "replicas", (double)r->replicas);
            cJSON_AddNumberToObject(o, "gpus", (double)r->gpus);
            if (z->clients > 0)
                cJSON_AddNumberToObject(o, "clients_per_replica", (double)r->clients_per_replica);
            else
                cJSON_AddNumberToObject(o, "rate_per_replica", r->rate_per_replica);
            cJSON_AddNumberToObject(o, "ttft_p99_s", r->ttft_p99_s);
            cJSON_AddNumberToObject(o, "tpot_p99_s", r->tpot_p99_s);
            cJSON_AddNumberToObject(o, "gpus_board_w", r->gpus_board_w);
            if (r->priced) {
                cJSON_AddNumberToObject(o, "usd_per_hour", r->usd_per_hour);
                cJSON_AddNumberToObject(o, "usd_per_million_tokens", r->usd_per_million_tokens);
            }
        }
        cJSON_AddItemToArray(rows, o);
    }
    return t;
}

const char *st_size_serve_fleet(void)
{
    return "Each row is a fleet of its own, sized to the load: the scenario's cluster bounds a "
           "replica (its tensor parallelism and pipeline stages) but not how many replicas, so a "
           "row may need more GPUs than the cluster holds (strata run serves the replicas the "
           "scenario states)";
}

char *st_size_serve_text(const char *file, const st_workload_cfg *w, const char *goal,
                         const st_serve_size *z)
{
    const st_inference_cfg *ic = &w->inference;
    char *buf;
    size_t len;
    FILE *out = st_report_open(&buf, &len);
    fprintf(out, "strata size: %s, workload %s: ", file, w->name);
    if (z->clients > 0)
        fprintf(out, "%s clients in a closed loop", st_fig_plain((double)z->clients).s);
    else
        fprintf(out, "%s requests/s%s", st_fig_plain(z->rate).s,
                ic->n_load > 0             ? " (its load curve's peak)"
                : ic->mode == ST_REQ_TRACE ? " (its trace's mean)"
                                           : "");
    fprintf(out, " of %s tokens in, %s out", st_fig_plain((double)ic->input_tokens).s,
            st_fig_plain((double)ic->output_tokens).s);
    /* each target stated, in the unit run's slo line gives it (50 ms, not 0.05 s) */
    char t[32];
    if (ic->slo_ttft_s > 0) {
        st_unit_format(ic->slo_ttft_s, ST_DIM_TIME, t, sizeof t);
        fprintf(out, ", p99 time to first token <= %s", t);
    }
    if (ic->slo_tpot_s > 0) {
        st_unit_format(ic->slo_tpot_s, ST_DIM_TIME, t, sizeof t);
        fprintf(out, ", %s output token <= %s", ic->slo_ttft_s > 0 ? "per" : "p99 time per", t);
    }
    fprintf(out, "; ranked by %s\n", goal);
    /* the serving stack every row's latencies carry (models/config/frontend.h) */
    char a[32], b[32];
    st_unit_format(ic->frontend_request_s, ST_DIM_TIME, a, sizeof a);
    st_unit_format(ic->frontend_iteration_s, ST_DIM_TIME, b, sizeof b);
    fprintf(out, "serving stack %s: %s per request, %s per iteration, in every row's latencies\n",
            ic->frontend ? ic->frontend : "as stated", a, b);
    fprintf(out, "%s\n\n", st_size_serve_fleet());
    int wide = z->clients > 0 ? 15 : 12; /* the column's head: clients/replica or rate/replica */
    int gw = 10;                         /* the longest type's name: a100-sxm-40g is 12 */
    for (size_t i = 0; i < z->n; i++)
        gw = (int)strlen(z->row[i].gpu->name) > gw ? (int)strlen(z->row[i].gpu->name) : gw;
    /* the latencies and power in the unit that reads at their size, as run and the Markdown
     * give them (365 ms, 7.169 kW; not 0.365s, nor a kW column reading 0.9575) */
    fprintf(out, "%-4s %-*s %3s %3s %3s %8s %6s %*s %10s %10s %10s %10s %10s\n", "rank", gw, "gpu",
            "tp", "pp", "ep", "replicas", "gpus", wide,
            z->clients > 0 ? "clients/replica" : "rate/replica", "p99 ttft", "p99 tpot",
            "GPUs power", "USD/h", "USD/Mtok");
    size_t k = 0;
    for (size_t i = 0; i < z->n; i++) {
        const st_serve_size_row *r = &z->row[i];
        if (!r->fits)
            continue;
        char usd[32] = "-", mt[32] = "-";
        if (r->priced) { /* 14,320, as every other money figure, not 1.432e+04 */
            st_fig_money(r->usd_per_hour, usd, sizeof usd);
            st_fig_money(r->usd_per_million_tokens, mt, sizeof mt);
        }
        char carries[ST_FIG_TEXT_MAX], ttft[32], tpot[32], pw[32];
        if (z->clients > 0)
            st_fig_number_text(ST_FU_NUMBER, (double)r->clients_per_replica, carries,
                               sizeof carries);
        else
            st_fig_number_text(ST_FU_PER_S, r->rate_per_replica, carries, sizeof carries);
        st_unit_format(r->ttft_p99_s, ST_DIM_TIME, ttft, sizeof ttft);
        st_unit_format(r->tpot_p99_s, ST_DIM_TIME, tpot, sizeof tpot);
        st_unit_format(r->gpus_board_w, ST_DIM_POWER, pw, sizeof pw);
        fprintf(out, "%-4zu %-*s %3lld %3lld %3lld %8s %6s %*s %10s %10s %10s %10s %10s\n", ++k, gw,
                r->gpu->name, (long long)r->tp, (long long)r->pp, (long long)r->ep,
                st_fig_plain((double)r->replicas).s, st_fig_plain((double)r->gpus).s, wide, carries,
                ttft, tpot, pw, usd, mt);
    }
    if (k < z->serve) /* --top kept fewer than serve it: JSON and CSV left_out */
        fprintf(out,
                "(the first %s of the %s configurations that serve it, %s left out; a larger "
                "--top lists more)\n",
                st_fig_plain((double)k).s, st_fig_plain((double)z->serve).s,
                st_fig_plain((double)(z->serve - k)).s);
    int said = 0; /* the heading, over the first row that does not serve it */
    for (size_t i = 0; i < z->n; i++)
        if (!z->row[i].fits)
            fprintf(out, "%s%s tp %lld pp %lld ep %lld: %s\n",
                    said++ ? "  " : "\nnot possible:\n  ", z->row[i].gpu->name,
                    (long long)z->row[i].tp, (long long)z->row[i].pp, (long long)z->row[i].ep,
                    z->row[i].why);
    return st_report_close(out, &buf);
}
