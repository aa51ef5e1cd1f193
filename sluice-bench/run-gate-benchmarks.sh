#!/usr/bin/env bash
# Copyright 2026 the Sluice authors.
# SPDX-License-Identifier: Apache-2.0
#
# Builds sluice-bench/target/benchmarks.jar and runs the job gate's command benchmarks
# (dev.sluice.bench.gate.GateCommandBench): `bin/sluice run` as a real command next to GNU sem,
# flock and a trivial JVM, all files under one fresh temporary directory. Prints a Markdown table.
#
#   bash sluice-bench/run-gate-benchmarks.sh            # full run (about 1.5 minutes on 2 cores, plus the build)
#   QUICK=1 bash sluice-bench/run-gate-benchmarks.sh    # smoke run, numbers meaningless
#
# What it measures:
#   1. per-call wall time, one call at a time on an idle gate, of
#        bin/sluice --home H run --pool bench -- true          (pool bench of capacity 4)
#        sem --fg --will-cite --id ID -j 4 true                 (GNU parallel's sem)
#        flock DIR/lockfile true
#        java -XX:TieredStopAtLevel=1 -XX:CICompilerCount=1 -XX:+UseSerialGC -Xshare:auto -cp DIR TrivialMain
#      (the same java and base JVM options as bin/sluice, an empty main, no jar, no SQLite);
#      5 unrecorded calls of each, then 40 recorded ones interleaved round-robin; mean, p50, p90,
#      and the ratios sluice/sem and sluice/trivial JVM
#   2. admission wake latency: two `sluice run` on a pool of capacity 1; A's command waits on a
#      FIFO, then stamps `date +%s%N` as its last act; B, queued behind A (its queued event seen),
#      stamps `date +%s%N` as its first act. Latency = B's stamp - A's stamp, 40 rounds after 5
#      unrecorded, split by the event feed into release, wake + claim, and B's spawn
#
# Environment:
#   QUICK=1       1 warm-up call and 5 recorded calls of each variant, 1 + 5 wake rounds
#   MVN_FLAGS     extra Maven flags for the build, e.g. "-o" for offline
#   SKIP_BUILD=1  reuse an existing target/benchmarks.jar
#   BENCH_DIR     parent of the fresh run directory (default: java.io.tmpdir, normally /tmp); keep
#                 it short, Unix socket paths inside it must stay under about 107 characters
#   BENCH_ARGS    extra GateCommandBench options, e.g. "--keep" or "--calls 60" (see its usage)
#   JAVA_HOME, SLUICE_JAVA_OPTS  as for bin/sluice; SLUICE_JAVA_OPTS also goes to the trivial JVM
#
# Results: the table on stdout and in sluice-bench/target/gate-benchmarks.md; progress on stderr.
# The script takes no lock itself: on a shared machine run it as
# `flock /tmp/sluice-build.lock bash sluice-bench/run-gate-benchmarks.sh` (with SKIP_BUILD=1, as a
# build inside the lock would wait for the lock; bin/sluice takes it too if its layout is missing).
set -euo pipefail

if ! command -v sem >/dev/null; then
  echo "GNU sem is missing: apt-get install parallel" >&2
  exit 1
fi

# shellcheck source=sluice-bench/bench-jar.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench-jar.sh"
sluice="${repo_root}/bin/sluice"

# Once, unmeasured: builds bin/sluice's layout if it is missing and its class-data archive if it is
# stale, so that no measured call pays for either.
echo "== bin/sluice --help (makes sure sluice-cli/target/sluice is complete)" >&2
"${sluice}" --help >/dev/null


if [[ "${QUICK:-0}" == "1" ]]; then
  counts=(--warmup 1 --calls 5 --wake-warmup 1 --wake-rounds 5)
  echo "== QUICK=1: smoke run, few calls and rounds; not for comparison" >&2
else
  counts=(--warmup 5 --calls 40 --wake-warmup 5 --wake-rounds 40)
fi
dir_args=()
if [[ -n "${BENCH_DIR:-}" ]]; then
  dir_args=(--dir "${BENCH_DIR}")
fi

rm -f target/gate-benchmarks.md
echo "== gate command benchmarks (table also in sluice-bench/target/gate-benchmarks.md)" >&2
# shellcheck disable=SC2086  # BENCH_ARGS is a list of options
java -cp "${jar}" dev.sluice.bench.gate.GateCommandBench --sluice "${sluice}" \
  "${counts[@]}" "${dir_args[@]}" ${BENCH_ARGS:-} > target/gate-benchmarks.md.tmp
mv target/gate-benchmarks.md.tmp target/gate-benchmarks.md
cat target/gate-benchmarks.md
