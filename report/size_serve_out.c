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

char *st_size_serve_text(const char *file, const st_workload_cfg *w, const char *goal,
                         const st_serve_size *z)
{
    const st_inference_cfg *ic = &w->inference;
    char *buf;
    size_t len;
    FILE *out = st_report_open(&buf, &len);
    fprintf(out, "strata size: %s, workload %s: ", file, w->name);
    if (z->clients > 0)
        fprintf(out, "%lld clients in a closed loop", (long long)z->clients);
    else
        fprintf(out, "%.4g requests/s%s", z->rate,
                ic->n_load > 0             ? " (its load curve's peak)"
                : ic->mode == ST_REQ_TRACE ? " (its trace's mean)"
                                           : "");
    fprintf(out, " of %lld tokens in, %lld out", (long long)ic->input_tokens,
            (long long)ic->output_tokens);
    if (ic->slo_ttft_s > 0 || ic->slo_tpot_s > 0)
        fprintf(out, ", p99 time to first token <= %.4g s, per output token <= %.4g s",
                ic->slo_ttft_s, ic->slo_tpot_s);
    fprintf(out, "; ranked by %s\n", goal);
    /* the serving stack every row's latencies carry (models/config/frontend.h) */
    char a[32], b[32];
    st_unit_format(ic->frontend_request_s, ST_DIM_TIME, a, sizeof a);
    st_unit_format(ic->frontend_iteration_s, ST_DIM_TIME, b, sizeof b);
    fprintf(out, "serving stack %s: %s per request, %s per iteration, in every row's latencies\n\n",
            ic->frontend ? ic->frontend : "as stated", a, b);
    int wide = z->clients > 0 ? 15 : 12; /* the column's head: clients/replica or rate/replica */
    int gw = 10;                         /* the longest type's name: a100-sxm-40g is 12 */
    for (size_t i = 0; i < z->n; i++)
        gw = (int)strlen(z->row[i].gpu->name) > gw ? (int)strlen(z->row[i].gpu->name) : gw;
    fprintf(out, "%-4s %-*s %3s %3s %3s %8s %6s %*s %10s %10s %10s %10s %10s\n", "rank", gw, "gpu",
            "tp", "pp", "ep", "replicas", "gpus", wide,
            z->clients > 0 ? "clients/replica" : "rate/replica", "p99 ttft", "p99 tpot", "GPUs kW",
            "USD/h", "USD/Mtok");
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
        char carries[24];
        if (z->clients > 0)
            snprintf(carries, sizeof carries, "%lld", (long long)r->clients_per_replica);
        else
            snprintf(carries, sizeof carries, "%.4g/s", r->rate_per_replica);
        fprintf(out,
                "%-4zu %-*s %3lld %3lld %3lld %8lld %6lld %*s %9.4gs %9.4gs %10.4g %10s %10s\n",
                ++k, gw, r->gpu->name, (long long)r->tp, (long long)r->pp, (long long)r->ep,
                (long long)r->replicas, (long long)r->gpus, wide, carries, r->ttft_p99_s,
                r->tpot_p99_s, r->gpus_board_w / 1e3, usd, mt);
    }
    if (k < z->serve) /* --top kept fewer than serve it: JSON and CSV left_out */
        fprintf(out,
                "(the first %zu of the %zu configurations that serve it, %zu left out; a larger "
                "--top lists more)\n",
                k, z->serve, z->serve - k);
    int said = 0; /* the heading, over the first row that does not serve it */
    for (size_t i = 0; i < z->n; i++)
        if (!z->row[i].fits)
            fprintf(out, "%s%s tp %lld pp %lld ep %lld: %s\n",
                    said++ ? "  " : "\nnot possible:\n  ", z->row[i].gpu->name,
                    (long long)z->row[i].tp, (long long)z->row[i].pp, (long long)z->row[i].ep,
                    z->row[i].why);
    return st_report_close(out, &buf);
}
