/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi.support;

import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.LimiterOptions;
import dev.sluice.memory.MemoryStore;
import java.util.concurrent.TimeUnit;

/**
 * The main class {@link LoggingProcessTest} runs in a JVM of its own: runs work on a limiter whose
 * listener always throws, logs one line through the facade, and prints on stdout whether SLF4J was
 * bound and what the work returned.
 */
public final class LoggingProbe {
  private LoggingProbe() {}

  public static void main(String[] args) throws Exception {
    LimiterOptions options =
        LimiterOptions.builder()
            .listener(
                e -> {
                  throw new IllegalStateException("probe listener bug");
                })
            .build();
    String result;
    try (Limiter limiter =
        Limiter.open(
            MemoryStore.named("probe"),
            LimiterConfig.builder().maxConcurrent(1).build(),
            options)) {
      result = limiter.schedule(() -> "ran").get(20, TimeUnit.SECONDS);
      result += "," + limiter.call(() -> "ran again");
    }
    Logs.of(LoggingProbe.class).warn("probe warning {}", 42);
    System.out.println("bound=" + Logs.slf4jBound() + " result=" + result);
  }
}
