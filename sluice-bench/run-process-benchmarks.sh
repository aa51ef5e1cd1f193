#!/usr/bin/env bash
# Copyright 2026 the Sluice authors.
# SPDX-License-Identifier: Apache-2.0
#
# Builds sluice-bench/target/benchmarks.jar and runs the multi-process benchmarks of the SQLite
# store (dev.sluice.bench.process.ProcessBench): Sluice's SQLite store, in its strict order and
# with localHandOffs(16) and (64), against a naive SQLite semaphore with real worker JVMs, all files under
# one fresh temporary directory. Prints a Markdown table.
#
#   bash sluice-bench/run-process-benchmarks.sh            # full run (about 9 minutes on 2 cores, plus the build)
#   QUICK=1 bash sluice-bench/run-process-benchmarks.sh    # smoke run, numbers meaningless
#
# What it measures:
#   1. throughput: acquire+release cycles/s, cap 4, 8 threads per process, empty task, 1, 2 and 4
#      worker processes, the three Sluice variants and naive side by side; 30 s warm-up, then a 10 s
#      window; spread = max/min of per-process cycles in the window
#   2. wake latency (Sluice): release in process A -> acquire(4) returns in process B, 200 rounds
#      after 3000 unrecorded ones (the JIT must finish compiling first: cold JVMs measure C2)
#   3. crash reclaim: SIGKILL of a holder of all 4 units -> a waiter's acquire(4) returns, 20
#      rounds on fresh pools (Sluice); one round on the naive semaphore
#
# Environment:
#   QUICK=1       1 s warm-up, 2 s window, 20 wake rounds, 3 crash rounds, 1 s naive crash wait
#   MVN_FLAGS     extra Maven flags for the build, e.g. "-o" for offline
#   SKIP_BUILD=1  reuse an existing target/benchmarks.jar
#   BENCH_DIR     parent of the fresh run directory (default: java.io.tmpdir, normally /tmp); keep
#                 it short, Unix socket paths inside it must stay under about 107 characters
#   BENCH_ARGS    extra ProcessBench options, e.g. "--keep" (see its usage)
#
# Results: the table on stdout and in sluice-bench/target/process-benchmarks.md; progress on
# stderr. The script takes no lock itself: on a shared machine run it as
# `flock /tmp/sluice-build.lock bash sluice-bench/run-process-benchmarks.sh`.
set -euo pipefail

# shellcheck source=sluice-bench/bench-jar.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench-jar.sh"

if [[ "${QUICK:-0}" == "1" ]]; then
  timing=(--warmup 1 --window 2 --wake-warmup 5 --wake-rounds 20 --crash-warmup 1
    --crash-rounds 3 --naive-crash-wait 1)
  echo "== QUICK=1: smoke run, short windows and few rounds; not for comparison" >&2
else
  timing=(--warmup 30 --window 10 --wake-warmup 3000 --wake-rounds 200 --crash-warmup 2
    --crash-rounds 20 --naive-crash-wait 3)
fi
dir_args=()
if [[ -n "${BENCH_DIR:-}" ]]; then
  dir_args=(--dir "${BENCH_DIR}")
fi

rm -f target/process-benchmarks.md
echo "== process benchmarks (table also in sluice-bench/target/process-benchmarks.md)" >&2
# shellcheck disable=SC2086  # BENCH_ARGS is a list of options
java -cp "${jar}" dev.sluice.bench.process.ProcessBench --jar "${bench_dir}/${jar}" \
  "${timing[@]}" "${dir_args[@]}" ${BENCH_ARGS:-} > target/process-benchmarks.md.tmp
mv target/process-benchmarks.md.tmp target/process-benchmarks.md
cat target/process-benchmarks.md
