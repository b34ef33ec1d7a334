/* The cluster's free GPUs while jobs come and go: which GPUs are held, and how many are free per
 * node and per leaf, so a placement policy can choose among free GPUs without a full scan. */
#ifndef ST_MODELS_PLACE_POOL_H
#define ST_MODELS_PLACE_POOL_H

#include <stdint.h>

#include "models/config/config.h"

/* GPU g sits on node g / per_node, and node k under leaf k / nodes_per_leaf (the fabric's
 * nodes_per_leaf; the topology model numbers them the same way, models/fabric/topo.c). Built by
 * st_pool_init, released by st_pool_release. Visible so that policies can read it; only
 * st_pool_take and st_pool_give change it. */
typedef struct st_pool {
    int64_t total, per_node, nodes, per_leaf, leaves;
    int64_t free;       /* free GPUs in all */
    uint8_t *busy;      /* total flags */
    int32_t *node_free; /* nodes counts */
    int64_t *leaf_free; /* leaves counts */
    /* The nodes by free count, so that best fit finds its node without a scan: for each count
     * c in 0..per_node a bitmap over the nodes (words 64-bit words, bit k: node k has c free)
     * and its summary (swords words, bit w: word w is not zero). */
    uint64_t *bits, *sum;
    int64_t words, swords;
    /* Nodes per free count (0..per_node), and when per_node < 64, bit c: some node has c free,
     * so that best fit goes straight to the counts that have nodes. */
    int64_t *ncount;
    uint64_t counts;
    /* Scratch flags for a placement (nodes and leaves counts), all 0 between calls: a policy
     * that flags nodes or leaves it took from clears them before it returns, so that a placement
     * neither allocates nor clears flags for every node of the cluster. */
    uint8_t *node_used, *leaf_used;
} st_pool;

/* All GPUs of cluster c free. Never fails (allocation failure aborts). */
void st_pool_init(st_pool *p, const st_cluster_cfg *c);
void st_pool_release(st_pool *p);

/* Mark gpus[0..n) held (each must be free: a held one is an ST_BUG, the over-commit the
 * scheduler's conformance suite guards against) or free again (each must be held). */
void st_pool_take(st_pool *p, const int64_t *gpus, int64_t n);
void st_pool_give(st_pool *p, const int64_t *gpus, int64_t n);

/* Append node k's free GPUs, lowest first, to gpus until *have reaches want. */
void st_pool_collect(const st_pool *p, int64_t node, int64_t want, int64_t *gpus, int64_t *have);

/* Best fit over nodes [lo, hi): while GPUs are wanted, take the node whose free count is the
 * smallest that covers what is still wanted, else the node with the most free GPUs, whole (ties:
 * the lowest node), so a job lands on as few nodes as it can and leaves the emptiest nodes for
 * larger jobs. Nodes flagged in used (nodes flags, set here) are skipped. Appends to gpus from
 * *have up to want and returns how many it added. */
int64_t st_pool_fill_nodes(const st_pool *p, int64_t lo, int64_t hi, int64_t want, int64_t *gpus,
                           int64_t *have, uint8_t *used);

#endif
