/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.memory.MemoryStore;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An instrumentation hook that throws when a managed execution is submitted: the caller gets the
 * exception, nothing runs, and the limiter still closes and drains as if the call never happened.
 */
class ThrowingInstrumentationTest {
  static final class ThrowsOnExecute implements Instrumentation {
    @Override
    public Observation schedule(String pool, ScheduleOptions options) {
      return Observation.NONE;
    }

    @Override
    public Observation execute(String pool, String operationId, ExecuteOptions options) {
      throw new IllegalStateException("hook failed");
    }

    @Override
    public Observation attempt(Observation execution, int attempt) {
      return Observation.NONE;
    }
  }

  @Test
  void aHookThatThrowsOnExecuteLeavesNothingCountedIn() throws Exception {
    Limiter limiter =
        Limiter.open(
            MemoryStore.named("throwing-hook-" + UUID.randomUUID()),
            LimiterConfig.builder().maxConcurrent(1).build(),
            LimiterOptions.builder().instrumentation(new ThrowsOnExecute()).build());
    boolean[] ran = {false};
    assertThatThrownBy(
            () ->
                limiter.execute(
                    ctx -> ran[0] = true, ExecuteOptions.builder().noDeadline().build()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("hook failed");
    assertThat(ran[0]).isFalse();
    assertThat(limiter.maintenance().drain().runningOperations()).isZero();
    CompletableFuture<Void> closed = CompletableFuture.runAsync(limiter::close);
    closed.get(60, TimeUnit.SECONDS);
    assertThat(closed).isCompleted();
  }
}
