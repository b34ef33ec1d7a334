/* One simulated fabric at time 0: an engine, a flow-level network on a topology, and a
 * collective runner on that network, opened and closed together in the one order that works. */
#ifndef ST_MODELS_FABRIC_FABSIM_H
#define ST_MODELS_FABRIC_FABSIM_H

#include "models/config/config.h"
#include "models/fabric/collective.h"
#include "models/fabric/net.h"
#include "models/fabric/topo.h"
#include "sim/engine.h"

typedef struct st_fabsim st_fabsim;

/* A fresh engine, a network over t (borrowed; must outlive the fabsim) on that engine, and a
 * collective runner on the network for cluster c (borrowed during the call, as st_coll_new).
 * The network registers its event kind first, so kinds a caller registers afterwards number the
 * same as they would by hand. Never returns NULL. */
st_fabsim *st_fabsim_new(const st_topo *t, const st_cluster_cfg *c);

/* Free the network, then the runner (the network's pending transfers call into the runner's
 * state), then the engine. Pending events and running collectives are dropped without their
 * done callbacks. st_fabsim_free(NULL) is a no-op. */
void st_fabsim_free(st_fabsim *fs);

/* The parts, owned by fs and valid until st_fabsim_free. */
st_engine *st_fabsim_engine(const st_fabsim *fs);
st_net *st_fabsim_net(const st_fabsim *fs);
st_coll *st_fabsim_coll(const st_fabsim *fs);

#endif
