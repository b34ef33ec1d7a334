/* Cursor placement, shared by the placement policies: jobs placed once and in order take GPUs one
 * after another from GPU 0 (pack.c's rule; the collective workloads are placed so). */
#ifndef ST_MODELS_PLACE_CURSOR_H
#define ST_MODELS_PLACE_CURSOR_H

#include <stdint.h>

#include "models/place/policy.h"

typedef struct st__cursor {
    int64_t total, per_node, next;
} st__cursor;

/* The cursor at GPU 0 of cluster c. */
void st__cursor_init(st__cursor *p, const st_cluster_cfg *c);

/* The next req->gpus GPUs into gpus (see st_place_req), or ST_ERANGE when they run out. */
int st__cursor_place(st__cursor *p, const st_place_req *req, int64_t *gpus);

#endif
