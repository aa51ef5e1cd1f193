#!/usr/bin/env bash
# Copyright 2026 the Sluice authors.
# SPDX-License-Identifier: Apache-2.0
#
# Builds sluice-bench/target/benchmarks.jar and runs the workflow benchmarks of the SQLite workflow
# store (dev.sluice.bench.process.WorkflowBench) with real worker JVMs. Prints a Markdown table.
#
#   bash sluice-bench/run-workflow-benchmarks.sh            # full run (about 3 minutes on 2 cores, plus the build)
#   QUICK=1 bash sluice-bench/run-workflow-benchmarks.sh    # smoke run, numbers meaningless
#
# What it measures, each with synchronous=NORMAL and FULL, beside the disk's fsync rate:
#   1. throughput: 3-step workflows queued, then 1 or 2 warmed worker processes let go; go -> last result
#   2. start-to-finish latency of a 1-step workflow: submit -> result, one at a time, one worker process
#
# Environment:
#   QUICK=1       few executions and rounds
#   MVN_FLAGS     extra Maven flags for the build, e.g. "-o" for offline
#   SKIP_BUILD=1  reuse an existing target/benchmarks.jar
#   BENCH_DIR     parent of the fresh run directory (default: java.io.tmpdir); keep it short, Unix
#                 socket paths inside it must stay under about 107 characters
#
# The script takes no lock itself: on a shared machine run it as
# `flock /tmp/sluice-build.lock bash sluice-bench/run-workflow-benchmarks.sh`.
set -euo pipefail

# shellcheck source=sluice-bench/bench-jar.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench-jar.sh"

if [[ "${QUICK:-0}" == "1" ]]; then
  sizes=(--count 200 --warmup 200 --latency-rounds 20 --latency-warmup 20)
  echo "== QUICK=1: smoke run; not for comparison" >&2
else
  sizes=(--count 3000 --warmup 3000 --latency-rounds 500 --latency-warmup 500)
fi
dir_args=()
if [[ -n "${BENCH_DIR:-}" ]]; then
  dir_args=(--dir "${BENCH_DIR}")
fi

java -cp "${jar}" dev.sluice.bench.process.WorkflowBench --jar "${bench_dir}/${jar}" \
  "${sizes[@]}" "${dir_args[@]}" > target/workflow-benchmarks.md.tmp
mv target/workflow-benchmarks.md.tmp target/workflow-benchmarks.md
cat target/workflow-benchmarks.md
