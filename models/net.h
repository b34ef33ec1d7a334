/* Flow-level network: transfers share link bandwidth max-min fairly (progressive filling), and
 * each transfer's completion is an engine event that moves whenever its rate changes. Several
 * jobs' transfers share one st_net, so they slow each other where their paths meet. */
#ifndef ST_MODELS_NET_H
#define ST_MODELS_NET_H

#include <stddef.h>
#include <stdint.h>

#include "models/topo.h"
#include "sim/engine.h"

typedef struct st_net st_net;

/* Called when a transfer completes, at engine time `now`. */
typedef void (*st_net_done_fn)(void *ctx, uint64_t tag, st_time now);

/* A transfer: n member flows that advance at one common rate, each moving `bytes`. One member
 * is a plain point-to-point flow. Several members model a collective step pattern under
 * bulk-synchronous semantics (every step of a ring waits for its slowest flow, so the ring
 * progresses at the rate of its most constrained member): the transfer takes one rate r, and a
 * link crossed by k of its members carries k*r. Completion fires `latency_s` after the last
 * byte (the alpha terms: per-hop and per-step latencies the caller has summed). */
typedef struct st_xfer_spec {
    const int64_t *src, *dst; /* GPU ids, n of each */
    size_t n;
    double bytes;             /* per member */
    double latency_s;
    uint64_t key;             /* flow identity for ECMP; member i hashes (key, i) */
    uint64_t tag;             /* handed back to done */
    st_net_done_fn done;
    void *ctx;
} st_xfer_spec;

/* A new network over topology t (borrowed; must outlive the net) driven by engine eng
 * (borrowed). Registers one event kind on eng. */
st_net *st_net_new(st_engine *eng, const st_topo *t);
void st_net_free(st_net *net);

/* Start a transfer now. Returns its id (>= 0). Rates of the transfers that share links with it
 * are recomputed and their completion events moved. A transfer with bytes == 0 completes after
 * latency_s. */
int64_t st_net_start(st_net *net, const st_xfer_spec *spec);

/* Current rate of one member of a running transfer, bytes/s (0 if it has completed). */
double st_net_rate(const st_net *net, int64_t xfer);

/* Statistics since creation: highest utilisation any link reached (carried / capacity), the
 * same per level, and how many member flows shared an uplink with another flow because ECMP
 * hashed them onto it (0 under adaptive routing). */
double st_net_max_utilization(const st_net *net);
double st_net_level_utilization(const st_net *net, st_level level);
uint64_t st_net_collisions(const st_net *net);

#endif
