/* The preset tables: named GPUs and transformer models a scenario can refer to by name. Each
 * figure carries its source in catalog.c; docs/guide/catalog.md tabulates them. */
#ifndef ST_SCENARIOS_CATALOG_H
#define ST_SCENARIOS_CATALOG_H

#include <stddef.h>

#include "models/silicon/gpu.h"
#include "models/silicon/llm.h"

/* The preset named `name` (exact, case-sensitive match, e.g. "h100-sxm"), or NULL when there
 * is none or name is NULL. The pointer is to static data and stays valid for the program. */
const st_gpu_spec *st_catalog_gpu(const char *name);
const st_llm_spec *st_catalog_model(const char *name);

/* The presets in a fixed order (the order of the tables: docs/guide/catalog.md's), for listings and
 * "did you mean" suggestions. *_at(i) returns NULL when i >= *_count(). */
size_t st_catalog_gpu_count(void);
const st_gpu_spec *st_catalog_gpu_at(size_t i);
/* The GPU presets' names into names (at most cap), for "did you mean" suggestions; how many. */
size_t st_catalog_gpu_names(const char **names, size_t cap);
size_t st_catalog_model_count(void);
const st_llm_spec *st_catalog_model_at(size_t i);

#endif
