/* The tiresias policy's defaults, for the loader to start a scenario's parameter block from
 * (models/sched/tiresias.c gives their source). */
#ifndef ST_MODELS_SCHED_TIRESIAS_H
#define ST_MODELS_SCHED_TIRESIAS_H

#include "models/config/config.h"

extern const st_tiresias_cfg st_tiresias_defaults;

#endif
