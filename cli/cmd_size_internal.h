/* Internal to cli/: what `strata size` (cmd_size.c) shares with the files split from it: the
 * options as parsed (cmd_size_opts.c), a service's sizing (cmd_size_serve.c) and the growth of
 * a kept pool (cmd_size_existing.c). One file an idea: the command over 800 lines held four. */
#ifndef ST_CLI_CMD_SIZE_INTERNAL_H
#define ST_CLI_CMD_SIZE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "models/config/config.h"
#include "planner/size.h"
#include "report/size_out.h"
#include "scenarios/scenario.h"

#define MAX_AXIS 16 /* values in one of the variant axes (--gpu-types ... --storage-bandwidth) */

/* `strata size`'s options, as st__size_parse_opts reads them (cmd_size_opts.c). */
typedef struct st__size_opts {
    const char *file, *workload, *goal, *output;
    double deadline_s, power_w, capex_usd, tco_usd;
    double confidence;   /* --confidence; 0: the point forecast */
    double cooling_w[3]; /* cooling=, air_cooling=, liquid_cooling= */
    int64_t gpus, racks;
    const char *unit;        /* --unit: node, rack, leaf or a node count; NULL: a node */
    int64_t unit_count;      /* --unit's node count as parsed (a suffix read: 2K is 2000) */
    const char *calibration; /* --calibration FILE */
    const char *existing;    /* --existing POOL */
    long top;
    st_size_format format;
    int format_given; /* --format was given (else -o's name may choose it) */
    int text_file;    /* -o names a .txt: the text goes there, not to stdout */
    const st_gpu_spec *gpu[MAX_AXIS];
    double oversub[MAX_AXIS];
    st_transport transport[MAX_AXIS];
    st_topology topology[MAX_AXIS];
    double storage_bw[MAX_AXIS];
    st_delivery delivery[MAX_AXIS];
    size_t n_gpu, n_oversub, n_transport, n_topology, n_storage_bw, n_delivery;
    unsigned budget_seen; /* bit k: the budget key budget_keys[k] was given */
    unsigned opt_seen;    /* bit k: parse_one's option known[k] was given (one value each) */
} st__size_opts;

/* The command line into *o (--top 10 unless given): 0, 1 for --help (already answered), or
 * the exit status of a usage error (cmd_size_opts.c). */
int st__size_parse_opts(int argc, char **argv, st__size_opts *o);

/* The scalable unit of --unit in nodes on cluster c (cmd_size_opts.c). */
int64_t st__size_unit_nodes(const st__size_opts *o, const st_cluster_cfg *c);
/* What --unit names: a count of nodes (a node by default), or each variant's rack or leaf. */
st_size_unit st__size_unit_kind(const st__size_opts *o);

/* `screen` on stdout (when not NULL), and `doc` to -o FILE when o names one: the exit status
 * (cmd_size.c). */
int st__size_put(const st__size_opts *o, const char *screen, const char *doc);

/* Service w of s sized and reported under o: the exit status (cmd_size_serve.c). */
int st__size_service(const st__size_opts *o, const st_scn *s, const st_workload_cfg *w);

/* --existing POOL (cmd_size_existing.c): the pool's cluster into *one and its index into *k,
 * o's GPU types the pool's first (0 or the exit status of a usage error); the racks each
 * variant's nodes fill, which --unit rack sizes each in. */
int st__size_existing(st__size_opts *o, const st_scn *s, st_cluster_cfg *one, int *k);
void st__size_racks_of_types(const st_cluster_cfg *c, int kept, st_size_variant *v, size_t n);

#endif
