#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine: installs the Debian packages Strata needs when
# they are missing, builds, then does what you ask.
#   ./build.sh demo        build, then run the Llama 3 405B example and print its summary
#   ./build.sh test        build, then run the whole test suite
#   ./build.sh test-asan   the suite again in an AddressSanitizer + UBSan build (but the two
#                          document checks, which the first pass makes)
#   ./build.sh bench       build in Release and run the benchmarks under tests/bench
#   ./build.sh fuzz        build the libFuzzer harnesses (needs clang; docs/dev/fuzzing.md)
#   ./build.sh             just build (the binary is build/strata)
set -euo pipefail
cd "$(dirname "$0")"

packages=(cmake make gcc pkg-config libgsl-dev libyaml-dev libcjson-dev check python3)
# python3: the report test (tests/cli/check_report.py) parses every HTML report with its XML parser.
# chromium: the browser test (cli.browser, tests/cli/check_browser.sh) renders every HTML report
# headless at 1,280 px, and prints compare's page to PDF, whose text poppler-utils' pdftotext
# reads; the tests need them, so the test commands install them (a build or the demo does not:
# chromium is a large package).
case "${1:-build}" in test | test-asan) packages+=(chromium poppler-utils) ;; esac
# Optional: Open MPI, for `mpirun -n N strata sweep` and its test (cli.sweep_mpi). The build
# works without it; CI (CI=true, which .ci/run sets) installs it so the MPI test runs there.
[ "${CI:-}" = "true" ] && packages+=(libopenmpi-dev openmpi-bin)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "build.sh: installing missing Debian packages: ${missing[*]}" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

jobs=$(nproc 2>/dev/null || echo 2)
werror=OFF
[ "${CI:-}" = "true" ] && werror=ON   # warnings are errors in CI

configure_build() { # dir, cmake options...
    local dir=$1
    shift
    cmake -S . -B "$dir" -DSTRATA_WERROR=$werror "$@" >/dev/null
    cmake --build "$dir" -j "$jobs" >/dev/null
}

fuzz_build() { # the libFuzzer harnesses into build-fuzz (clang)
    CC=clang cmake -S . -B build-fuzz -DSTRATA_WERROR=$werror -DCMAKE_BUILD_TYPE=Debug \
        -DSTRATA_FUZZ=ON -DSTRATA_TESTS=OFF >/dev/null
    cmake --build build-fuzz -j "$jobs" --target fuzz_loader fuzz_run fuzz_trace >/dev/null
    echo "built build-fuzz/tests/fuzz/fuzz_loader, fuzz_run and fuzz_trace"
}

case "${1:-build}" in
build)
    configure_build build -DCMAKE_BUILD_TYPE=RelWithDebInfo
    echo "built build/strata; MPI sweeps $(sed -n 's/^STRATA_MPI_BUILT:INTERNAL=//p' build/CMakeCache.txt)"
    ;;
demo)
    configure_build build -DCMAKE_BUILD_TYPE=RelWithDebInfo
    ./build/strata run scenarios/examples/llama3-405b-16k.yaml
    echo
    echo "Meta reports 400 TFLOP/s per GPU (41% BF16 MFU) for this plan (\"The Llama 3 Herd of Models\","
    echo "arXiv 2407.21783, Table 4). Why Strata differs: docs/models/memory-model.md, worked example."
    ;;
test)
    configure_build build -DCMAKE_BUILD_TYPE=RelWithDebInfo
    ctest --test-dir build --output-on-failure -j "$jobs"
    ;;
test-asan)
    configure_build build-asan -DCMAKE_BUILD_TYPE=Debug -DSTRATA_SANITIZE=ON
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        ctest --test-dir build-asan --output-on-failure -j "$jobs"
    # The libFuzzer builds of the harnesses, compile only, where clang is installed (the suite
    # already builds and replays each harness with gcc): their CMake cannot drift either.
    if command -v clang >/dev/null; then
        fuzz_build
    else
        echo "build.sh: no clang; the libFuzzer harnesses are built with gcc only (fuzz.* tests)"
    fi
    ;;
fuzz)
    command -v clang >/dev/null || {
        echo "build.sh fuzz: needs clang (Debian package clang) for libFuzzer" >&2
        exit 2
    }
    fuzz_build
    ;;
bench)
    configure_build build-release -DCMAKE_BUILD_TYPE=Release
    for b in build-release/tests/bench/bench_*; do
        [ -x "$b" ] && "$b"
    done
    ;;
*)
    echo "usage: ./build.sh [build|demo|test|test-asan|bench]" >&2
    exit 2
    ;;
esac
