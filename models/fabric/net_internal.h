/* What net.c shares with net_done.c (the kept routes and a pattern's end foreseen): the
 * transfers and the net's state. Internal to models/fabric. */
#ifndef ST_MODELS_FABRIC_NET_INTERNAL_H
#define ST_MODELS_FABRIC_NET_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "models/fabric/maxmin.h"
#include "models/fabric/net.h"

/* A transfer's life: its bytes are moving (it is a max-min entity and its event is the moment
 * the last byte arrives), then the bytes are done and it waits latency_s (its event is the
 * completion), then its slot is free. */
enum { X_FREE, X_BYTES, X_LATENCY };

typedef struct transfer {
    int64_t ent;      /* max-min entity while X_BYTES, else -1 */
    double remaining; /* bytes each member still has to move, as of t_upd */
    double rate;      /* bytes/s of each member since t_upd */
    st_time t_upd;
    st_time lat; /* latency_s in whole nanoseconds */
    st_ev_handle ev;
    uint64_t tag;
    st_net_done_fn done;
    void *ctx;
    int32_t cap_link; /* the private link holding it to its max_rate, or -1 */
    uint32_t gen;     /* bumped when the slot is freed, so old ids read as completed */
    uint8_t state;
} transfer;

struct st_net {
    st_engine *eng;
    const st_topo *topo;
    int kind;
    st_mmx *mx;     /* the max-min solver, maybe recording or following (st_net_trace) */
    int times_only; /* st_net_trace: no peaks or collisions kept */
    int32_t n_links;
    /* The per-link statistics' arrays, made at the first start of a net that keeps them (not
     * one that keeps times only: a step pattern's, on a fabric of 10^5 links, starts a few
     * thousand member flows). */
    uint8_t *level;  /* st_level of each link */
    uint8_t *hashed; /* st_topo_hashed of each link */
    uint32_t *flows; /* active member flows on each hashed link */
    transfer *x;
    size_t n_x, x_cap;
    size_t *free_x;
    size_t n_free, free_cap;
    size_t *ent_x; /* max-min entity id -> transfer slot */
    size_t ent_x_cap;
    int32_t *free_caps; /* private rate-cap links not in use */
    size_t n_free_caps, free_caps_cap;
    int32_t *route; /* st_net_start scratch: every member's links, back to back */
    double *wts;    /* st_net_start scratch: the weight of each entry of route */
    size_t wts_cap;
    uint8_t *hops; /* st_net_start scratch: each member's route length */
    size_t route_cap, hops_cap;
    size_t active;
    double max_util, level_util[ST_LEVEL__COUNT];
    int32_t *pend; /* links solved at t_pend whose loads are not in the peaks yet */
    uint8_t *pend_flag;
    size_t n_pend;
    st_time t_pend;
    uint64_t collisions;
    int clamped;           /* a time was past the end of st_time and held at ST_TIME_MAX */
    st_ev_handle solve_ev; /* the end-of-instant solve, while solve_due */
    int solve_due;
    int detached; /* st_net_detach: the engine is freed with the net, its events unfired */
    uint64_t solves;
    /* st_net_keep_routes: every transfer's links (slot s's at keep_at[s] .. keep_at[s] +
     * keep_n[s] of keep_link), the members crossing each link (a_sum), and the instants of the
     * first and the last start. */
    int keep;
    int32_t *keep_link;
    size_t n_keep, keep_cap;
    size_t *keep_at, *keep_n;
    size_t keep_slots_cap, keep_n_cap;
    double *a_sum;
    double **sum_pool; /* where a_sum goes back (st_net_keep_routes_in), or NULL */
    st_time first_start, last_start;
    /* What st_net_last_done read last, transfer by transfer in slot order (st_net_last_read). */
    double *ld_rate, *ld_floor;
    st_time *ld_lat;
    size_t ld_n, ld_cap;
};

/* Nanoseconds until `rem` bytes are through at `rate` from `now`, rounded up so that the bytes
 * really are done when the event fires; a time past the end of st_time clamps net (when not
 * NULL) and gives ST_TIME_MAX (net.c). */
st_time st__net_done_time(st_net *net, double rem, double rate, st_time now);

/* Keep slot s's links (net->route: total of them), add its members to each fabric link's count,
 * and note when it started (st_net_keep_routes; net_done.c). */
void st__net_keep_route(st_net *net, size_t s, size_t total, st_time now);

/* A transfer spec's own checks (an ST_BUG on a broken one): net.c's start and net_alone.c. */
void st__net_check_spec(const st_xfer_spec *spec);

#endif
