/* The subcommand table and the helpers every subcommand shares. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "models/config/limits.h"
#include "models/forecast/audit.h"
#include "report/figures.h"
#include "scenarios/reader.h"
#include "sim/strfmt.h"
#include "sim/utf8.h"
#include "sim/xalloc.h"

const st_cmd st_cmd_table[] = {
    {"run", st_cmd_run, "load a scenario, simulate it and report the forecast",
     "usage: strata run FILE [-o REPORT] [--format text|json|html|markdown|csv] [--seed N]\n"
     "                       [--explain] [--calibration CAL.yaml]\n"
     "                       [--trace TRACE.json [--trace-job NAME]] [--replicas N]\n\n"
     "Loads FILE, simulates every workload on its cluster and prints a summary, ending with\n"
     "the pre-flight audit (PASS, WARN or FAIL per check).\n\n"
     "  -o, --output FILE   also write the JSON report to FILE (atomically); with html,\n"
     "                      markdown or csv, write that to FILE instead of stdout;\n"
     "                      without --format, a FILE named .html, .md or .csv gets that\n"
     "                      format, and one named .txt the text summary in place of stdout\n"
     "                      (a --format that disagrees with its name is refused)\n"
     "  --format F          text (default) or json on stdout; html (one self-contained page\n"
     "                      with SVG charts), markdown or csv (key,value rows of the JSON\n"
     "                      but its series, such as an autoscaler's timeline, which the\n"
     "                      JSON and the HTML chart hold)\n"
     "  --seed N            override the scenario's random seed\n"
     "  --explain           print the closed-form estimates (step time, collective time,\n"
     "                      checkpoint intervals) beside the simulated values\n"
     "  --trace FILE        write one training workload's whole step as a Chrome/Perfetto\n"
     "                      trace (open it in ui.perfetto.dev): per pipeline stage its\n"
     "                      forward and backward passes and sends, then the exposed\n"
     "                      data-parallel communication and the optimizer (refused\n"
     "                      when FILE has no training workload)\n"
     "  --trace-job NAME    trace the training workload NAME (default: the first)\n"
     "  --replicas N        run each job's life (checkpoints, failures) N times, replicas\n"
     "                      0 to N-1 under the random seed, and report the mean with its 95%\n"
     "                      confidence interval and the P10, P50, P90 and P99 of finish\n"
     "                      time, goodput, interruptions and lost work (N from 1 to 1000000;\n"
     "                      one replica has no interval; refused under failures.scope:\n"
     "                      cluster, whose failures the cluster run draws once: vary --seed)\n"
     "  --calibration F     the cluster's own efficiency terms that `strata calibrate` fitted\n"
     "                      (in place of FILE's cluster.calibration)\n\n"
     "Same scenario and seed give a byte-identical report.\n"
     "exit status:\n"
     "  0  the forecast was written, also when a plan does not fit in memory or an audit\n"
     "     check fails: the report says so (memory DOES NOT FIT, FAIL lines)\n"
     "  1  a simulation error (a plan the step model cannot run), or the report or the\n"
     "     trace could not be written\n"
     "  2  bad input or usage: the scenario's errors as FILE:LINE:COLUMN: error: MESSAGE;\n"
     "     an output that is an input, or whose folder is missing or read-only, before\n"
     "     anything runs\n"},
    {"compare", st_cmd_compare, "run a scenario's jobs under several scheduler policies",
     "usage: strata compare FILE [--policies a,b,c] [--placements p,q] [--replicas N]\n"
     "                           [--format text|json|markdown|csv|html] [--seed N] [-o FILE]\n"
     "                           [--calibration CAL.yaml]\n\n"
     "Runs FILE's jobs (its training workloads, services and trace) through the cluster run once\n"
     "per scheduler policy (and per placement policy with --placements), with the same seed,\n"
     "and prints one row per run:\n"
     "jobs finished; mean, p50, p95 and p99 of the wait (first start - submit) and of the\n"
     "job completion time (end - submit) over the finished jobs; makespan (the last end);\n"
     "utilisation (GPU-seconds held / GPUs x makespan); preemptions; fragmentation (free\n"
     "GPUs while every waiting job needs more, time-averaged); useful (GPU-seconds held less\n"
     "preemptions' saves and restores and what failures cost, over GPUs x makespan: the\n"
     "cluster's goodput); where a service states latency targets, the\n"
     "training jobs' own mean completion time and the services' requests within their\n"
     "targets (those that waited past the time-to-first-token target for the policy to\n"
     "start it count as missing it); energy, where the plant\n"
     "model runs. A trace with `replay: muri` runs Muri's replay conventions instead (srtf,\n"
     "srsf and tiresias only).\n\n"
     "  --replicas N     seeds S..S+N-1 (S: --seed, else the scenario's): each figure's\n"
     "                   mean and sample standard deviation\n"
     "  --policies LIST  comma-separated policy names (default: every registered policy)\n"
     "  --placements LIST  comma-separated placement names, each run under every policy\n"
     "                   (default: the scenario's scheduler.placement)\n"
     "  --format F       text (default), json, markdown, csv or html (with the queue\n"
     "                   waits' CDF per policy)\n"
     "  --seed N         override the scenario's random seed\n"
     "  --calibration F  the cluster's own terms `strata calibrate` fitted (as run's)\n"
     "  -o, --output FILE  write the table to FILE (atomically) instead of stdout; without\n"
     "                     --format, in the format its name ends in (.json, .md, .csv,\n"
     "                     .html, .txt), and a --format that disagrees with it is refused\n\n"
     "exit status: 0 compared, 1 a simulation error or the file could not be written,\n"
     "2 bad input or usage\n"},
    {"audit", st_cmd_audit, "run the pre-flight audit of a scenario; exit 1 when a check fails",
     "usage: strata audit FILE\n\n"
     "Loads FILE, forecasts it as `strata run` does and prints only the pre-flight audit: per\n"
     "check its level, name, PASS, WARN or FAIL and what it measured against its limit. Its\n"
     "checks are listed below, each run where what it checks is there (a per-job one for each\n"
     "training job, a plant one where the plant model runs and its limit is stated).\n"
     "exit status:\n"
     "  0  no check fails (warnings allowed)\n"
     "  1  a check fails, or the forecast could not run\n"
     "  2  bad input or usage: the scenario's errors as FILE:LINE:COLUMN: error: MESSAGE\n"},
    {"sweep", st_cmd_sweep, "run a scenario over a grid of key values: one row a point",
     "usage: strata sweep FILE --set PATH=V1,V2,... [--set ...] [-j N] [-o RESULTS]\n"
     "                         [--format csv|json|markdown|html] [--columns KEY,KEY,...]\n"
     "                         [--calibration CAL.yaml]\n\n"
     "Runs FILE once per combination of the --set values (the last --set varies fastest),\n"
     "each a full forecast as `strata run` makes, and prints one row a point: the swept\n"
     "values, the status, per training job its step_time_s, mfu, memory_per_gpu_bytes,\n"
     "fits, wall_s and goodput, per service its inference.tokens_per_s,\n"
     "inference.requests_per_s and inference.batch_mean (and, where a --set sets a cost\n"
     "key, cost.total_usd and inference.cost_per_million_tokens_usd), and the reason of a\n"
     "point that is not ok.\n\n"
     "  --set PATH=VALUES   a scenario key by its dotted path, `[NAME]` or `[N]` picking a\n"
     "                      list's entry by its name or index (workloads[pretrain].parallel.tp,\n"
     "                      cluster.fabric.oversubscription); VALUES are comma-separated\n"
     "                      plain scalars (no YAML quotes or comments), or ranges A..B*K\n"
     "                      (A, A*K, ... up to B) and A..B+S (A, A+S, ... up to B) of\n"
     "                      numbers; each is read as if written in FILE\n"
     "  -j, --jobs N        compute on N worker processes, 1 to 256 (default 1); the rows\n"
     "                      are the same whatever N is\n"
     "  -o, --output FILE   write the rows to FILE (atomically, at the end) instead of\n"
     "                      stdout, and append every finished row to FILE.journal as it\n"
     "                      comes: a rerun computes only the points the journal lacks;\n"
     "                      without --format, in the format FILE's name ends in (.csv,\n"
     "                      .json, .md, .html; a .txt needs one), and a --format that\n"
     "                      disagrees is refused\n"
     "  --format FORMAT     csv (default), json, markdown or html (each report column's\n"
     "                      curve against the first --set axis)\n"
     "  --columns KEYS      the report keys of each job's columns, comma-separated,\n"
     "                      in their order, each named by its path under jobs[] in the\n"
     "                      JSON report: any of the columns listed below (a cost one empty\n"
     "                      without a cost: section, a service's latency target ones\n"
     "                      without its slo); run.PATH: a figure of the run's own, one\n"
     "                      column a row after the jobs' (run.power.facility_peak_w)\n"
     "  --calibration F     the cluster's own terms (as run's), for every point\n\n"
     "status: ok, does-not-fit (a job's plan is over its GPU's memory), invalid (the point's\n"
     "values do not load: the loader's error is the reason) or error (the models refused\n"
     "the plan). A bad point is a row, never the end of the sweep. A point whose worker\n"
     "process dies (a crash, a kill) is an error row naming the signal; the others go on.\n"
     "exit status: 0 the rows were written; 1 a point's worker died (the rows are still\n"
     "written), or the rows or the journal could not be; 2 bad usage, a FILE that does not\n"
     "load, a --set path FILE does not have, an -o that is an input or a sweep's journal, or\n"
     "an -o whose journal (FILE.journal) is not a regular file (a -o FIFO or /dev/null is\n"
     "written through at the end, with no journal)\n\n"
     "A column is any number or boolean of a job in the JSON report, by its path after jobs[]\n"
     "(thermal.junction_c, memory.capacity_bytes, breakdown.compute_s; replicas.* is refused:\n"
     "a sweep runs no replicas, strata run --replicas N does), or of the run's own after run.\n"
     "(run.power.facility_peak_w, run.scheduler.makespan_s, run.scheduler.utilization,\n"
     "run.scheduler.energy_j, run.cost.total_usd); the named ones:\n"},
    {"size", st_cmd_size,
     "search hardware, GPU counts and plans that meet a training deadline or serve a rate",
     "usage: strata size FILE --deadline DURATION [--budget KEY=V,...]\n"
     "                        [--goal gpu-hours|cost] [--top N] [--workload NAME]\n"
     "                        [--gpu-types A,B] [--oversubscription X,Y] [--transport T,U]\n"
     "                        [--topologies A,B] [--storage-bandwidth B1,B2]\n"
     "                        [--delivery D,E] [--unit node|rack|leaf|N] [--confidence C]\n"
     "                        [--calibration F] [--existing POOL]\n"
     "                        [--format text|json|csv|markdown|html] [-o FILE]\n"
     "       strata size FILE [--workload SERVICE] [--gpu-types L] [--goal gpus|cost]\n"
     "                        [--top N] [--format F] [-o FILE]\n\n"
     "Sizes one training workload of FILE (its model, tokens or steps, global batch): for\n"
     "every hardware variant given (GPU types, oversubscriptions, transports, topologies,\n"
     "checkpoint-tier bandwidths, delivery models; else the scenario's), cluster sizes in\n"
     "whole scalable units (--unit) up to the GPU and rack budgets, and every parallel plan\n"
     "on each (tp, pp, dp, ep, micro-batch, recompute, virtual stages): plans that break a\n"
     "rule or do not fit in memory are pruned, the rest simulated and, of those that train\n"
     "within the deadline and budgets, ranked by GPU-hours, or by cost with cost:.\n"
     "Sizes double, then bisect for the smallest (docs/guide/sizing.md). Prints the\n"
     "search's counts, the ranked table and the Pareto front (time to train against the\n"
     "goal), each row with what binds it (memory, deadline, communication, storage,\n"
     "power, cooling, fabric, a budget). With failures:, time to train: Daly's\n"
     "expected wall time at the best cadence; else steps x step time.\n\n"
     "  --deadline DURATION  the time to train, such as 90d (training: required)\n"
     "  --budget LIST   comma-separated: power=P (the facility peak: IT, losses and the\n"
     "                  cooling plant, such as 30MW), gpus=N, racks=N (the nodes over\n"
     "                  racks.nodes_per_rack), capex=USD (nodes and switches at cost:'s\n"
     "                  node_price and switch_price), tco=USD (the job's cost a year),\n"
     "                  cooling=P, air_cooling=P, liquid_cooling=P (the heat to reject; the\n"
     "                  scenario's facility capacities when not given)\n"
     "  --goal G        gpu-hours or cost (cost by default with cost:); a service: gpus\n"
     "                  or cost (by default where cost: prices GPU-hours)\n"
     "  --confidence C  meet the deadline at level C (0.5-0.99) of the step model's error\n"
     "                  band, not at the point forecast (docs/models/error-band.md)\n"
     "  --calibration F the terms `strata calibrate` fitted\n"
     "  --top N         ranked rows (default 10; left_out counts the rest)\n"
     "  --workload NAME the workload to size (the first training one by default)\n"
     "  --unit U        the scalable unit sizes come in: node (default), rack\n"
     "                  (racks.nodes_per_rack), leaf (fabric.nodes_per_leaf) or a node\n"
     "                  count, such as 32 (a DGX SuperPOD unit), each type's own\n"
     "  --gpu-types L   catalog GPUs to search in place of the cluster's (strata catalog)\n"
     "  --oversubscription L  every fabric tier's oversubscription, each searched\n"
     "  --transport L   roce-v2, infiniband and/or omni-path, each searched\n"
     "  --topologies L  spine-leaf, rail-optimized and/or fat-tree-3 on the scenario's leaf\n"
     "  --storage-bandwidth L  checkpoint-tier write bandwidths (100GB/s,1TB/s), at\n"
     "                  cost:'s storage_bandwidth_price\n"
     "  --delivery L    on-prem, bare-metal and/or cloud: their prices and noise\n"
     "  --existing POOL keep pool POOL and search what to add: more of its type or a new\n"
     "                  pool of another (other pools' types, or --gpu-types), ranked by\n"
     "                  what is bought first\n"
     "  --format F      text (default), json, csv (the ranked rows, then the front),\n"
     "                  markdown or html (with the Pareto front's chart)\n"
     "  -o, --output FILE  the JSON beside text, else the chosen format (or that FILE's\n"
     "                  name ends in: .csv, .md, .html, .txt) in place of stdout\n\n"
     "A service is sized to its rate and slo.\n\n"
     "exit status: 0 searched (also when nothing meets the deadline),\n"
     "1 a simulation error or a failed write, 2 bad input or usage\n"},
    {"calibrate", st_cmd_calibrate,
     "fit a cluster's own efficiency terms from what was measured on it",
     "usage: strata calibrate FILE [--step JOB=DURATION ...] [--nccl-tests [OP:]LOG ...]\n"
     "                             [--gemm CSV ...] [-o CAL.yaml]\n\n"
     "Fits the efficiency terms of FILE's cluster from measurements made on it, and writes\n"
     "them as a calibration that run, sweep, size and compare take (--calibration CAL.yaml,\n"
     "or cluster.calibration in a scenario): what was fitted, from what, its fit error.\n"
     "nccl-tests logs fit the NVLink goodput (ranks within one NVLink domain), the network's\n"
     "(ranks across nodes) and a latency added to every collective (sizes up to 64 KiB);\n"
     "GEMM timings fit the Tensor Core throughput per precision; measured steps of FILE's\n"
     "jobs fit a precision's throughput no GEMM measured, else a per-step overhead. Each\n"
     "factor is fitted so that the median of predicted over measured time is 1 over what it\n"
     "governs, and refused outside 0.5-2 (docs/models/calibration.md, \"Your own cluster\").\n\n"
     "  --step JOB=DURATION  a measured step time of FILE's training workload JOB, such as\n"
     "                    pretrain=6.9s (repeat for each job, once a job)\n"
     "  --nccl-tests [OP:]LOG  the output of an nccl-tests binary as it prints it, with its\n"
     "                    '#  Rank' lines; OP (all_reduce, all_gather, reduce_scatter,\n"
     "                    alltoall, broadcast) when neither the log nor its name says;\n"
     "                    one that contradicts them is refused\n"
     "  --gemm CSV        GEMM timings: a header naming m, n, k, precision (bf16 or fp8) and\n"
     "                    time_us (per call) or tflops\n"
     "  -o, --output FILE write the calibration to FILE (atomically) instead of stdout\n\n"
     "exit status: 0 fitted and written; 1 the file could not be written (a full disk);\n"
     "2 bad input or usage (an -o that is an input, or whose folder is missing or\n"
     "read-only, before anything is fitted), or measurements no plausible factor explains\n"},
    {"check", st_cmd_check, "validate a scenario without simulating it",
     "usage: strata check FILE...\n\n"
     "Loads each FILE and reports every problem as FILE:LINE:COLUMN: error: MESSAGE\n"
     "(up to 20 per file). Prints a one-line summary of each valid file.\n"
     "exit status: 0 all valid, 2 any invalid\n"},
    {"catalog", st_cmd_catalog,
     "list the GPUs, model presets, software stacks and serving stacks scenarios can name",
     "usage: strata catalog [gpus|models|software|frontends|prices|userbuffers]\n\n"
     "Prints the catalog's GPUs (dense peak FLOP/s, HBM, NVLink, power) and model presets\n"
     "(shape and parameter count), with the source of their figures in docs/guide/catalog.md,\n"
     "the software stacks a workload's `software:` names: per release, the attention\n"
     "kernel on A100, H100 and B200, the FP8 recipe, gradient precision and the overlaps it\n"
     "turns on ('-': strata's default), with sources in docs/models/software.md, and the\n"
     "serving stacks a service's `frontend:` names: its time per request and per iteration,\n"
     "from the measured run and the engine model's share of it (docs/models/inference.md).\n"
     "`strata catalog prices` lists the cost model's preset prices (per GPU type, switch\n"
     "class and site), each with its year and source (docs/models/cost.md): what a\n"
     "scenario's cost: section falls back on. `strata catalog userbuffers` lists the\n"
     "userbuffers settings `parallel.tp_comm_overlap_cfg` names (Transformer Engine's, NeMo's,\n"
     "Megatron-Bridge's and MLPerf's presets): per GEMM the TP-overlap method and its SMs\n"
     "(docs/models/step-model.md).\n"},
    {"validate", st_cmd_validate, "run the published validation cases: predicted vs measured",
     "usage: strata validate [--fabric] [--step] [--life] [--sched] [--plant] [--band]\n"
     "                       [--calibration-split] [--serve] "
     "[--dir DIR] [--openb DIR] [--markdown]\n"
     "       strata validate --residuals|--transfer-residuals [--dir DIR]\n\n"
     "Runs every published case in scenarios/ through the models and prints, per case, the\n"
     "measured and predicted values, the error and whether it is within its bound.\n\n"
     "  --fabric    the nccl-tests collective set\n"
     "  --step      the published training runs: every DIR/*.yaml with a validation: section\n"
     "              (DIR defaults to scenarios/validation)\n"
     "  --life      checkpoints and failures: Daly's examples, the Monte Carlo against\n"
     "              Daly's expected wall time, and the cases in DIR/life\n"
     "  --sched     scheduler orderings: mean JCT SRSF < SRTF < SJF < FIFO on the Muri\n"
     "              traces, SRTF < SJF < FIFO on Philly: the cases in DIR/sched; SRSF and\n"
     "              SRTF with Muri's replay conventions; with --openb, placement on openb\n"
     "  --openb DIR Alibaba's openb node and pod lists (not shipped: their licence); also\n"
     "              STRATA_OPENB=DIR. Best-fit and packing above random, FGD above best-fit\n"
     "  --plant     power: a GB200 NVL72 rack's peak in 120-132 kW, Llama 3 405B's facility\n"
     "              swing at least 10 MW: the cases in DIR/plant\n"
     "  --band      the error band: each published run of the band's table against the\n"
     "              80% band of the others (leave-one-out) and of the other sets' runs,\n"
     "              held to 75-85% inside with its own set left out (at least\n"
     "              75% with the run alone left out)\n"
     "  --calibration-split  strata calibrate on each set's runs at their fewest GPUs (per\n"
     "              GPU type and precision), the others predicted with it and held\n"
     "              against the calibrated band its own set's runs did not shape\n"
     "              (with no set named, all of them run)\n"
     "  --serve     published inference benchmarks: the cases in DIR/serve, offline\n"
     "              throughput sets held to a median error within 10%, latency sets\n"
     "              (mean time to first token and per output token at a stated rate)\n"
     "              within 15%\n"
     "  --residuals the step cases of DIR as the band table's input lines (name, set,\n"
     "              architecture, moe, precision, GPUs, measured over predicted step time;\n"
     "              tools/band_rows.sh)\n"
     "  --transfer-residuals  the predicted runs of DIR's calibration splits as the\n"
     "              calibrated band's input lines (as --residuals, over the calibrated\n"
     "              forecast; tools/band_rows.sh)\n"
     "  --markdown  print docs/guide/validation.md (CI checks that the file matches)\n\n"
     "exit status: 0 every validation row within its bound, 1 otherwise, 2 bad usage (an\n"
     "unknown option, a --dir that holds no case)\n"},
    {NULL, NULL, NULL, NULL},
};

void st_cli_print_err(const st_err *e)
{
    char line[512], *big = NULL;
    int n = st_err_format(e, line, sizeof line);
    if (n >= (int)sizeof line) { /* a long file name: the whole line, not a cut one */
        big = st_xmalloc((size_t)n + 1);
        st_err_format(e, big, (size_t)n + 1);
    }
    st_utf8_fputs_printable(big ? big : line, stderr); /* it may quote what the user typed */
    fputc('\n', stderr);
    free(big);
}

void st_cli_print_diag(const st_diag *d)
{
    for (int i = 0; i < d->n; i++)
        st_cli_print_err(&d->items[i]);
    if (d->n >= ST_DIAG_MAX)
        fprintf(stderr, "(stopped after %d errors)\n", ST_DIAG_MAX);
}

void st_cli_print_warnings(const st_scn *s)
{
    const st_diag *w = st_scn_warnings(s);
    for (int i = 0; i < w->n; i++) { /* as errors: it may quote a file's bytes (a CSV field) */
        const st_loc *l = &w->items[i].loc;
        char *line = st_xasprintf("%s:%u:%u: warning: %s", l->file ? l->file : "", l->line, l->col,
                                  w->items[i].msg);
        st_utf8_fputs_printable(line, stderr);
        fputc('\n', stderr);
        free(line);
    }
}

static int stdout_said;

void st_cli_stdout_said(void)
{
    stdout_said = 1;
}

int st_cli_stdout_was_said(void)
{
    return stdout_said;
}

int st_cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = st_xvasprintf(fmt, ap);
    va_end(ap);
    fprintf(stderr, "strata %s: ", cmd);
    st_utf8_fputs_printable(msg, stderr); /* it echoes an argument: no raw escape reaches a tty */
    fprintf(stderr, "\nsee 'strata %s --help'\n", cmd);
    free(msg);
    return ST_EXIT_INPUT;
}

int st_cli_once(const char *cmd, const char *opt, unsigned *seen, unsigned bit)
{
    if (*seen & bit)
        return st_cli_usage_error(cmd, "%s is given twice; give it once", opt);
    *seen |= bit;
    return 0;
}

/* Whether a is one of the space-separated words of spellings. */
static int spelt(const char *spellings, const char *a)
{
    size_t n = strlen(a);
    for (const char *w = spellings; *w; w += strcspn(w, " "), w += *w == ' ')
        if (strncmp(w, a, n) == 0 && (w[n] == ' ' || w[n] == '\0'))
            return 1;
    return 0;
}

int st_cli_once_of(const char *cmd, const char *const *once, const char *a, unsigned *seen)
{
    for (unsigned k = 0; once[k] && k < 32; k++)
        if (spelt(once[k], a))
            return st_cli_once(cmd, a, seen, 1u << k);
    return 0;
}

int st_cli_value(const char *cmd, const char *opt, const char *val, const st_value_rule *r,
                 double *out)
{
    char why[256];
    if (!val)
        return st_cli_usage_error(cmd, "%s needs a value", opt);
    if (st_limit_parse(opt, val, strlen(val), r, out, why, sizeof why))
        return st_cli_usage_error(cmd, "%s", why);
    return 0;
}

int st_cli_path_arg(const char *cmd, const char *opt, const char *val, st_cli_path_kind kind)
{
    const char *noun = kind == ST_CLI_FOLDER ? "a directory" : "a file name";
    if (!val)
        return st_cli_usage_error(cmd, "%s needs %s", opt, noun);
    if (!val[0]) /* else the working folder: "is a directory", or ./.journal */
        return st_cli_usage_error(cmd, "%s needs %s, found ''", opt, noun);
    if (strcmp(val, "-") == 0) { /* no command takes '-' for standard input or output */
        const char *hint = kind != ST_CLI_WRITES ? ": standard input is not read"
                           : strcmp(opt, "-o") == 0 || strcmp(opt, "--output") == 0
                               ? "; to write to standard output, leave -o out"
                               : "; to write to standard output, name /dev/stdout";
        return st_cli_usage_error(cmd, "%s needs %s, found '-'%s", opt, noun, hint);
    }
    if (val[0] == '-') /* the next option, taken as the value */
        return st_cli_usage_error(cmd, "%s needs %s, found the option '%s'", opt, noun, val);
    size_t len = strlen(val);
    if (len >= PATH_MAX) /* "././.../o.json" was "its folder '././.../.' does not exist" */
        return st_cli_usage_error(cmd,
                                  "%s: the path is %zu bytes long, longer than the %d a path may "
                                  "have here (PATH_MAX)",
                                  opt, len, PATH_MAX - 1);
    for (const char *c = val; *c; c += strspn(c, "/")) {
        size_t n = strcspn(c, "/");
        if (n > NAME_MAX) {
            size_t cut = 24;
            while (cut > 0 && (c[cut] & 0xC0) == 0x80) /* not inside a UTF-8 character */
                cut--;
            return st_cli_usage_error(cmd,
                                      "%s: the name '%.*s...' is %zu bytes long, longer than the "
                                      "%d a file's name may have here (NAME_MAX)",
                                      opt, (int)cut, c, n, NAME_MAX);
        }
        c += n;
    }
    return 0;
}

/* The audit's checks, as st_audit_run names them, each with what it is held against. */
static void audit_help(FILE *out)
{
    fputs("checks, in report order: level, name, what it is held against\n", out);
    for (size_t i = 0; i < st_audit_n_checks; i++)
        fprintf(out, "  %-14s %-38s %s\n", st_audit_checks[i].level, st_audit_checks[i].name,
                st_audit_checks[i].against);
}

int st_cli_wants_help(const char *arg, const char *cmd)
{
    if (strcmp(arg, "--help") != 0 && strcmp(arg, "-h") != 0)
        return 0;
    for (const st_cmd *c = st_cmd_table; c->name; c++)
        if (strcmp(c->name, cmd) == 0)
            fputs(c->usage, stdout);
    if (strcmp(cmd, "sweep") == 0) /* its columns from the report's rows, one home */
        st_fig_sweep_help(stdout);
    if (strcmp(cmd, "audit") == 0) /* its checks from the audit's own list, one home */
        audit_help(stdout);
    return 1;
}

/* The options command cmd's --help lists, into names[0..cap) (each at most 31 bytes): those of
 * its synopsis (the lines that begin "usage:", "strata" or "[") and the leading ones of each line
 * that describes an option ("  -o, --output FILE   ..."), never the options of other commands
 * its text mentions. Returns how many. */
static size_t options_of(const char *cmd, char (*names)[32], size_t cap)
{
    const char *usage = "";
    for (const st_cmd *c = st_cmd_table; c->name; c++)
        if (strcmp(c->name, cmd) == 0)
            usage = c->usage;
    size_t n = 0;
    snprintf(names[n++], sizeof names[0], "--help");
    for (const char *line = usage; *line; line += strcspn(line, "\n"), line += *line == '\n') {
        const char *p = line + strspn(line, " ");
        size_t len = strcspn(line, "\n") - (size_t)(p - line);
        int synopsis = strncmp(p, "usage:", 6) == 0 || strncmp(p, "strata ", 7) == 0 || *p == '[';
        if (!synopsis && (*p != '-' || p - line != 2)) /* a description's own text */
            continue;
        for (const char *w = p; w < p + len && n < cap;) {
            w += strspn(w, " [");
            size_t wl = strcspn(w, " ,]|\n");
            if (wl > 1 && w[0] == '-' && wl < sizeof names[0]) {
                int dup = 0;
                for (size_t k = 0; k < n; k++)
                    dup |= strlen(names[k]) == wl && strncmp(names[k], w, wl) == 0;
                if (!dup)
                    snprintf(names[n++], sizeof names[0], "%.*s", (int)wl, w);
            } else if (!synopsis) {
                break; /* past the option's spellings */
            }
            w += wl + (w[wl] == ',' || w[wl] == ']' || w[wl] == '|');
        }
    }
    return n;
}

int st_cli_name_arg(const char *cmd, const char *opt, const char *val, const char *what)
{
    if (!val)
        return st_cli_usage_error(cmd, "%s needs %s", opt, what);
    if (!val[0] || !val[strspn(val, " \t")])
        return st_cli_usage_error(cmd, "%s needs %s, found '%s'", opt, what, val);
    int option = strncmp(val, "--", 2) == 0;
    char names[64][32];
    size_t n = val[0] == '-' && !option ? options_of(cmd, names, 64) : 0;
    for (size_t k = 0; k < n && !option; k++)
        option = strcmp(names[k], val) == 0;
    if (option)
        return st_cli_usage_error(cmd, "%s needs %s, found the option '%s'", opt, what, val);
    return 0;
}

int st_cli_unknown_option(const char *cmd, const char *a)
{
    char names[64][32], near[256];
    const char *list[64];
    size_t n = options_of(cmd, names, 64);
    for (size_t k = 0; k < n; k++)
        list[k] = names[k];
    const char *eq = a[0] == '-' ? strchr(a, '=') : NULL;
    size_t len = eq ? (size_t)(eq - a) : strlen(a); /* the option's name, before any '=' */
    for (size_t k = 0; eq && k < n; k++) /* --seed=5: the option is known, the form is not */
        if (strlen(list[k]) == len && strncmp(list[k], a, len) == 0)
            return st_cli_usage_error(cmd, "'%s': the '=' form is not supported: use '%s %s'", a,
                                      list[k], eq[1] ? eq + 1 : "VALUE");
    near[0] = '\0';
    if (len > 2) { /* "-x" and "--" are near every option */
        char *opt = st_xstrndup(a, len);
        st_did_you_mean(opt, list, n, near, sizeof near);
        free(opt);
    }
    return st_cli_usage_error(cmd, "unknown option '%s'%s", a, near);
}

int st_cli_parse_args(const char *cmd, int argc, char **argv, st_cli_opt_fn one, void *opts,
                      const char **file)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (st_cli_wants_help(a, cmd))
            return 1;
        int rc = one(a, val, opts);
        if (rc > 0)
            return rc;
        if (rc == 0)
            i++;
        else if (rc == -2)
            continue;
        else if (a[0] == '-' && a[1] != '\0')
            return st_cli_unknown_option(cmd, a);
        else if (*file)
            return st_cli_usage_error(cmd, "expected one scenario file, found a second: '%s'", a);
        else
            *file = a;
    }
    if (!*file)
        return st_cli_usage_error(cmd, "expected a scenario file");
    return 0;
}
