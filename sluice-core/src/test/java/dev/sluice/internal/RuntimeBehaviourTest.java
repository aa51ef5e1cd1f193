/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.LimiterEvent;
import dev.sluice.LimiterOptions;
import dev.sluice.memory.MemoryStore;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Local runtime behaviour that is not a store's business: threads, listeners. */
class RuntimeBehaviourTest {
  private static LimiterConfig cap(long n) {
    return LimiterConfig.builder().maxConcurrent(n).build();
  }

  @Test
  void callbacksUseVirtualThreadsExactlyWhenTheJvmHasThem() throws Exception {
    String pool = "threads-" + UUID.randomUUID().toString().substring(0, 8);
    boolean jvmHasVirtualThreads = Runtime.version().feature() >= 21;
    assertThat(CallbackExecutors.virtualThreads()).isEqualTo(jvmHasVirtualThreads);
    try (Limiter limiter = Limiter.open(MemoryStore.named(pool), cap(2))) {
      Thread t = limiter.schedule(Thread::currentThread).get(20, TimeUnit.SECONDS);
      if (!jvmHasVirtualThreads) {
        assertThat(t.getName()).startsWith("sluice-" + pool + "-");
        assertThat(t.isDaemon()).isTrue();
      }
    }
  }

  @Test
  void aThrowingListenerChangesNoOutcome() throws Exception {
    List<LimiterEvent.Kind> seen = new CopyOnWriteArrayList<>();
    java.util.concurrent.CountDownLatch released = new java.util.concurrent.CountDownLatch(2);
    LimiterOptions options =
        LimiterOptions.builder()
            .listener(
                e -> {
                  seen.add(e.kind());
                  if (e.kind() == LimiterEvent.Kind.RELEASED) {
                    released.countDown();
                  }
                  throw new IllegalStateException("listener bug");
                })
            .build();
    try (Limiter limiter =
        Limiter.open(MemoryStore.named("listener-" + UUID.randomUUID()), cap(1), options)) {
      assertThat(limiter.schedule(() -> "ok").get(20, TimeUnit.SECONDS)).isEqualTo("ok");
      assertThat(limiter.call(() -> "also ok")).isEqualTo("also ok");
    }
    // The listener keeps receiving after it threw: both releases reach it, on its own thread.
    assertThat(released.await(20, TimeUnit.SECONDS)).as("both releases delivered").isTrue();
    assertThat(seen)
        .containsSubsequence(
            LimiterEvent.Kind.GRANTED,
            LimiterEvent.Kind.STARTED,
            LimiterEvent.Kind.RELEASED,
            LimiterEvent.Kind.GRANTED,
            LimiterEvent.Kind.RELEASED);
  }

  @Test
  void aCustomExecutorRunsTheCallbacks() throws Exception {
    java.util.concurrent.ExecutorService mine =
        java.util.concurrent.Executors.newSingleThreadExecutor(r -> new Thread(r, "mine"));
    try (Limiter limiter =
        Limiter.open(
            MemoryStore.named("executor-" + UUID.randomUUID()),
            cap(1),
            LimiterOptions.builder().executor(mine).build())) {
      assertThat(limiter.schedule(() -> Thread.currentThread().getName()).get(20, TimeUnit.SECONDS))
          .isEqualTo("mine");
    } finally {
      mine.shutdownNow();
    }
  }
}
