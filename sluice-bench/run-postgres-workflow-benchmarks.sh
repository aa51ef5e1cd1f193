#!/usr/bin/env bash
# Copyright 2026 the Sluice authors.
# SPDX-License-Identifier: Apache-2.0
#
# Builds sluice-bench/target/benchmarks.jar and runs the PostgreSQL workflow benchmarks
# (dev.sluice.bench.process.PgWorkflowBench): Sluice's PostgresWorkflowStore beside DBOS Transact
# for Java on the same server in one run, each in a schema of its own (sluice_wfbench,
# dbos_wfbench) dropped before every row and at the end, with real worker JVMs. Prints a Markdown
# table with the ratios to DBOS.
#
#   bash sluice-bench/run-postgres-workflow-benchmarks.sh          # full run (about 5 minutes on 2 cores, plus the build)
#   QUICK=1 bash sluice-bench/run-postgres-workflow-benchmarks.sh  # smoke run, numbers meaningless
#
# What it measures, with 1 and 2 worker JVMs, each running 8 executions at once on a pool of 8
# connections (both engines), DBOS's queue polled every 5 ms:
#   1. throughput: 3-step workflows enqueued, then the warmed workers are let go; go -> last result
#   2. latency of a 1-step workflow: enqueue -> result, one at a time
#
# Environment:
#   SLUICE_POSTGRES_URL  the server (default jdbc:postgresql://127.0.0.1:5432/test?user=postgres;
#                        loopback only)
#   QUICK=1       few executions and rounds
#   MVN_FLAGS     extra Maven flags for the build, e.g. "-o" for offline
#   SKIP_BUILD=1  reuse an existing target/benchmarks.jar
#   BENCH_ARGS    extra PgWorkflowBench options, e.g. "--dbos-poll-ms 1 --peers DBOS", or
#                 "--rounds 5": every row five times, the engines taking turns to go first, and a
#                 table of medians (about 2 minutes a round)
#
# Results: the report on stdout and in sluice-bench/target/postgres-workflow-benchmarks.md;
# progress on stderr. The script takes no lock itself: on a shared machine run it as
# `flock /tmp/sluice-build.lock bash sluice-bench/run-postgres-workflow-benchmarks.sh`.
set -euo pipefail

# shellcheck source=sluice-bench/bench-jar.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench-jar.sh"

if [[ "${QUICK:-0}" == "1" ]]; then
  sizes=(--count 300 --warmup 200 --latency-rounds 30 --latency-warmup 20)
  echo "== QUICK=1: smoke run; not for comparison" >&2
else
  sizes=(--count 3000 --warmup 2000 --latency-rounds 500 --latency-warmup 300)
fi

# shellcheck disable=SC2086  # BENCH_ARGS is a list of options
java -cp "${jar}" dev.sluice.bench.process.PgWorkflowBench --jar "${bench_dir}/${jar}" \
  "${sizes[@]}" ${BENCH_ARGS:-} > target/postgres-workflow-benchmarks.md.tmp
mv target/postgres-workflow-benchmarks.md.tmp target/postgres-workflow-benchmarks.md
cat target/postgres-workflow-benchmarks.md
