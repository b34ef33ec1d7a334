/* An engine, a network and a collective runner owned together (models/fabric/fabsim.h). */
#include "models/fabric/fabsim.h"

#include <stdlib.h>

#include "sim/xalloc.h"

struct st_fabsim {
    st_engine *eng;
    st_net *net;
    st_coll *cm;
};

st_fabsim *st_fabsim_new(const st_topo *t, const st_cluster_cfg *c)
{
    st_fabsim *fs = st_xmalloc(sizeof *fs);
    fs->eng = st_engine_new();
    fs->net = st_net_new(fs->eng, t);
    fs->cm = st_coll_new(fs->net, t, c);
    return fs;
}

void st_fabsim_free(st_fabsim *fs)
{
    if (!fs)
        return;
    /* The network first: its transfers' callbacks point into the runner's collectives. Its
     * events go with the engine, unfired: none cancelled one by one. */
    st_net_detach(fs->net);
    st_net_free(fs->net);
    st_coll_free(fs->cm);
    st_engine_free(fs->eng);
    free(fs);
}

st_engine *st_fabsim_engine(const st_fabsim *fs)
{
    return fs->eng;
}

st_net *st_fabsim_net(const st_fabsim *fs)
{
    return fs->net;
}

st_coll *st_fabsim_coll(const st_fabsim *fs)
{
    return fs->cm;
}
