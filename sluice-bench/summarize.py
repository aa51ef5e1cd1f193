#!/usr/bin/env python3
# Copyright 2026 the Sluice authors.
# SPDX-License-Identifier: Apache-2.0
"""Summarizes JMH JSON results of sluice-bench as a Markdown table.

Usage: python3 summarize.py target/jmh-*.json

For each benchmark and thread count it prints the average time (ns/op) with JMH's 99.9 % error,
the allocation per operation (B/op, from -prof gc), the overhead over the bare task where there is
one, and each Sluice row's ratio to the peer rows it is compared with (Sluice / peer: below 1 is
faster). It ends with the aims of the benchmark issue, judged on the point estimates.
"""

import json
import math
import sys

PKG = "dev.sluice.bench."

# (class.method) -> label, in table order.
LABELS = {
    "ConcurrencyBench.direct": "direct (task only)",
    "ConcurrencyBench.semaphoreUnfair": "j.u.c. Semaphore, unfair",
    "ConcurrencyBench.semaphoreFair": "j.u.c. Semaphore, fair",
    "ConcurrencyBench.r4jBulkhead": "Resilience4j SemaphoreBulkhead (fair)",
    "ConcurrencyBench.failsafeBulkhead": "Failsafe Bulkhead",
    "ConcurrencyBench.sluiceCall": "**Sluice `limiter.call(task)`**",
    "ConcurrencyBench.sluiceAcquire": "**Sluice `try (Lease l = acquire(1)) { task }`**",
    "AsyncBench.supplyAsyncJoin": "`CompletableFuture.supplyAsync(task, fixedPool(4)).join()`",
    "AsyncBench.sluiceScheduleJoin": "**Sluice `limiter.schedule(task).join()`**",
    "SpacingBench.guavaUnlimited": "Guava `RateLimiter.create(1e9).acquire()`",
    "SpacingBench.sluiceReservoir": "**Sluice `acquire(1).close()`, no cap, huge reservoir**",
    "SpacingBench.guava1000PerSecond": "Guava `RateLimiter.create(1000).acquire()`",
    "SpacingBench.sluiceMinTime1ms": "**Sluice `acquire(1).close()`, `minTime(1 ms)`**",
}

GROUPS = [
    ("ConcurrencyBench", "Concurrency limit, cap 4, around the task"),
    ("AsyncBench", "Schedule and join"),
    ("SpacingBench", "Rate admission, no task"),
]

# Sluice row -> the peer rows it is compared with, at the same thread count.
PEERS = {
    "ConcurrencyBench.sluiceCall": [
        ("ConcurrencyBench.failsafeBulkhead", "Failsafe"),
        ("ConcurrencyBench.r4jBulkhead", "R4j"),
        ("ConcurrencyBench.semaphoreFair", "Semaphore fair"),
        ("ConcurrencyBench.semaphoreUnfair", "Semaphore unfair"),
    ],
    "ConcurrencyBench.sluiceAcquire": [
        ("ConcurrencyBench.failsafeBulkhead", "Failsafe"),
        ("ConcurrencyBench.r4jBulkhead", "R4j"),
        ("ConcurrencyBench.semaphoreFair", "Semaphore fair"),
        ("ConcurrencyBench.semaphoreUnfair", "Semaphore unfair"),
    ],
    "AsyncBench.sluiceScheduleJoin": [("AsyncBench.supplyAsyncJoin", "supplyAsync")],
    "SpacingBench.sluiceReservoir": [("SpacingBench.guavaUnlimited", "Guava")],
    "SpacingBench.sluiceMinTime1ms": [("SpacingBench.guava1000PerSecond", "Guava")],
}

# (description, sluice row, peer row, threads, largest allowed ratio)
AIMS = [
    ("`call` no slower than Failsafe's bulkhead, 1 thread",
     "ConcurrencyBench.sluiceCall", "ConcurrencyBench.failsafeBulkhead", 1, 1.0),
    ("`call` no slower than Failsafe's bulkhead, 8 threads",
     "ConcurrencyBench.sluiceCall", "ConcurrencyBench.failsafeBulkhead", 8, 1.0),
    ("`call` within 2× of Resilience4j's bulkhead, 1 thread",
     "ConcurrencyBench.sluiceCall", "ConcurrencyBench.r4jBulkhead", 1, 2.0),
    ("`schedule().join()` within 1.5× of the `supplyAsync().join()` floor, 1 thread",
     "AsyncBench.sluiceScheduleJoin", "AsyncBench.supplyAsyncJoin", 1, 1.5),
]


def number(value):
    """Reads a JMH number, which may be the string "NaN"."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        return math.nan
    return v


def fmt(v):
    if v is None or math.isnan(v):
        return "n/a"
    if abs(v) >= 100:
        return f"{v:,.0f}"
    if abs(v) >= 10:
        return f"{v:.1f}"
    return f"{v:.2f}"


def load(paths):
    rows = {}
    runs = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            entries = json.load(f)
        for e in entries:
            name = e["benchmark"]
            short = name[len(PKG):] if name.startswith(PKG) else name
            pm = e["primaryMetric"]
            gc = e.get("secondaryMetrics", {}).get("gc.alloc.rate.norm")
            rows[(short, int(e["threads"]))] = {
                "score": number(pm["score"]),
                "error": number(pm.get("scoreError")),
                "unit": pm.get("scoreUnit", ""),
                "bop": number(gc["score"]) if gc else math.nan,
            }
            runs.append(
                (
                    e.get("jmhVersion", "?"),
                    e.get("jdkVersion", "?"),
                    e.get("forks", "?"),
                    e.get("warmupIterations", "?"),
                    e.get("warmupTime", "?"),
                    e.get("measurementIterations", "?"),
                    e.get("measurementTime", "?"),
                )
            )
    return rows, sorted(set(runs))


def main(argv):
    if not argv:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    rows, runs = load(argv)
    for jmh, jdk, forks, wi, wt, mi, mt in runs:
        print(
            f"JMH {jmh}, JDK {jdk}, {forks} fork(s), warm-up {wi} × {wt}, "
            f"measurement {mi} × {mt}, mode avgt (ns/op per calling thread)."
        )
    print()
    print("| group | variant | threads | avgt ns/op | B/op | overhead vs direct, ns | Sluice ÷ peer |")
    print("|---|---|---|---|---|---|---|")
    known = set(LABELS)
    order = list(LABELS) + sorted({k for k, _ in rows} - known)
    for cls, title in GROUPS + [("", "other")]:
        for key in order:
            if cls and not key.startswith(cls + "."):
                continue
            if not cls and any(key.startswith(c + ".") for c, _ in GROUPS):
                continue
            for threads in sorted(t for (k, t) in rows if k == key):
                r = rows[(key, threads)]
                err = "" if math.isnan(r["error"]) else f" ± {fmt(r['error'])}"
                direct = rows.get(("ConcurrencyBench.direct", threads))
                overhead = ""
                if cls == "ConcurrencyBench" and direct and key != "ConcurrencyBench.direct":
                    overhead = fmt(r["score"] - direct["score"])
                ratios = []
                for peer, label in PEERS.get(key, []):
                    p = rows.get((peer, threads))
                    if p and p["score"] > 0:
                        ratios.append(f"{r['score'] / p['score']:.2f}× {label}")
                print(
                    f"| {title} | {LABELS.get(key, key)} | {threads} | {fmt(r['score'])}{err} "
                    f"| {fmt(r['bop'])} | {overhead} | {'; '.join(ratios)} |"
                )
    print()
    print("Aims (judged on point estimates; check that the ± ranges agree before claiming one):")
    print()
    for text, mine, peer, threads, limit in AIMS:
        a, b = rows.get((mine, threads)), rows.get((peer, threads))
        if not a or not b or not b["score"] > 0:
            print(f"- {text}: no data")
            continue
        ratio = a["score"] / b["score"]
        verdict = "met" if ratio <= limit else "missed"
        print(f"- {text}: {ratio:.2f}× (aim ≤ {limit:g}×) — {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
