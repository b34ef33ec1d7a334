/* Where the fuzz harnesses place the scenarios they load: as if in tests/fuzz/seeds, beside the
 * trace seeds, so that the relative trace paths those seeds name (`../../traces/...`) resolve to
 * tests/traces wherever the fuzzer runs. ST_SOURCE_DIR comes from the build
 * (tests/CMakeLists.txt, tests/fuzz/CMakeLists.txt). */
#ifndef ST_TESTS_FUZZ_FUZZ_BASE_H
#define ST_TESTS_FUZZ_FUZZ_BASE_H

#define ST_FUZZ_SCENARIO ST_SOURCE_DIR "/tests/fuzz/seeds/fuzz.yaml"

#endif
