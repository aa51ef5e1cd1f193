#!/usr/bin/env bash
# Copyright 2026 the Sluice authors.
# SPDX-License-Identifier: Apache-2.0
#
# Builds sluice-bench/target/benchmarks.jar and runs every JMH benchmark of Sluice and its peers
# with the parameters of shared/research/peer-baselines.md, then prints a Markdown summary.
#
#   bash sluice-bench/run-benchmarks.sh            # full run (about 7 minutes on 2 cores)
#   QUICK=1 bash sluice-bench/run-benchmarks.sh    # smoke run: 1 short iteration, numbers meaningless
#
# Environment:
#   QUICK=1     -wi 1 -w 1s -i 1 -r 1s instead of -wi 3 -w 2s -i 5 -r 2s
#   FORKS=N     JMH forks per benchmark (default 1, as in the peer baselines; use 2+ to publish)
#   MVN_FLAGS   extra Maven flags for the build, e.g. "-o" for offline
#   SKIP_BUILD=1  reuse an existing target/benchmarks.jar
#
# Results: sluice-bench/target/jmh-<name>.json (JMH JSON), jmh-<name>.txt (JMH's console output)
# and benchmarks-summary.md (the table). The script takes no lock itself: on a shared machine run
# it as `flock /tmp/sluice-build.lock bash sluice-bench/run-benchmarks.sh`.
set -euo pipefail

# shellcheck source=sluice-bench/bench-jar.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench-jar.sh"

forks="${FORKS:-1}"
if [[ "${QUICK:-0}" == "1" ]]; then
  timing=(-f "${forks}" -wi 1 -w 1s -i 1 -r 1s)
  echo "== QUICK=1: smoke run, 1 warm-up and 1 measurement iteration of 1 s; not for comparison"
else
  timing=(-f "${forks}" -wi 3 -w 2s -i 5 -r 2s)
fi

rm -f target/jmh-*.json target/jmh-*.txt target/benchmarks-summary.md

# run NAME THREADS REGEX: one JMH invocation, JSON to target/jmh-NAME.json, text to .txt
run() {
  local name="$1" threads="$2" regex="$3"
  echo "== ${name}: -t ${threads} ${regex}"
  java -jar "${jar}" "${timing[@]}" -t "${threads}" -bm avgt -tu ns -prof gc \
    -rf json -rff "target/jmh-${name}.json" "${regex}" 2>&1 | tee "target/jmh-${name}.txt"
}

# Group 1 of the peer baselines: cap 4 around the task, 1 and 8 threads.
run concurrency-t1 1 '\.ConcurrencyBench\.'
run concurrency-t8 8 '\.ConcurrencyBench\.'
# Group 4: schedule and join, 1 thread.
run async-t1 1 '\.AsyncBench\.'
# Group 3 (overhead rows, 1 and 8 threads) and real 1 ms spacing (1 thread).
run spacing-t1 1 '\.SpacingBench\.'
run spacing-t8 8 '\.SpacingBench\.(guavaUnlimited|sluiceReservoir)$'

echo "== summary (also in sluice-bench/target/benchmarks-summary.md)"
python3 "${bench_dir}/summarize.py" target/jmh-*.json | tee target/benchmarks-summary.md
