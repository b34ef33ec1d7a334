/* The terms of the HTML reports (glossary.h): one table, each definition the plain reading of
 * the model's own (the page of docs/models or docs/guide named beside it), and the writer that
 * marks a term's first use on a page and lists the terms a page used at its end. */
#include "report/glossary.h"

#include <string.h>

#include "report/xml.h"

/* Alphabetical by name (tests/unit/report/test_glossary.c holds it so). A spelling is marked as
 * a whole word; "item" terms only as a whole text or an item of a comma list. */
static const st_term terms[] = {
    /* scheduler.md, Policies */
    {"backfill",
     "backfill (scheduling policy)",
     "A scheduling policy (EASY backfilling): jobs start in the order they were submitted, and "
     "when the first cannot start it gets a reservation that a later job may jump ahead of only "
     "if it does not delay it.",
     {"backfill", NULL},
     0},
    {"best-fit",
     "best-fit (placement policy)",
     "A placement policy: a starting job gets the node whose free GPUs fit it most tightly, and "
     "a job larger than one node takes whole free nodes first.",
     {"best-fit", NULL},
     0},
    /* cost.md, The arithmetic */
    {"capex",
     "Capital cost",
     "The hardware's purchase price (nodes, switches, racks, cooling) written off evenly over "
     "its life, 5 years unless the scenario says otherwise, for the share of it this job holds "
     "and the time it holds it (USD).",
     {"capital cost", "capex", NULL},
     0},
    /* storage-and-failures.md */
    {"checkpoint",
     "Checkpoint",
     "A saved copy of the training state (weights and optimizer) that a job restarts from after "
     "a failure, so that it loses only the work done since the copy was taken.",
     {"checkpoint", "checkpoints", NULL},
     0},
    /* inference.md; scenario-reference.md, chunked_prefill */
    {"chunked-prefill",
     "Chunked prefill",
     "A serving engine reads a long prompt in pieces over several iterations, so that it does "
     "not hold up the other requests' output tokens.",
     {"chunked prefill", NULL},
     0},
    /* step-model.md */
    {"cp",
     "Context parallel (CP)",
     "Context parallelism: each sequence is cut along its length over this many GPUs, which "
     "exchange what attention needs, for long contexts.",
     {"context parallel", "CP", "cp", NULL},
     0},
    /* cost.md: per_year_usd = total x 365 d / T */
    {"cost-per-year",
     "Cost per year",
     "The job's cost as a yearly rate, its total times 365 days over the time it holds its "
     "GPUs: what holding those GPUs for a whole year would cost at the scenario's prices "
     "(owned or rented), in USD per year, not what this job costs (that is the Cost row).",
     {"cost per year", NULL},
     0},
    /* storage-and-failures.md, Checkpoint interval */
    {"daly",
     "Daly's interval",
     "The checkpoint interval that minimises the expected time lost to taking checkpoints plus "
     "redoing work after failures, from one checkpoint's cost and the MTBF (Daly, 2006): the "
     "interval the 'auto' rule uses.",
     {"Daly's interval", "Daly's optimum", "auto-daly", NULL},
     0},
    /* step-model.md */
    {"dp",
     "Data parallel (DP)",
     "Data parallelism: this many copies of the model each train on their own share of every "
     "batch and average their gradients at the end of each step.",
     {"data parallel", "data-parallel", "DP", "dp", NULL},
     0},
    /* cost.md */
    {"demand-charge",
     "Demand charge",
     "The utility's monthly fee on the site's highest power draw (USD per kW per month), paid "
     "for every month the job runs.",
     {"demand charge", NULL},
     0},
    /* error-band.md */
    {"error-band",
     "Error band",
     "The range the real figure would fall in, at the stated confidence (80% unless set), if "
     "the model erred on this job as it erred on the most similar published runs.",
     {"error band", NULL},
     0},
    /* step-model.md, Mixture of experts */
    {"ep",
     "Expert parallel (EP)",
     "Expert parallelism: a mixture-of-experts model's experts are spread over this many GPUs, "
     "and each token is sent to the GPU that holds its expert.",
     {"expert parallel", "expert-parallel", "EP", "ep", NULL},
     0},
    /* step-model.md, the breakdown */
    {"exposed",
     "Exposed communication",
     "The part of the GPUs' data exchange that does not overlap with computation and so adds "
     "to the step time.",
     {"exposed", NULL},
     0},
    /* plant.md, Facility power */
    {"facility-power",
     "Facility power",
     "What the whole site draws from the grid: the IT power plus the cooling plant and the "
     "transformers', UPS's and power distribution's losses (W).",
     {"facility peak", "facility mean", "facility power", NULL},
     0},
    {"fair-share",
     "fair-share (scheduling policy)",
     "A scheduling policy: each tenant has a quota of GPUs, jobs within their quota go first, "
     "and idle GPUs are lent to others and taken back by preemption.",
     {"fair-share", NULL},
     0},
    {"fifo",
     "fifo (scheduling policy)",
     "A scheduling policy (first in, first out): jobs start in the order they were submitted, "
     "and while the first cannot be placed nothing behind it starts.",
     {"fifo", NULL},
     0},
    /* step-model.md, MFU, HFU, TFLOP/s */
    {"flops",
     "FLOPs, TFLOP/s",
     "Floating-point operations, the arithmetic a model's training or serving does; TFLOP/s is "
     "trillions of them per second.",
     {"FLOPs", "TFLOP/s", NULL},
     0},
    /* scheduler.md, fragmentation */
    {"fragmented",
     "Fragmented GPUs",
     "Free GPUs that no waiting job can use, because even the smallest waiting job needs more "
     "than are free, averaged over the makespan (GPUs).",
     {"fragmented GPUs", NULL},
     0},
    {"gang",
     "gang (scheduling policy)",
     "A scheduling policy: in submit order, every job that can have all its GPUs at once "
     "starts, and one that cannot is passed over with no reservation.",
     {"gang", NULL},
     1},
    /* storage-and-failures.md: T_s / wall_s */
    {"goodput",
     "Goodput",
     "The share of wall-clock time that advances training: the time lost to failures (work "
     "redone, detection, restarts) and to checkpoint stalls does not count.",
     {"goodput", NULL},
     0},
    /* scheduler.md, utilisation */
    {"gpu-util",
     "GPU utilisation",
     "The GPU-seconds running jobs held over the cluster's GPUs times the makespan.",
     {"GPU utilisation", NULL},
     0},
    {"gpu-hours",
     "GPU-hours",
     "GPUs times the hours they are held: 1,000 GPUs for one hour are 1,000 GPU-hours.",
     {"GPU-hours", NULL},
     0},
    /* memory-model.md */
    {"hbm",
     "HBM",
     "High-bandwidth memory: the GPU's own memory (GB), which must hold the model's weights, "
     "gradients, optimizer states and activations.",
     {"HBM", NULL},
     0},
    /* step-model.md, section 10 */
    {"hfu",
     "HFU (hardware FLOPs utilisation)",
     "As MFU, but counting the FLOPs spent recomputing activations too, so it is at least the "
     "MFU.",
     {"HFU", "hardware FLOPs utilisation", NULL},
     0},
    /* plant.md, Distribution losses */
    {"i2r",
     "I2R loss",
     "Power lost as heat in a rack's cables, the current squared times their resistance (W).",
     {"I2R", NULL},
     0},
    /* storage-and-failures.md, Two-level checkpoints */
    {"snapshot",
     "In-memory snapshot",
     "A frequent copy of the training state kept in the hosts' memory and copied to peer "
     "nodes, which restores most failures far faster than the persistent checkpoint on "
     "storage.",
     {"in-memory snapshot", NULL},
     0},
    /* plant.md, The facility waveform */
    {"it-power",
     "IT power",
     "What the computing equipment itself draws (GPUs, servers, switches), before the "
     "facility's cooling and electrical losses (W).",
     {"IT", NULL},
     0},
    /* scheduler.md, JCT */
    {"jct",
     "Job completion time (JCT)",
     "The time from a job's submission to its finish, its waits in the queue included.",
     {"job completion time", "JCT", NULL},
     0},
    /* plant.md, Junction temperature and the throttle */
    {"junction",
     "Junction temperature, throttling",
     "The temperature of the GPU chip itself (C); a GPU over its limit lowers its clock "
     "(throttles) and its job slows.",
     {"junction", "throttled", NULL},
     0},
    /* inference.md */
    {"kv-cache",
     "KV cache",
     "GPU memory in which a serving engine keeps each request's attention keys and values, so "
     "it need not recompute them for every new token; its size limits how many requests run "
     "at once.",
     {"KV cache", "KV-cache", NULL},
     0},
    /* scenario-reference.md, slo */
    {"slo",
     "Latency targets (SLO)",
     "The P99 time to first token and time per output token a service promises to keep "
     "under, its service-level objective.",
     {"latency targets", "SLO", NULL},
     0},
    /* plant.md, Line current and the breaker */
    {"line-current",
     "Line current",
     "The current each phase of a rack's power feed carries (amperes), held under 80% of its "
     "breaker's rating.",
     {"line current", NULL},
     0},
    /* scheduler.md, makespan */
    {"makespan",
     "Makespan",
     "The time from the first job's submission to the last one's finish, or to the end of the "
     "simulation when a job is unfinished then.",
     {"makespan", NULL},
     0},
    /* step-model.md, section 10 (PaLM's definition) */
    {"mfu",
     "MFU (model FLOPs utilisation)",
     "The model's FLOPs per second over the GPUs' dense peak at the training precision: 40% "
     "means the GPUs do 40% of the arithmetic their datasheet allows.",
     {"MFU", "model FLOPs utilisation", NULL},
     0},
    /* step-model.md; scenario-reference.md, microbatch */
    {"micro-batch",
     "Micro-batch",
     "The slice of a step's batch (sequences) that a pipeline stage processes at a time; a step "
     "runs many micro-batches through the pipeline.",
     {"micro-batch", "micro-batches", NULL},
     0},
    /* scenario-reference.md, failures */
    {"mtbf",
     "MTBF (mean time between failures)",
     "The average time between failures that interrupt the job, from every component it runs "
     "on (GPUs, nodes, network cards, switches).",
     {"MTBF", NULL},
     0},
    /* scenario-reference.md, checkpoint.persistent_mtbf_s */
    {"persistent-mtbf",
     "MTBF the persistent copy restores",
     "The mean time between the failures the in-memory snapshots do not survive (a whole rack, "
     "or a node with the peers that hold its copies), which only the persistent checkpoint on "
     "storage can restore; it sets how often that checkpoint is written.",
     {"MTBF the persistent copy restores", NULL},
     0},
    /* fabric.md */
    {"fabric",
     "Network topology (leaf, spine)",
     "How the network's switches are wired: servers plug into leaf switches and leaves into "
     "spine switches (spine-leaf), fat-tree-3 adds a core tier above pods of leaves, and "
     "rail-optimized gives each of a server's network cards its own leaf.",
     {"fabric topology", "spine-leaf", "fat-tree-3", "rail-optimized", "leaf", "spine", "spines",
      NULL},
     0},
    {"nvlink",
     "NVLink domain",
     "The GPUs joined by NVLink, NVIDIA's fast GPU-to-GPU link (the 8 GPUs of an H100 server, "
     "72 in a GB200 NVL72 rack), between which data moves many times faster than over the "
     "network.",
     {"NVLink", NULL},
     0},
    /* fabric-topology.md; scenario-reference.md, oversubscription */
    {"oversubscription",
     "Oversubscription",
     "The bandwidth into a tier of switches over the bandwidth out of it to the tier above: at "
     "2 (2:1), traffic that crosses to another leaf gets at most half its speed.",
     {"oversubscription", NULL},
     0},
    {"pack",
     "pack (placement policy)",
     "A placement policy: a starting job gets the lowest-numbered free GPUs.",
     {"pack", NULL},
     1},
    /* sizing.md */
    {"pareto",
     "Pareto front",
     "The configurations that no other beats on both time to train and the goal (GPU-hours or "
     "cost, say): each is a best trade-off between the two.",
     {"Pareto front", NULL},
     0},
    /* inference.md, The figures; scheduler.md */
    {"percentile",
     "Percentiles (P50, P90, P95, P99)",
     "P99 is the value 99% of the cases (requests, jobs) stay at or under, so that only the "
     "worst 1% exceed it; P50 is the median.",
     {"p50", "p90", "p95", "p99", "p99s", NULL},
     0},
    /* pipeline.md */
    {"bubble",
     "Pipeline bubble",
     "The time in each step that a pipeline stage's GPUs sit idle, waiting for micro-batches "
     "to reach them at the start of the step and to drain at its end.",
     {"pipeline bubble", "bubble", NULL},
     0},
    /* step-model.md */
    {"pp",
     "Pipeline parallel (PP)",
     "Pipeline parallelism: the model's layers are cut into this many stages of consecutive "
     "layers on different GPUs, and micro-batches pass from one stage to the next.",
     {"pipeline parallel", "pipeline stages", "PP", "pp", NULL},
     0},
    /* plant.md, The facility waveform; scenario-reference.md, ramp_limit */
    {"ramp",
     "Power ramp",
     "The fastest change in the facility's power draw, in watts per second: the largest step "
     "between 1 ms samples (a 10 MW swing within one millisecond reads 10 GW/s, an upper "
     "bound), which the utility, on-site generators and the UPS limit.",
     {"power ramp", "ramp limit", NULL},
     0},
    /* plant.md, The facility waveform */
    {"swing",
     "Power swing",
     "How far the facility's power falls from its peak as the GPUs alternate between computing "
     "and waiting every step (W), repeating at the swing frequency (Hz); utilities care most "
     "about swings at 0.1-20 Hz.",
     {"power swing", "swing", NULL},
     0},
    /* scheduler.md, Preemption */
    {"preemption",
     "Preemption",
     "A running job stopped by the scheduler to free its GPUs for another, to resume later from "
     "its saved state.",
     {"preemption", "preemptions", "preempted", "preempts", NULL},
     0},
    /* inference.md: jobs[].inference.preemptions */
    {"request-preemption",
     "Preemptions per replica (serving)",
     "Requests a serving replica pushed out of its full KV cache, to be computed again when "
     "there is room.",
     {"preemptions per replica", NULL},
     0},
    {"priority",
     "priority (scheduling policy)",
     "A scheduling policy: jobs run in the order of their stated priority, and a job that does "
     "not fit stops (preempts) running jobs of lower priority.",
     {"priority", NULL},
     1},
    /* plant.md, PUE and energy */
    {"pue",
     "PUE (power usage effectiveness)",
     "The facility's power over its IT power: 1.2 means 20% more than the computers draw goes "
     "to cooling and electrical losses.",
     {"PUE", NULL},
     0},
    {"random",
     "random (placement policy)",
     "A placement policy: a starting job gets a node drawn at random, from the run's seed, "
     "among those that can hold it.",
     {"random", NULL},
     1},
    /* memory-model.md */
    {"recompute",
     "Recomputation",
     "Activations dropped after the forward pass and computed again in the backward pass, "
     "which saves GPU memory for extra arithmetic (the HFU counts it, the MFU does not).",
     {"recomputation", "recompute", NULL},
     0},
    {"sjf",
     "sjf (scheduling policy)",
     "A scheduling policy (shortest job first): of the jobs that fit now, the one with the "
     "shortest run time starts first.",
     {"sjf", NULL},
     0},
    {"srsf",
     "srsf (scheduling policy)",
     "A scheduling policy (shortest remaining service first): as srtf, but jobs are ranked by "
     "their remaining time times their GPUs.",
     {"srsf", NULL},
     0},
    {"srtf",
     "srtf (scheduling policy)",
     "A scheduling policy (shortest remaining time first): at every decision the jobs with the "
     "least run time left go first, and running jobs that rank lower are stopped (preempted).",
     {"srtf", NULL},
     0},
    /* step-model.md */
    {"step",
     "Step",
     "One training iteration: every GPU processes its share of one batch and the model's "
     "weights are updated once; the step time is how long that takes (s).",
     {"step", "steps", NULL},
     0},
    {"tp",
     "Tensor parallel (TP)",
     "Tensor parallelism: each layer's matrices are split over this many GPUs, which exchange "
     "partial results inside every layer, so they are kept within one NVLink domain.",
     {"tensor parallel", "TP", "tp", NULL},
     0},
    /* inference.md, The figures */
    {"tpot",
     "Time per output token (TPOT)",
     "The time between a request's output tokens once the first has arrived (ms): the speed at "
     "which a user sees the answer written.",
     {"time per output token", "TPOT", NULL},
     0},
    {"ttft",
     "Time to first token (TTFT)",
     "The time from a request's arrival to its first output token (ms): how long a user waits "
     "before the answer starts.",
     {"time to first token", "TTFT", NULL},
     0},
    {"tiresias",
     "tiresias (scheduling policy)",
     "A scheduling policy (Tiresias): the jobs that have used the least GPU time so far go "
     "first, through a few priority queues, and running jobs that have used more are stopped "
     "(preempted).",
     {"tiresias", NULL},
     0},
    {"topology-aware",
     "topology-aware (placement policy)",
     "A placement policy: a starting job goes under the leaf switch whose free GPUs fit it most "
     "tightly, so its traffic stays off the spine, and on the nodes that fit it best there.",
     {"topology-aware", NULL},
     0},
    /* plant.md, PUE and energy */
    {"ups",
     "UPS (uninterruptible power supply)",
     "Batteries and power electronics between the grid and the racks that carry the load "
     "through a power cut; it loses a few percent of the power it carries.",
     {"UPS", NULL},
     0},
    /* scheduler.md, useful utilisation */
    {"useful-util",
     "Useful GPU utilisation",
     "GPU utilisation less the GPU time that preemptions' saves and restores and failures "
     "waste.",
     {"useful GPU utilisation", NULL},
     0},
    /* pipeline.md; scenario-reference.md, virtual_stages */
    {"virtual-stages",
     "Virtual stages",
     "Pipeline chunks per GPU in an interleaved schedule: more of them shrink the pipeline "
     "bubble for more communication.",
     {"virtual stages", NULL},
     0},
    /* storage-and-failures.md, Checkpoint interval */
    {"young",
     "Young's interval",
     "The first-order estimate of the best checkpoint interval, the square root of 2 times a "
     "checkpoint's cost times the MTBF (Young, 1974), shown for comparison with Daly's.",
     {"Young's interval", NULL},
     0},
};

_Static_assert(sizeof terms / sizeof terms[0] <= ST_GLOSSARY_MAX, "raise ST_GLOSSARY_MAX");

const st_term *st_glossary_terms(size_t *n)
{
    *n = sizeof terms / sizeof terms[0];
    return terms;
}

/* A byte of a word: a letter, a digit, '_', '-' or part of a UTF-8 sequence, so "tp" is not
 * marked in "tp-run" nor "IT" in "ITé". */
static int wordy(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c >= 0x80;
}

/* The length of spelling sp if text at i starts with it as a whole word (an item of a comma
 * list for an item term), else 0. */
static size_t match_at(const char *text, size_t i, const char *sp, int item)
{
    int first = text[i] == sp[0] || (sp[0] >= 'a' && sp[0] <= 'z' && text[i] == sp[0] - 32);
    if (!first) /* the common case, decided before the rest is read */
        return 0;
    size_t n = strlen(sp);
    if (strncmp(text + i + 1, sp + 1, n - 1) != 0 || wordy((unsigned char)text[i + n]))
        return 0;
    if (i > 0 && wordy((unsigned char)text[i - 1]))
        return 0;
    if (item) { /* the whole text, or an item of a list: after ", " or at the start, up to ',' */
        int after = i == 0 || (i >= 2 && text[i - 2] == ',' && text[i - 1] == ' ');
        if (!after || (text[i + n] != '\0' && text[i + n] != ','))
            return 0;
    }
    return n;
}

/* n bytes of s, escaped. */
static void xml_span(FILE *out, const char *s, size_t n)
{
    char buf[256];
    while (n) {
        size_t k = n < sizeof buf - 1 ? n : sizeof buf - 1;
        memcpy(buf, s, k);
        buf[k] = '\0';
        st_xml_text(out, buf);
        s += k;
        n -= k;
    }
}

void st_glossary_text(st_glossary *g, FILE *out, const char *text)
{
    if (!text)
        return;
    size_t nt = sizeof terms / sizeof terms[0], from = 0;
    for (size_t i = 0; text[i];) {
        size_t best = 0, len = 0;
        if (i == 0 || !wordy((unsigned char)text[i - 1]))
            for (size_t t = 0; t < nt; t++) {
                if (g->used[t])
                    continue;
                for (size_t s = 0; s < ST_TERM_SPELLINGS && terms[t].spell[s]; s++) {
                    size_t n = match_at(text, i, terms[t].spell[s], terms[t].item);
                    if (n > len)
                        len = n, best = t;
                }
            }
        if (!len) {
            i++;
            continue;
        }
        xml_span(out, text + from, i - from);
        fputs("<a class=\"term\" href=\"#term-", out);
        fputs(terms[best].id, out);
        fputs("\"><abbr title=\"", out);
        st_xml_text(out, terms[best].def);
        fputs("\">", out);
        xml_span(out, text + i, len);
        fputs("</abbr></a>", out);
        g->used[best] = 1;
        i += len;
        from = i;
    }
    st_xml_text(out, text + from);
}

void st_glossary_section(const st_glossary *g, FILE *out)
{
    size_t nt = sizeof terms / sizeof terms[0], used = 0;
    for (size_t t = 0; t < nt; t++)
        used += g->used[t];
    if (!used)
        return;
    fputs("<section class=\"terms\" id=\"sec-terms\">\n<h2 id=\"terms\">Terms</h2>\n"
          "<p class=\"meta\">The terms this page uses, each marked where it first appears "
          "(hover it for its definition, or follow it here).</p>\n<dl class=\"terms\">\n",
          out);
    for (size_t t = 0; t < nt; t++) {
        if (!g->used[t])
            continue;
        fprintf(out, "<dt id=\"term-%s\">", terms[t].id);
        st_xml_text(out, terms[t].name);
        fputs("</dt><dd>", out);
        st_xml_text(out, terms[t].def);
        fputs("</dd>\n", out);
    }
    fputs("</dl>\n</section>\n", out);
}
