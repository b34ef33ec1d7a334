/* The report's schema (report/figures.h) against what the commands write and what the docs say:
 * every leaf of every golden report, and of run, compare, sweep and size's JSON on the examples,
 * has a row whose unit suits it; every row has its one line, with its unit, in the report
 * section of docs/guide/scenario-reference.md, and every line there is a row. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, glob */
#include <check.h>
#include <cjson/cJSON.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "models/forecast/forecast.h"
#include "models/serve/serve.h"
#include "report/figures.h"
#include "report/report.h"

#define DOCS ST_SOURCE_DIR "/docs/guide/scenario-reference.md"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* What a walk over one document checks against: its kind, the file it came from (for the
 * messages), a sweep's axis columns (not figures: the scenario's own keys) and a count. */
typedef struct walk {
    st_fig_doc doc;
    const char *file;
    const cJSON *columns; /* sweep: the columns array; those before "status" are the axes */
    size_t leaves;
} walk;

static int is_axis(const walk *w, const char *path)
{
    static const char pts[] = "points[";
    const char *dot = strncmp(path, pts, sizeof pts - 1) == 0 ? strchr(path, '.') : NULL;
    for (const cJSON *c = w->columns ? w->columns->child : NULL; dot && c; c = c->next) {
        if (strcmp(c->valuestring, "status") == 0)
            return 0;
        if (strcmp(c->valuestring, dot + 1) == 0)
            return 1;
    }
    return 0;
}

/* The leaf at path must have a row whose unit suits its JSON type. */
static void check_leaf(walk *w, const char *path, const cJSON *leaf)
{
    w->leaves++;
    if (is_axis(w, path))
        return;
    const st_fig *f = st_fig_find(w->doc, path);
    ck_assert_msg(f != NULL, "%s: %s has no row in report/figures_table.c", w->file, path);
    if (cJSON_IsString(leaf))
        ck_assert_msg(f->unit == ST_FU_TEXT, "%s: %s is text, its row says %s", w->file, path,
                      st_fig_unit_name(f->unit));
    else if (cJSON_IsBool(leaf))
        ck_assert_msg(f->unit == ST_FU_BOOL, "%s: %s is a boolean, its row says %s", w->file, path,
                      st_fig_unit_name(f->unit));
    else if (cJSON_IsNumber(leaf))
        ck_assert_msg(f->unit != ST_FU_TEXT && f->unit != ST_FU_BOOL,
                      "%s: %s is a number, its row says %s", w->file, path,
                      st_fig_unit_name(f->unit));
    else /* null: a figure that may be unknown, or a sweep cell the point has none for */
        ck_assert_msg(f->flags & ST_FIG_NULLABLE || w->doc == ST_DOC_SWEEP,
                      "%s: %s is null, its row is not nullable", w->file, path);
}

static void leaves(walk *w, const cJSON *node, const char *prefix)
{
    if (!cJSON_IsObject(node) && !cJSON_IsArray(node)) {
        check_leaf(w, prefix, node);
        return;
    }
    size_t i = 0;
    for (const cJSON *c = node->child; c; c = c->next, i++) {
        char path[512];
        if (cJSON_IsArray(node))
            snprintf(path, sizeof path, "%s[%zu]", prefix, i);
        else
            snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "", c->string);
        leaves(w, c, path);
    }
}

static size_t check_json(st_fig_doc doc, const char *file, const char *text)
{
    cJSON *t = cJSON_Parse(text);
    ck_assert_msg(t != NULL, "%s does not parse", file);
    walk w = {doc, file, cJSON_GetObjectItemCaseSensitive(t, "columns"), 0};
    leaves(&w, t, "");
    cJSON_Delete(t);
    return w.leaves;
}

START_TEST(test_every_golden_leaf_has_a_row)
{
    glob_t g;
    ck_assert_int_eq(glob(ST_SOURCE_DIR "/tests/golden/*.json", 0, NULL, &g), 0);
    size_t n = 0;
    for (size_t k = 0; k < g.gl_pathc; k++) {
        char *text = slurp(g.gl_pathv[k]);
        n += check_json(ST_DOC_RUN, g.gl_pathv[k], text);
        free(text);
    }
    ck_assert_uint_ge(g.gl_pathc, 10);
    ck_assert_uint_gt(n, 1000);
    globfree(&g);
}
END_TEST

/* Run a command as a user types it, with "-o FILE" appended, stdout to /dev/null; returns the
 * file's text (the caller frees it). */
static char *command_json(int (*cmd)(int, char **), const char *const *args)
{
    char out[] = "/tmp/strata-figures-XXXXXX";
    int fd = mkstemp(out);
    ck_assert(fd >= 0);
    close(fd);
    char *argv[24];
    int argc = 0;
    while (args[argc]) {
        argv[argc] = (char *)args[argc];
        argc++;
    }
    argv[argc++] = "-o";
    argv[argc++] = out;
    argv[argc] = NULL;
    fflush(stdout);
    ck_assert_ptr_nonnull(freopen("/dev/null", "w", stdout));
    ck_assert_msg(cmd(argc, argv) == 0, "%s %s failed", args[0], args[1]);
    char *text = slurp(out), journal[64];
    unlink(out);
    snprintf(journal, sizeof journal, "%s.journal", out); /* sweep's */
    unlink(journal);
    return text;
}

#define EX ST_SOURCE_DIR "/scenarios/examples/"

START_TEST(test_every_example_run_leaf_has_a_row)
{
    glob_t g;
    ck_assert_int_eq(glob(EX "*.yaml", 0, NULL, &g), 0);
    for (size_t k = 0; k < g.gl_pathc; k++) {
        /* replicas redraw job lives, refused where the cluster run draws the failures */
        char *file = slurp(g.gl_pathv[k]);
        int cluster_scope = strstr(file, "scope: cluster") != NULL;
        free(file);
        const char *args[] = {
            "run", g.gl_pathv[k], "--format", "json", cluster_scope ? NULL : "--replicas",
            "2",   NULL};
        char *text = command_json(st_cmd_run, args);
        check_json(ST_DOC_RUN, g.gl_pathv[k], text);
        free(text);
    }
    globfree(&g);
}
END_TEST

START_TEST(test_every_compare_sweep_and_size_leaf_has_a_row)
{
    const char *cmp[] = {"compare",    EX "cluster-failures.yaml",
                         "--policies", "fifo,srtf",
                         "--replicas", "2",
                         "--format",   "json",
                         NULL};
    char *text = command_json(st_cmd_compare, cmp);
    ck_assert_uint_gt(check_json(ST_DOC_COMPARE, "compare", text), 40);
    free(text);
    char all[1024] = "";
    for (size_t k = 0; st_fig_sweep_col(k); k++)
        snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", k ? "," : "",
                 st_fig_sweep_name(st_fig_sweep_col(k)));
    const char *swp[] = {"sweep",     EX "quickstart.yaml",
                         "--set",     "cost.delivery=cloud",
                         "--set",     "cost.gpu_hour_price=2 USD/h,4 USD/h",
                         "--columns", all,
                         "--format",  "json",
                         NULL};
    text = command_json(st_cmd_sweep, swp);
    ck_assert_uint_gt(check_json(ST_DOC_SWEEP, "sweep", text), 50);
    free(text);
    const char *sz[] = {"size",          EX "quickstart.yaml", "--deadline", "1h", "--gpu-types",
                        "h100-sxm,b200", "--format",           "json",       NULL};
    text = command_json(st_cmd_size, sz);
    ck_assert_uint_gt(check_json(ST_DOC_SIZE, "size", text), 100);
    free(text);
    const char *szc[] = {"size",       EX "finetune-70b-cloud.yaml",
                         "--deadline", "2d",
                         "--goal",     "cost",
                         "--format",   "json",
                         NULL};
    text = command_json(st_cmd_size, szc);
    check_json(ST_DOC_SIZE, "size --goal cost", text);
    free(text);
    const char *szs[] = {
        "size", EX "serve-llama3-70b.yaml", "--gpu-types", "b200", "--format", "json", NULL};
    text = command_json(st_cmd_size, szs);
    ck_assert_uint_gt(check_json(ST_DOC_SIZE, "size of a service", text), 30);
    free(text);
}
END_TEST

/* The tables of the docs' report section: after a line "<!-- figures: DOC -->", a table whose
 * lines begin "| `PATH` | UNIT |". Each row of the schema has exactly one line in its
 * document's table, with its unit, and each line is a row. */
START_TEST(test_every_row_has_its_doc_line)
{
    char *doc = slurp(DOCS);
    size_t *seen = calloc(st_fig_count, sizeof *seen);
    int tables = 0;
    for (char *line = strtok(doc, "\n"); line; line = strtok(NULL, "\n")) {
        char name[32];
        if (sscanf(line, "<!-- figures: %31[a-z] -->", name) != 1)
            continue;
        int d = 0;
        while (d < ST_DOC__COUNT && strcmp(st_fig_doc_name((st_fig_doc)d), name) != 0)
            d++;
        ck_assert_msg(d < ST_DOC__COUNT, "figures table of an unknown document '%s'", name);
        tables++;
        line = strtok(NULL, "\n"); /* the table's heading and rule */
        line = strtok(NULL, "\n");
        while ((line = strtok(NULL, "\n")) && strncmp(line, "| `", 3) == 0) {
            char *end = strchr(line + 3, '`');
            ck_assert_msg(end != NULL, "docs: unclosed key in '%s'", line);
            *end = '\0';
            const char *path = line + 3, *unit = end + 1 + strspn(end + 1, " |");
            size_t k = 0;
            while (k < st_fig_count &&
                   (st_figs[k].doc != (st_fig_doc)d || strcmp(st_figs[k].path, path) != 0))
                k++;
            ck_assert_msg(k < st_fig_count, "docs: %s table's `%s` is no row of the schema", name,
                          path);
            const char *want = st_fig_unit_name(st_figs[k].unit);
            ck_assert_msg(strncmp(unit, want, strlen(want)) == 0 && unit[strlen(want)] == ' ',
                          "docs: `%s` is said to be '%.12s', its row says %s", path, unit, want);
            seen[k]++;
        }
        if (!line)
            break;
    }
    ck_assert_int_eq(tables, ST_DOC__COUNT);
    for (size_t k = 0; k < st_fig_count; k++)
        ck_assert_msg(seen[k] == 1, "docs: the %s row `%s` has %zu lines in its table, not 1",
                      st_fig_doc_name(st_figs[k].doc), st_figs[k].path, seen[k]);
    free(seen);
    free(doc);
}
END_TEST

/* A leaf finds its row through indices, stats, maps, compare's spread and size's front. */
START_TEST(test_find_through_the_documents_shapes)
{
    ck_assert_str_eq(st_fig_find(ST_DOC_RUN, "jobs[12].breakdown.bubble_s")->path,
                     "jobs[].breakdown.bubble_s");
    ck_assert_str_eq(st_fig_find(ST_DOC_RUN, "jobs[0].replicas.wall_s.p90")->path,
                     "jobs[].replicas.wall_s");
    ck_assert_ptr_null(st_fig_find(ST_DOC_RUN, "jobs[0].replicas.wall_s.p42"));
    ck_assert_str_eq(st_fig_find(ST_DOC_RUN, "fabric.utilization_by_level.nic")->path,
                     "fabric.utilization_by_level");
    ck_assert_str_eq(st_fig_find(ST_DOC_COMPARE, "policies[3].spread.useful_utilization")->path,
                     "policies[].useful_utilization");
    ck_assert_ptr_null(st_fig_find(ST_DOC_COMPARE, "policies[3].spread.policy"));
    ck_assert_str_eq(st_fig_find(ST_DOC_SIZE, "front[2].train_s")->path, "ranked[].train_s");
    ck_assert_str_eq(st_fig_find(ST_DOC_SWEEP, "points[1].a.b.cost.breakdown.gpu_usd")->path,
                     "jobs[].cost.breakdown.gpu_usd");
    ck_assert_ptr_null(st_fig_find(ST_DOC_SWEEP, "points[1].cluster.fabric.oversubscription"));
    ck_assert_ptr_null(st_fig_find(ST_DOC_RUN, "jobs[0].no_such_key_s"));
}
END_TEST

/* sweep --columns: the sweepable rows are jobs[]'s, ranked 1..n once each, the defaults first;
 * a name is taken, the old breakdown name refused with its new one. */
START_TEST(test_sweep_columns_are_rows)
{
    size_t n = 0, defaults = 0;
    for (const st_fig *f; (f = st_fig_sweep_col(n)); n++) {
        ck_assert_uint_eq(f->sweep, n + 1);
        ck_assert(strncmp(f->path, "jobs[].", 7) == 0 && f->src != ST_SRC_NONE);
        defaults += (f->flags & ST_FIG_SWEEP_DEF) != 0;
        ck_assert(!(f->flags & ST_FIG_SWEEP_DEF) || defaults == n + 1);
    }
    ck_assert_uint_eq(n, 50);
    ck_assert_uint_eq(defaults, 6);
    st_fig_col *cols = NULL;
    st_diag d = {0};
    ck_assert_int_eq(st_fig_sweep_parse("goodput,cost.breakdown.gpu_usd", &cols, &n, &d), 0);
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(cols[1].f->path, "jobs[].cost.breakdown.gpu_usd");
    st_fig_cols_free(cols, n);
    ck_assert_int_ne(st_fig_sweep_parse("cost.gpu_usd", &cols, &n, &d), 0);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "did you mean 'cost.breakdown.gpu_usd'?"));
    st_fig_cols_free(cols, 0);
    /* a sweep runs no replicas: their statistics would be empty on every row */
    st_diag r = {0};
    ck_assert_int_ne(st_fig_sweep_parse("mfu,replicas.wall_s.p90", &cols, &n, &r), 0);
    ck_assert_ptr_nonnull(strstr(r.items[0].msg, "strata run --replicas N"));
    st_fig_cols_free(cols, n);
}
END_TEST

/* Any number or boolean of a job in the run report is a --columns key by its path after jobs[],
 * a run figure by run. and its path; text, lists, statistics and maps not named down to one
 * figure are not; a table's column name finds its row and its job. */
START_TEST(test_sweep_keys_are_the_run_rows)
{
    int run = -1;
    ck_assert_str_eq(st_fig_sweep_key("cost.breakdown.wear_usd", &run)->path,
                     "jobs[].cost.breakdown.wear_usd");
    ck_assert_int_eq(run, 0);
    ck_assert_str_eq(st_fig_sweep_key("replicas.wall_s.p90", &run)->path, "jobs[].replicas.wall_s");
    ck_assert_str_eq(st_fig_sweep_key("run.power.facility_peak_w", &run)->path,
                     "power.facility_peak_w");
    ck_assert_int_eq(run, 1);
    ck_assert_str_eq(st_fig_sweep_key("run.fabric.utilization_by_level.nic", &run)->path,
                     "fabric.utilization_by_level");
    const char *none[] = {"name",
                          "replicas.wall_s",
                          "step_time_s_band[]",
                          "pools[].gpus",
                          "run.cost.delivery",
                          "run.jobs[].mfu",
                          "run.scheduler.pools[].utilization",
                          "run.fabric.utilization_by_level",
                          "power.facility_peak_w",
                          "run."};
    for (size_t k = 0; k < sizeof none / sizeof none[0]; k++)
        ck_assert_msg(st_fig_sweep_key(none[k], &run) == NULL, "'%s' taken", none[k]);
    size_t job = 99;
    ck_assert_str_eq(st_fig_sweep_column("a.b.thermal.junction_c", &job)->path,
                     "jobs[].thermal.junction_c");
    ck_assert_uint_eq(job, 3);
    ck_assert_str_eq(st_fig_sweep_column("run.scheduler.makespan_s", &job)->path,
                     "scheduler.makespan_s");
    ck_assert_uint_eq(job, 0);
    ck_assert_ptr_null(st_fig_sweep_column("cluster.nodes", &job));
    st_fig_col *cols = NULL;
    size_t n = 0;
    st_diag d = {0};
    ck_assert_int_eq(st_fig_sweep_parse("mfu,run.scheduler.utilization", &cols, &n, &d), 0);
    ck_assert(!cols[0].run && cols[1].run);
    ck_assert(!st_fig_col_reads_report(&cols[0]) && st_fig_col_reads_report(&cols[1]));
    st_fig_cols_free(cols, n);
}
END_TEST

/* Two figures of one document read side by side (the same object's keys, a percentile's
 * siblings) never share a label: the HTML tables print the label, and three rows all headed
 * "Time to first token" left a reader to hover for which was the p99 the SLO is judged on. */
START_TEST(test_labels_differ_within_an_object)
{
    for (size_t i = 0; i < st_fig_count; i++) {
        const st_fig *a = &st_figs[i];
        const char *da = strrchr(a->path, '.');
        size_t pa = da ? (size_t)(da - a->path) : 0;
        for (size_t j = i + 1; j < st_fig_count; j++) {
            const st_fig *b = &st_figs[j];
            const char *db = strrchr(b->path, '.');
            size_t pb = db ? (size_t)(db - b->path) : 0;
            if (a->doc != b->doc || pa != pb || strncmp(a->path, b->path, pa) != 0)
                continue;
            ck_assert_msg(strcmp(a->label, b->label) != 0, "%s and %s are both labelled '%s'",
                          a->path, b->path, a->label);
        }
    }
}
END_TEST

/* The validation metrics are rows: each one job figure of the run report, read through its row;
 * a job without the figure's result has none. */
/* Numbers as a reader sees them, one text in every format: a flow on the units.md ladder (a
 * rack's coolant in mL/s, not 0.00023 m3/s; text said L/s where HTML said m3/s), a cost per
 * token per million tokens (HTML said 3.193e-6 USD), a replica statistic in words. */
START_TEST(test_number_text_reads_in_one_unit)
{
    char b[ST_FIG_TEXT_MAX];
    st_fig_number_text(ST_FU_FLOW, 2.934, b, sizeof b);
    ck_assert_str_eq(b, "2.934 m3/s");
    st_fig_number_text(ST_FU_FLOW, 0.1808, b, sizeof b);
    ck_assert_str_eq(b, "180.8 L/s");
    st_fig_number_text(ST_FU_FLOW, 0.0002304, b, sizeof b);
    ck_assert_str_eq(b, "230.4 mL/s");
    st_fig_number_text(ST_FU_FLOW, 0, b, sizeof b);
    ck_assert_str_eq(b, "0 m3/s");
    st_fig_number_text(ST_FU_USD_PER_TOKEN, 3.193e-6, b, sizeof b);
    ck_assert_str_eq(b, "3.193 USD per million tokens");
    ck_assert_str_eq(st_fig_plain(929833).s, "929,833");
    ck_assert_str_eq(st_fig_plain(2.955).s, "2.955");
    ck_assert_str_eq(st_fig_stat_label("p90"), "P90");
    ck_assert_str_eq(st_fig_stat_label("ci95_lo"), "95% CI of the mean, low end");
}
END_TEST

/* A money rate reads with its period in every reader's format (HTML said "2,788,000 USD" for a
 * cost per year, "0 USD" for flash wear per day), and an unpriced one "not priced" as money
 * does; an enum's value reads in words (HTML said "auto-daly"), JSON and CSV keeping it. */
START_TEST(test_rates_and_enums_read_as_words)
{
    char b[ST_FIG_TEXT_MAX];
    st_fig_number_text(ST_FU_USD_PER_YEAR, 2787602.27, b, sizeof b);
    ck_assert_str_eq(b, "2,788,000 USD/year");
    st_fig_number_text(ST_FU_USD_PER_DAY, 0, b, sizeof b);
    ck_assert_str_eq(b, "0 USD/day");
    st_fig_number_text(ST_FU_USD_PER_HOUR, 120, b, sizeof b);
    ck_assert_str_eq(b, "120 USD/hour");
    ck_assert_int_eq(st_fig_find(ST_DOC_RUN, "jobs[0].cost.per_year_usd")->unit,
                     ST_FU_USD_PER_YEAR);
    cJSON *null = cJSON_CreateNull(), *rule = cJSON_CreateString("auto-daly");
    ck_assert_str_eq(st_report_value_text(ST_DOC_SIZE, "ranked[0].per_year_usd", null, b, sizeof b),
                     "not priced");
    ck_assert_str_eq(
        st_report_value_text(ST_DOC_RUN, "jobs[0].checkpoint.interval_rule", rule, b, sizeof b),
        "auto: Daly's optimum");
    ck_assert_str_eq(st_report_value_exact(rule, b, sizeof b), "auto-daly");
    cJSON_Delete(null);
    cJSON_Delete(rule);
    for (size_t k = 0; k < st_fig_count; k++) { /* words only on text rows, in whole pairs */
        size_t n = 0;
        for (const char *const *w = st_figs[k].words; w && *w; w++)
            n++;
        ck_assert_msg(n % 2 == 0 && (!n || st_figs[k].unit == ST_FU_TEXT), "%s", st_figs[k].path);
    }
}
END_TEST

START_TEST(test_validation_metrics_are_rows)
{
    for (size_t m = 0; st_valid_metric_names[m]; m++) {
        const st_fig *f = st_fig_of_metric((st_valid_metric)m);
        ck_assert_msg(f != NULL, "metric %s has no row", st_valid_metric_names[m]);
        ck_assert(f->doc == ST_DOC_RUN && strncmp(f->path, "jobs[].", 7) == 0);
        size_t rows = 0;
        for (size_t k = 0; k < st_fig_count; k++)
            rows += (st_figs[k].metric == m + 1) + (st_figs[k].metric_p99 == m + 1);
        ck_assert_uint_eq(rows, 1);
    }
    st_serve_result r = {.ttft_s = {.mean = 0.2, .p99 = 0.9},
                         .tpot_s = {.mean = 0.02, .p99 = 0.05}};
    ck_assert_str_eq(st_fig_of_metric(ST_METRIC_TTFT_P99)->path, "jobs[].inference.ttft_s");
    ck_assert(st_fig_read_metric(ST_METRIC_TTFT_MEAN, &r) == 0.2);
    ck_assert(st_fig_read_metric(ST_METRIC_TTFT_P99, &r) == 0.9);
    ck_assert(st_fig_read_metric(ST_METRIC_TPOT_MEAN, &r) == 0.02);
    ck_assert(st_fig_read_metric(ST_METRIC_TPOT_P99, &r) == 0.05);
    st_forecast fc = {0};
    double v = -1;
    ck_assert(!st_fig_job_value(st_fig_of_metric(ST_METRIC_STEP_TIME), &fc, &v) && v == -1);
    fc.has_step = 1;
    fc.step.step_time_s = 6.5;
    fc.step.mfu = 0.41;
    fc.mem.checkpoint_bytes = 3e12;
    fc.summary.replicas = 4;
    fc.summary.goodput = (st_life_stat){.mean = 0.9, .lo = 0.8, .hi = 0.95};
    fc.summary.interruptions.mean = 7;
    ck_assert(st_fig_job_value(st_fig_of_metric(ST_METRIC_STEP_TIME), &fc, &v) && v == 6.5);
    ck_assert(st_fig_job_value(st_fig_of_metric(ST_METRIC_MFU), &fc, &v) && v == 0.41);
    ck_assert(st_fig_job_value(st_fig_of_metric(ST_METRIC_CKPT_SIZE), &fc, &v) && v == 3e12);
    ck_assert(st_fig_job_value(st_fig_of_metric(ST_METRIC_GOODPUT), &fc, &v) && v == 0.9);
    ck_assert(st_fig_job_value(st_fig_of_metric(ST_METRIC_INTERRUPTIONS), &fc, &v) && v == 7);
    ck_assert(!st_fig_job_value(st_fig_of_metric(ST_METRIC_CKPT_SAVE), &fc, &v)); /* not costed */
    fc.has_ckpt = 1;
    fc.ckpt.stall_s = 12;
    ck_assert(st_fig_job_value(st_fig_of_metric(ST_METRIC_CKPT_SAVE), &fc, &v) && v == 12);
}
END_TEST

Suite *figures_suite(void)
{
    Suite *s = suite_create("figures");
    TCase *tc = tcase_create("figures");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_every_golden_leaf_has_a_row);
    tcase_add_test(tc, test_every_example_run_leaf_has_a_row);
    tcase_add_test(tc, test_every_compare_sweep_and_size_leaf_has_a_row);
    tcase_add_test(tc, test_every_row_has_its_doc_line);
    tcase_add_test(tc, test_find_through_the_documents_shapes);
    tcase_add_test(tc, test_sweep_columns_are_rows);
    tcase_add_test(tc, test_sweep_keys_are_the_run_rows);
    tcase_add_test(tc, test_validation_metrics_are_rows);
    tcase_add_test(tc, test_labels_differ_within_an_object);
    tcase_add_test(tc, test_number_text_reads_in_one_unit);
    tcase_add_test(tc, test_rates_and_enums_read_as_words);
    suite_add_tcase(s, tc);
    return s;
}
