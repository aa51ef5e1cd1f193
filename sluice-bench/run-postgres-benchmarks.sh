#!/usr/bin/env bash
# Copyright 2026 the Sluice authors.
# SPDX-License-Identifier: Apache-2.0
#
# Builds sluice-bench/target/benchmarks.jar and runs the PostgreSQL limiter benchmarks
# (dev.sluice.bench.process.PgBench) side by side on one server in one run: Sluice's PostgresStore
# in strict order and with localHandOffs(16), Bucket4j's PostgreSQL proxy manager
# (SELECT ... FOR UPDATE) and a naive conditional-UPDATE semaphore, all in real worker JVMs, in a
# fresh schema that is dropped at the end. Prints a Markdown report.
#
#   bash sluice-bench/run-postgres-benchmarks.sh            # full run (about 9 minutes on 2 cores, plus the build)
#   QUICK=1 bash sluice-bench/run-postgres-benchmarks.sh    # smoke run, numbers meaningless
#
# What it measures:
#   1. throughput: cycles/s, cap 4, a cycle = acquire(1), Blackhole.consumeCPU(10), release
#      (Bucket4j: tryConsume(1) and the task; it holds nothing), 1, 8 and 32 threads in one JVM and
#      4 JVMs x 8 threads; 15 s warm-up, then a 10 s window; spread = max/min of per-JVM cycles;
#      writing transactions of the server per cycle
#   2. wake latency: release in JVM A -> acquire(4) returns in JVM B (Sluice strict, naive), 200
#      rounds after 500 unrecorded
#   3. crash reclaim: SIGKILL of a JVM holding all 4 units -> a waiter in another JVM gets them
#      (Sluice: 10 rounds at a 3 s owner heartbeat timeout, 2 at the default 30 s; naive: once)
#
# Environment:
#   SLUICE_POSTGRES_URL  the server (default jdbc:postgresql://127.0.0.1:5432/test?user=postgres;
#                        loopback only)
#   QUICK=1       2 s warm-up, 3 s window, 20 wake rounds, 2 crash rounds, no default-heartbeat round
#   MVN_FLAGS     extra Maven flags for the build, e.g. "-o" for offline
#   SKIP_BUILD=1  reuse an existing target/benchmarks.jar
#   BENCH_ARGS    extra PgBench options, e.g. "--shapes 1x8 --variants SLUICE,BUCKET4J" (see its usage)
#
# Results: the report on stdout and in sluice-bench/target/postgres-benchmarks.md; progress on
# stderr. The script takes no lock itself: on a shared machine run it as
# `flock /tmp/sluice-build.lock bash sluice-bench/run-postgres-benchmarks.sh`.
set -euo pipefail

# shellcheck source=sluice-bench/bench-jar.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench-jar.sh"

if [[ "${QUICK:-0}" == "1" ]]; then
  timing=(--warmup 2 --window 3 --wake-warmup 20 --wake-rounds 20 --crash-rounds 2
    --default-crash-rounds 0 --naive-crash-wait 1)
  echo "== QUICK=1: smoke run, short windows and few rounds; not for comparison" >&2
else
  timing=(--warmup 15 --window 10 --wake-warmup 500 --wake-rounds 200 --crash-rounds 10
    --crash-heartbeat 3 --default-crash-rounds 2 --naive-crash-wait 3)
fi

rm -f target/postgres-benchmarks.md
echo "== PostgreSQL benchmarks (report also in sluice-bench/target/postgres-benchmarks.md)" >&2
# shellcheck disable=SC2086  # BENCH_ARGS is a list of options
java -cp "${jar}" dev.sluice.bench.process.PgBench --jar "${bench_dir}/${jar}" \
  "${timing[@]}" ${BENCH_ARGS:-} > target/postgres-benchmarks.md.tmp
mv target/postgres-benchmarks.md.tmp target/postgres-benchmarks.md
cat target/postgres-benchmarks.md
