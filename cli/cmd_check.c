/* `strata check FILE...`: load and validate scenarios without simulating them. */
#include <stdio.h>

#include "cli/cli.h"
#include "models/config/pools.h"
#include "models/silicon/gpu.h"
#include "report/figures.h"
#include "sim/utf8.h"

int st_cmd_check(int argc, char **argv)
{
    int files = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        if (st_cli_wants_help(argv[i], "check"))
            return ST_EXIT_OK;
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return st_cli_unknown_option("check", argv[i]);
    }
    for (int i = 1; i < argc; i++) {
        st_diag d = {0};
        st_scn *s = NULL;
        files++;
        if (st_scn_load_file(argv[i], &s, &d)) {
            st_cli_print_diag(&d);
            bad++;
            continue;
        }
        st_cli_print_warnings(s);
        const st_cluster_cfg *c = st_scn_cluster(s);
        st_utf8_fputs_printable(argv[i], stdout); /* as its error line would name it */
        size_t nw = st_scn_workload_count(s);
        const st_trace_cfg *t = st_scn_trace(s); /* its jobs are the run's too ("0 workloads") */
        printf(": ok: '%s', ", st_scn_name(s));
        if (nw || !t)
            printf("%zu workload%s%s", nw, nw == 1 ? "" : "s", t ? " and " : "");
        if (t)
            printf("a trace of %s job%s", st_fig_plain((double)t->n_jobs).s,
                   t->n_jobs == 1 ? "" : "s");
        printf(" on");
        for (int k = 0; k < (c->n_pools > 0 ? c->n_pools : 1); k++) /* each pool's type */
            printf("%s %lld x %lld %s", k ? " +" : "",
                   (long long)(c->n_pools > 0 ? c->pools[k].nodes : c->nodes),
                   (long long)st_pools_gpus_per_node(c, k),
                   c->n_pools > 0 ? c->pools[k].gpu->name : c->gpu->name);
        printf("\n");
        st_scn_free(s);
    }
    if (!files)
        return st_cli_usage_error("check", "expected a scenario file");
    return bad ? ST_EXIT_INPUT : ST_EXIT_OK;
}
