/* `strata run --format markdown|csv`: the JSON report's values as tables. Markdown (for a wiki):
 * the scenario's name as its title, the answer in words (report/summary.c), then a figure |
 * value | key table per job and per root object, each figure named and its number in its unit as
 * the HTML report has them, and the audit's checks a row each, as the HTML has them. CSV: one
 * key,value row per leaf of the JSON report, the value exactly the JSON's text, so a spreadsheet
 * gets the same numbers. */
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

typedef struct md_ctx {
    FILE *out;
    size_t skip;
    const st_report *rep; /* whose scenario qualifies a label (st_report_run_label) */
} md_ctx;

/* A leaf as the HTML's row gives it: its label, its value in its unit, and its JSON path (the
 * HTML's on hover: "jobs[0].step_time_s") for a reader who looks it up. */
static void md_row(void *ctx, const char *path, const cJSON *leaf)
{
    md_ctx *m = ctx;
    char buf[ST_REPORT_VALUE_MAX];
    const char *key = path + (strlen(path) > m->skip ? m->skip : 0);
    key += key[0] == '.';
    const char *text = st_report_value_text(ST_DOC_RUN, path, leaf, buf, sizeof buf);
    char *label = st_report_run_label(m->rep, path, key);
    fputs("| ", m->out);
    st_report_md_cell(m->out, label);
    fputs(" | ", m->out);
    st_report_md_cell(m->out, text);
    fputs(" | ", m->out);
    st_report_md_cell(m->out, path);
    fputs(" |\n", m->out);
    free(label);
}

static void md_table(FILE *out, const cJSON *node, const char *prefix, const st_report *rep)
{
    fputs("| figure | value | key |\n|---|---:|---|\n", out);
    md_ctx m = {out, strlen(prefix), rep};
    st_report_leaves(node, prefix, md_row, &m);
    fputc('\n', out);
}

/* The audit as the HTML gives it: one row a check, its status, level, name and message (which
 * states the value and the limit with their units); a key | value table of its leaves read
 * "[6].limit | 2e+16" with no unit. */
const char *const st_report_audit_keys[ST_REPORT_AUDIT_COLS] = {"status", "level", "check",
                                                                "message"};

const char *st_report_audit_head(size_t col)
{
    char path[32];
    snprintf(path, sizeof path, "audit[].%s", st_report_audit_keys[col]);
    const st_fig *f = st_fig_find(ST_DOC_RUN, path);
    return f ? f->label : st_report_audit_keys[col];
}

void st_report_audit_each(const cJSON *audit, void (*fn)(void *ctx, const cJSON *check), void *ctx)
{
    static const char *const order[] = {"fail", "warn", NULL};
    for (size_t g = 0; g < 3; g++)
        for (const cJSON *a = audit ? audit->child : NULL; a; a = a->next) {
            const cJSON *st = cJSON_GetObjectItemCaseSensitive(a, "status");
            const char *s = cJSON_IsString(st) ? st->valuestring : "";
            int mine = order[g] ? strcmp(s, order[g]) == 0
                                : strcmp(s, order[0]) != 0 && strcmp(s, order[1]) != 0;
            if (mine)
                fn(ctx, a);
        }
}

/* One check as a Markdown row. */
static void md_check(void *ctx, const cJSON *a)
{
    FILE *out = ctx;
    for (size_t k = 0; k < ST_REPORT_AUDIT_COLS; k++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(a, st_report_audit_keys[k]);
        fputs(k ? " | " : "| ", out);
        st_report_md_cell(out, cJSON_IsString(v) ? v->valuestring : "");
    }
    fputs(" |\n", out);
}

static void md_audit(FILE *out, const cJSON *audit)
{
    for (size_t k = 0; k < ST_REPORT_AUDIT_COLS; k++) {
        fputs(k ? " | " : "| ", out);
        st_report_md_cell(out, st_report_audit_head(k));
    }
    fputs(" |\n|---|---|---|---|\n", out);
    st_report_audit_each(audit, md_check, out);
    fputc('\n', out);
}

char *st_report_markdown(const st_report *rep)
{
    cJSON *t = st_report_tree(rep);
    char *buf, path[64];
    size_t len, i = 0;
    FILE *out = st_report_open(&buf, &len);
    const cJSON *cl = cJSON_GetObjectItemCaseSensitive(t, "cluster");
    char *summary = st_summary_run(rep, t);
    fputs("# ", out);
    st_report_md_cell(out, st_scn_name(rep->s));
    fputs("\n\n", out);
    st_report_md_cell(out, summary); /* the answer in words, as the HTML page opens */
    free(summary);
    fprintf(out, "\n\nStrata run report: strata %s, scenario hash %s, seed %llu; ", STRATA_VERSION,
            cJSON_GetObjectItemCaseSensitive(t, "scenario_hash")->valuestring,
            (unsigned long long)rep->seed);
    char *hw = st_report_hardware(cl); /* the cluster's GPUs, each pool's on a mixed one */
    st_report_md_cell(out, hw);
    free(hw);
    fputs("\n\n## Jobs\n\n", out);
    for (const cJSON *j = cJSON_GetObjectItemCaseSensitive(t, "jobs")->child; j; j = j->next, i++) {
        fputs("### ", out);
        st_report_md_cell(out, cJSON_GetObjectItemCaseSensitive(j, "name")->valuestring);
        fputs("\n\n", out);
        snprintf(path, sizeof path, "jobs[%zu]", i);
        md_table(out, j, path, rep);
    }
    for (const cJSON *o = t->child; o; o = o->next)
        if (cJSON_IsObject(o)) {
            fputs("## ", out);
            st_report_md_cell(out, o->string);
            fputs("\n\n", out);
            md_table(out, o, o->string, rep);
        }
    fputs("## Pre-flight audit\n\n", out);
    md_audit(out, cJSON_GetObjectItemCaseSensitive(t, "audit"));
    cJSON_Delete(t);
    return st_report_close(out, &buf);
}

static void csv_row(void *ctx, const char *path, const cJSON *leaf)
{
    FILE *out = ctx;
    char buf[ST_REPORT_VALUE_MAX];
    st_report_csv_cell(out, path);
    fputc(',', out);
    st_report_csv_cell(out, st_report_value_exact(leaf, buf, sizeof buf));
    fputc('\n', out);
}

char *st_report_csv(const st_report *rep)
{
    cJSON *t = st_report_tree(rep);
    char *buf;
    size_t len;
    FILE *out = st_report_open(&buf, &len);
    fputs("key,value\n", out);
    st_report_leaves(t, "", csv_row, out);
    cJSON_Delete(t);
    return st_report_close(out, &buf);
}

int st_report_format_of(const char *name)
{
    static const char *const names[] = {"text", "json", "html", "markdown", "csv"};
    for (int f = 0; name && f < (int)(sizeof names / sizeof names[0]); f++)
        if (strcmp(name, names[f]) == 0)
            return f;
    return -1;
}

char *st_report_render(const st_report *rep, st_report_format f)
{
    return f == ST_FMT_HTML  ? st_report_html(rep)
           : f == ST_FMT_CSV ? st_report_csv(rep)
                             : st_report_markdown(rep);
}
