# Copyright 2026 the Sluice authors.
# SPDX-License-Identifier: Apache-2.0
#
# Sourced by the run-*-benchmarks.sh scripts: builds sluice-bench/target/benchmarks.jar unless
# SKIP_BUILD=1 (MVN_FLAGS passes extra Maven flags, e.g. -o), then enters sluice-bench and checks the
# jar is there. Sets bench_dir, repo_root and jar (relative to bench_dir). Progress goes to stderr.

bench_dir="$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)"
repo_root="$(cd "${bench_dir}/.." && pwd)"

if [[ "${SKIP_BUILD:-0}" != "1" ]]; then
  echo "== building sluice-bench/target/benchmarks.jar" >&2
  # shellcheck disable=SC2086  # MVN_FLAGS is a list of flags
  (cd "${repo_root}" && mvn -q -B ${MVN_FLAGS:-} -pl sluice-bench -am package -DskipTests \
    -Dspotless.check.skip=true)
fi

cd "${bench_dir}"
jar="target/benchmarks.jar"
if [[ ! -f "${jar}" ]]; then
  echo "missing ${bench_dir}/${jar}" >&2
  exit 1
fi
