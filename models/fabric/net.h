/* Flow-level network: transfers share link bandwidth max-min fairly (progressive filling), and
 * each transfer's completion is an engine event that moves whenever its rate changes. Several
 * jobs' transfers share one st_net, so they slow each other where their paths meet. */
#ifndef ST_MODELS_FABRIC_NET_H
#define ST_MODELS_FABRIC_NET_H

#include <stddef.h>
#include <stdint.h>

#include "models/fabric/mm_trace.h"
#include "models/fabric/topo.h"
#include "sim/engine.h"

typedef struct st_net st_net;

/* Called when a transfer completes, at engine time `now`. */
typedef void (*st_net_done_fn)(void *ctx, uint64_t tag, st_time now);

/* A transfer: n member flows that advance at one common rate, each moving `bytes`. One member
 * is a plain point-to-point flow. Several members model a collective step pattern under
 * bulk-synchronous semantics (every step of a ring waits for its slowest flow, so the ring
 * progresses at the rate of its most constrained member): the transfer takes one rate r, and a
 * link crossed by k of its members carries k*r. Completion fires `latency_s` after the last
 * byte (the alpha terms: per-hop and per-step latencies the caller has summed); the transfer
 * stops using bandwidth at the last byte. Times are whole nanoseconds: the last byte is at the
 * first nanosecond by which it is through (rounded up), latency_s is rounded to the nearest.
 * docs/models/flow-model.md has the exact rules. */
typedef struct st_xfer_spec {
    const int64_t *src, *dst; /* GPU ids, n of each */
    size_t n;
    double bytes; /* per member */
    double latency_s;
    uint64_t key;        /* ECMP identity: member i is st_topo_flow_key(key, i) */
    uint64_t tag;        /* handed back to done */
    double max_rate;     /* bytes/s each member may take at most (a demand, such as a job's
                            data ingest); 0 = as much as the links give */
    st_net_done_fn done; /* may be NULL */
    void *ctx;
    /* The members' routes when the caller has them already (the collective runner routes every
     * member to cost its phase): member i's hops[i] links at routes[i * ST_TOPO_MAX_HOPS], the
     * route st_topo_route gives for (src[i], dst[i], st_topo_flow_key(key, i)) between two GPUs
     * (each link of weight 1). NULL: the net routes them. */
    const int32_t *routes;
    const uint8_t *hops;
} st_xfer_spec;

/* A new network over topology t (borrowed; must outlive the net) driven by engine eng
 * (borrowed). Registers one event kind on eng ("net.xfer_done"). Never returns NULL. */
st_net *st_net_new(st_engine *eng, const st_topo *t);

/* The rate each member of transfer spec moves at while it runs alone on an idle network over t,
 * and the instant its last byte is through when it starts at `now` (into *bytes_at; its
 * latency comes after): what st_net_start and the solve of its instant give it, bit for bit (the
 * least over its links of capacity over its members' summed weight, a rate cap as a link of its
 * own; the net's rounding to whole nanoseconds), without a solver or an engine: for a storage
 * stream of 10^4 members over 10^4 links, the routes are then the whole cost. Returns 0, or -1
 * when the net would run it otherwise: no bytes or members, no link crossed, a rate that is not
 * finite and positive, or an instant past the end of st_time. */
int st_net_alone(const st_topo *t, const st_xfer_spec *spec, st_time now, double *rate,
                 st_time *bytes_at);

/* st_net_alone of spec, a write (every member from a GPU to storage tier `tier`'s endpoint), in
 * [0], and of its read back (every member from the tier to its GPU: the same members, key,
 * bytes and cap) in [1], each member routed once (st_topo_link_back): what the two calls give,
 * bit for bit, in half the routes, for a checkpoint's save and restore of the same shards. rc[d]
 * is st_net_alone's 0 or -1. A member that does not run from a GPU to the tier is a bug. */
void st_net_alone_both(const st_topo *t, const st_xfer_spec *spec, int tier, st_time now,
                       double rate[2], st_time bytes_at[2], int rc[2]);

/* Leave net's pending events on its engine when it is freed, without cancelling them one by
 * one: for an owner that frees the engine right after the net, before it runs again (a pattern's
 * thousands of transfers each cancelled cost a heap operation to no effect). */
void st_net_detach(st_net *net);

/* Free net, cancelling its pending events on the engine (so free it before the engine); running
 * transfers are dropped without calling done. st_net_free(NULL) is a no-op. */
void st_net_free(st_net *net);

/* Start a transfer now (at the engine's clock; from a handler or a done callback, or before a
 * run). Returns its id (>= 0; ids of completed transfers are not reused for a long time, 2^31
 * starts per slot). Rates of the transfers that share links with it are recomputed, and their
 * completion events moved, once at the end of this instant for all its starts and ends. A transfer
 * with bytes == 0 or n == 0 uses no link and completes after latency_s; one whose members all have
 * src == dst moves its bytes at once. done is always called from the engine's event, never from
 * inside st_net_start. bytes and latency_s must be finite and >= 0, and src, dst must name GPUs of
 * the topology (else ST_BUG). */
int64_t st_net_start(st_net *net, const st_xfer_spec *spec);

/* Current rate of one member of a running transfer, bytes/s (INFINITY when it crosses no link;
 * 0 once its last byte is through or it has completed). Starts and ends are solved together at
 * the end of their instant; a rate asked for before then solves at once, so it is up to date. */
double st_net_rate(st_net *net, int64_t xfer);

/* Bytes each member of a running transfer still has to move at the engine's clock (0 once its
 * last byte is through or it has completed). */
double st_net_remaining(st_net *net, int64_t xfer);

/* Transfers started and not yet completed (including those waiting out their latency). */
size_t st_net_active(const st_net *net);

/* Statistics since creation: highest utilisation any link held for a positive time (carried /
 * capacity; a state that lasts 0 ns between two events at one instant does not count), the
 * same per level (0 for a level out of range), and how many member flows, when their transfer
 * started, shared an ECMP-hashed link (st_topo_hashed) with another active member flow of any
 * transfer (0 under adaptive routing). Definitions: docs/models/flow-model.md. */
double st_net_max_utilization(const st_net *net);
double st_net_level_utilization(const st_net *net, st_level level);
uint64_t st_net_collisions(const st_net *net);

/* Max-min solves since creation: one per instant at which transfers started or ended, however
 * many did (plus one for each rate query made while a solve was waiting for the end of the
 * instant). */
uint64_t st_net_solves(const st_net *net);

/* 1 when some transfer's latency or completion fell past the end of the engine's clock (2^63
 * ns, about 292 years) and was held at ST_TIME_MAX instead of wrapping: the engine's run is
 * then stopped (st_engine_stop), the times it produced are not a forecast, and its caller must
 * refuse them. 0 otherwise. */
int st_net_clamped(const st_net *net);

/* Before net's first transfer (ST_BUG after one): make its max-min solver record its calls and
 * answers into rec (empty, or NULL: none), and answer from the recordings follow[0..n_follow)
 * while one of them made the same calls, on the spare solver *pool holds if any (NULL: none;
 * one made on net's topology, and the net's goes back there, reset, when the net is freed):
 * models/fabric/mm_trace.h. Every time is what the plain net computes, bit for bit. Such a net
 * keeps the transfers' times only: asking it for peaks or collisions is an ST_BUG. */
void st_net_trace(st_net *net, st_mm_trace *rec, const st_mm_trace *const *follow, size_t n_follow,
                  st_maxmin **pool);

/* Whether every call net's solver received was answered from a recording (st_net_trace). */
int st_net_followed(const st_net *net);

/* Keep every transfer's links from now on (on, before any start), for st_net_last_done; off
 * drops them (and stops keeping). */
void st_net_keep_routes(st_net *net, int on);

/* st_net_keep_routes(net, 1), its count of members on each link kept in the array *pool holds if
 * any (st_topo_link_count doubles, all 0; taken, *pool set to NULL), else one allocated; off
 * gives it back there, its entries put back to 0, when *pool is empty (else frees it). A caller
 * timing pattern after pattern on one fabric of 10^5 links then clears the few thousand its
 * routes crossed, not the whole array for each. */
void st_net_keep_routes_in(st_net *net, double **pool);

/* The instant the last running transfer completes, its latency included, decided from the
 * solve of the instant they all started in, without running on: when every transfer running
 * started now (kept by st_net_keep_routes), moves the same bytes a member without a rate cap and
 * has been solved, and the caller starts none later. The slowest transfers share saturated links
 * whose members all end together, where that solve put them; every other transfer's rate can
 * fall as others leave but never below its links' fair share at the start, so when each ends by
 * that bound, the slowest end last, exactly as the run would have it. Returns 1 and *end then,
 * else 0 (run the engine). docs/models/flow-model.md, "The last completion from the first
 * solve". */
int st_net_last_done(st_net *net, st_time *end);

/* What the last st_net_last_done read of the net's transfers, in the order they were started:
 * each one's rate from the solve and its rate floor (the least share of its links' capacity at
 * the start). Returns how many (0 when that call stopped before reading them all). Both depend
 * on the transfers' links alone, not on their bytes or latencies: a caller that starts the same
 * transfers again with other bytes may keep them and ask st_net_last_done_of instead of
 * running the net (models/step/pattern_time.c). Valid until the next call or st_net_free. */
size_t st_net_last_read(const st_net *net, const double **rate, const double **floor);

/* st_net_last_done's answer for n transfers with these rates, rate floors and latencies (whole
 * nanoseconds), all started at `now` and each moving `bytes` a member: 1 and *end, else 0. The
 * same arithmetic as the net's own, so the same instant, bit for bit. */
int st_net_last_done_of(size_t n, const double *rate, const double *floor, const st_time *lat,
                        double bytes, st_time now, st_time *end);

/* A latency of s seconds in whole nanoseconds, as st_net_start rounds a transfer's latency_s:
 * 0, or -1 when it is past the end of st_time (where the net would clamp). */
int st_net_ns_of(double s, st_time *ns);

#endif
