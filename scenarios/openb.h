/* Alibaba's GPU cluster trace v2023 ("openb", Weng et al., "Beware of Fragmentation", USENIX
 * ATC'23; repository alibaba/clusterdata, cluster-trace-gpu-v2023/csv): its node list and pod
 * list read into the GPU-sharing placement model's records (models/place/gpushare.h). The
 * trace's licence does not allow a copy in this repository: the caller names the folder. */
#ifndef ST_SCENARIOS_OPENB_H
#define ST_SCENARIOS_OPENB_H

#include <stddef.h>

#include "models/place/gpushare.h"
#include "sim/err.h"

#define ST_OPENB_NODES "openb_node_list_gpu_node.csv"
#define ST_OPENB_PODS  "openb_pod_list_default.csv"

typedef struct st_openb {
    st_gs_node *nodes;
    size_t n_nodes;
    st_gs_pod *pods;
    size_t n_pods;
    char **models; /* the GPU model names the nodes and pods' gpu_spec use, n_models (<= 64) */
    size_t n_models;
    char *node_path, *pod_path; /* the files read (the locations of errors point into them) */
} st_openb;

/* Read DIR/nodes (ST_OPENB_NODES when NULL) and DIR/pods (ST_OPENB_PODS when NULL) into *o.
 * Columns by header name: nodes sn, cpu_milli, memory_mib, gpu, model; pods cpu_milli,
 * memory_mib, num_gpu, gpu_milli, gpu_spec (models separated by '|', empty: any); other columns
 * are not read; CRLF is accepted. A missing file or column, or a row that does not parse (the
 * protocol needs every pod), is an error FILE:LINE:COL in d; a node list with no GPU (no row,
 * or gpu 0 in each), or a pod list with no pod asking for one, an error at its file. Returns 0, or
 * -1 (d holds why; *o then holds only the two paths, which the errors' locations point at). Free *o
 * with st_openb_free either way, after the errors are printed. */
int st_openb_load(const char *dir, const char *nodes, const char *pods, st_openb *o, st_diag *d);

void st_openb_free(st_openb *o);

#endif
