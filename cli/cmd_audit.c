/* `strata audit FILE`: the pre-flight audit alone, with an exit status that says whether any
 * check fails, for a script or CI to gate a plan on. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "models/forecast/run.h"
#include "planner/run_spec.h"

/* The audit's findings, one line each as `strata run` prints them; returns how many fail. */
static size_t print_audit(const st_run *r)
{
    size_t fails = 0, warns = 0;
    for (size_t i = 0; i < r->n_audit; i++) {
        const st_audit *a = &r->audit[i];
        fails += a->status == ST_AUDIT_FAIL;
        warns += a->status == ST_AUDIT_WARN;
        printf("%-4s  %-13s %s: %s\n",
               a->status == ST_AUDIT_PASS   ? "PASS"
               : a->status == ST_AUDIT_WARN ? "WARN"
                                            : "FAIL",
               a->level, a->check, a->message);
    }
    /* the counts as every report's summary gives them (report/summary.c): a WARN is said too */
    printf("%zu FAIL, %zu WARN of %zu check%s\n", fails, warns, r->n_audit,
           r->n_audit == 1 ? "" : "s");
    return fails;
}

int st_cmd_audit(int argc, char **argv)
{
    const char *file = NULL;
    for (int i = 1; i < argc; i++) {
        if (st_cli_wants_help(argv[i], "audit"))
            return ST_EXIT_OK;
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return st_cli_unknown_option("audit", argv[i]);
        if (file)
            return st_cli_usage_error("audit", "expected one scenario file, found '%s' too",
                                      argv[i]);
        file = argv[i];
    }
    if (!file)
        return st_cli_usage_error("audit", "expected a scenario file");
    st_diag d = {0};
    st_scn *s = NULL;
    if (st_scn_load_file(file, &s, &d)) {
        st_cli_print_diag(&d);
        return ST_EXIT_INPUT;
    }
    st_cli_print_warnings(s);
    st_run_spec spec = st_plan_run_spec(s, st_scn_seed(s));
    st_run run;
    st_err err = {0};
    int rc = ST_EXIT_OK;
    if (st_run_forecast(&spec, &run, &err)) {
        st_cli_print_err(&err);
        rc = ST_EXIT_SIM;
    } else if (print_audit(&run)) {
        rc = ST_EXIT_SIM;
    }
    st_run_release(&run);
    st_scn_free(s);
    return rc;
}
