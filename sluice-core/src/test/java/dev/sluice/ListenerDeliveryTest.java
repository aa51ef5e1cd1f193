/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.memory.MemoryStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How listeners receive events: on their own thread and queue, so a blocked listener blocks no
 * acquire and loses (and counts) what its full queue cannot take; a throwing listener keeps
 * receiving; a closed subscription receives nothing more; executions and drains report their
 * lifecycle events.
 */
class ListenerDeliveryTest {
  private static final Duration SAFETY = Duration.ofSeconds(20);

  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  /** Records events and lets a test wait for a count, without polling. */
  static final class Recorder implements LimiterListener {
    private final List<LimiterEvent> events = new ArrayList<>();

    @Override
    public synchronized void onEvent(LimiterEvent event) {
      events.add(event);
      notifyAll();
    }

    synchronized int count(Predicate<LimiterEvent> which) {
      return (int) events.stream().filter(which).count();
    }

    synchronized int total() {
      return events.size();
    }

    synchronized List<LimiterEvent> all() {
      return List.copyOf(events);
    }

    synchronized void await(Predicate<LimiterEvent> which, int n) throws InterruptedException {
      long end = System.nanoTime() + SAFETY.toNanos();
      while (count(which) < n) {
        long left = end - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("expected " + n + " matching events, saw " + events);
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    }
  }

  private static Predicate<LimiterEvent> kind(LimiterEvent.Kind k) {
    return e -> e.kind() == k;
  }

  private Limiter limiter() {
    Limiter l =
        Limiter.open(
            MemoryStore.named("listeners-" + UUID.randomUUID()),
            LimiterConfig.builder().maxConcurrent(2).build());
    open.add(l);
    return l;
  }

  private static void cycles(Limiter limiter, int n) throws Exception {
    // Run off the test thread, so a limiter that waited for a listener fails the test instead of
    // hanging it.
    CompletableFuture.runAsync(
            () -> {
              for (int i = 0; i < n; i++) {
                try {
                  limiter.acquire(1).close();
                } catch (InterruptedException e) {
                  throw new IllegalStateException(e);
                }
              }
            })
        .get(SAFETY.toSeconds(), TimeUnit.SECONDS);
  }

  @Test
  void aBlockedListenerBlocksNoAcquireAndItsOverflowIsCounted() throws Exception {
    Limiter limiter = limiter();
    Recorder reference = new Recorder();
    open.add(limiter.listen(reference, 100_000));
    CountDownLatch unblock = new CountDownLatch(1);
    CountDownLatch entered = new CountDownLatch(1);
    AtomicInteger received = new AtomicInteger();
    LimiterListener.Subscription blocked =
        limiter.listen(
            e -> {
              received.incrementAndGet();
              entered.countDown();
              try {
                unblock.await();
              } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
              }
            },
            4);
    open.add(blocked);
    try {
      cycles(limiter, 200);
      assertThat(entered.await(SAFETY.toSeconds(), TimeUnit.SECONDS)).isTrue();
      reference.await(kind(LimiterEvent.Kind.RELEASED), 200);
      assertThat(received.get()).as("the listener is stuck in its first event").isEqualTo(1);
      assertThat(blocked.droppedEvents())
          .as("all but the queue's 4 and the one held were dropped")
          .isBetween((long) reference.total() - 5, (long) reference.total() - 4);
    } finally {
      unblock.countDown();
    }
    Recorder after = new Recorder();
    open.add(limiter.listen(after));
    cycles(limiter, 1);
    after.await(kind(LimiterEvent.Kind.RELEASED), 1);
    // Each listener has its own delivery: the reference may get the last release after `after`.
    reference.await(kind(LimiterEvent.Kind.RELEASED), 201);
    assertThat(reference.count(kind(LimiterEvent.Kind.RELEASED))).isEqualTo(201);
  }

  @Test
  void theOptionsListenersSubscriptionTellsItsCountsAndStopsIt() throws Exception {
    Recorder seen = new Recorder();
    Limiter limiter =
        Limiter.open(
            MemoryStore.named("listeners-" + UUID.randomUUID()),
            LimiterConfig.builder().maxConcurrent(2).build(),
            LimiterOptions.builder()
                .listener(
                    e -> {
                      seen.onEvent(e);
                      throw new IllegalStateException("listener bug");
                    })
                .build());
    open.add(limiter);
    assertThat(limiter().optionsListener()).as("no listener in the options").isEmpty();
    LimiterListener.Subscription subscription = limiter.optionsListener().orElseThrow();
    cycles(limiter, 3);
    seen.await(kind(LimiterEvent.Kind.RELEASED), 3);
    int firstBatch = seen.total();
    cycles(limiter, 1);
    seen.await(kind(LimiterEvent.Kind.RELEASED), 4);
    assertThat(subscription.failures()).isBetween((long) firstBatch, (long) seen.total());
    assertThat(subscription.droppedEvents()).isZero();

    subscription.close();
    Recorder after = new Recorder();
    open.add(limiter.listen(after));
    cycles(limiter, 1);
    after.await(kind(LimiterEvent.Kind.RELEASED), 1);
    assertThat(seen.count(kind(LimiterEvent.Kind.RELEASED))).as("stopped for good").isEqualTo(4);
  }

  @Test
  void aThrowingListenerKeepsReceivingAndCountsItsFailures() throws Exception {
    Limiter limiter = limiter();
    Recorder seen = new Recorder();
    LimiterListener.Subscription throwing =
        limiter.listen(
            e -> {
              seen.onEvent(e);
              throw new IllegalStateException("listener bug");
            });
    open.add(throwing);
    assertThat(limiter.schedule(() -> "ok").get(SAFETY.toSeconds(), TimeUnit.SECONDS))
        .isEqualTo("ok");
    cycles(limiter, 10);
    seen.await(kind(LimiterEvent.Kind.RELEASED), 11);
    int firstBatch = seen.total();
    // One event later every failure of the first batch was counted: one delivery at a time.
    cycles(limiter, 1);
    seen.await(kind(LimiterEvent.Kind.RELEASED), 12);
    assertThat(throwing.failures()).isBetween((long) firstBatch, (long) seen.total());
    assertThat(throwing.droppedEvents()).isZero();
  }

  @Test
  void aClosedSubscriptionReceivesNothingMore() throws Exception {
    Limiter limiter = limiter();
    Recorder a = new Recorder();
    Recorder b = new Recorder();
    LimiterListener.Subscription subA = limiter.listen(a);
    open.add(limiter.listen(b));
    cycles(limiter, 5);
    a.await(kind(LimiterEvent.Kind.RELEASED), 5);
    int before = a.total();
    subA.close();
    subA.close();
    cycles(limiter, 5);
    b.await(kind(LimiterEvent.Kind.RELEASED), 10);
    assertThat(a.total()).isEqualTo(before);
  }

  @Test
  void listenRefusesABadCapacity() {
    Limiter limiter = limiter();
    assertThatThrownBy(() -> limiter.listen(e -> {}, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("queueCapacity")
        .hasMessageContaining("was 0");
  }

  @Test
  void anExecutionReportsItsAttemptsAndItsRetry() throws Exception {
    Limiter limiter = limiter();
    Recorder events = new Recorder();
    open.add(limiter.listen(events));
    AtomicInteger runs = new AtomicInteger();
    ExecuteOptions options =
        ExecuteOptions.builder()
            .replaySafe(true)
            .retry(
                RetryPolicy.builder()
                    .maxAttempts(3)
                    .delays(Duration.ofMillis(1), Duration.ofMillis(1))
                    .jitter(0)
                    .build())
            .classifier(
                (result, failure) ->
                    failure != null ? AttemptOutcome.serviceFailure() : AttemptOutcome.success())
            .build();
    String result =
        limiter
            .execute(
                ctx -> {
                  if (runs.incrementAndGet() == 1) {
                    throw new IllegalStateException("first attempt fails");
                  }
                  return "second";
                },
                options)
            .get(SAFETY.toSeconds(), TimeUnit.SECONDS);
    assertThat(result).isEqualTo("second");
    events.await(kind(LimiterEvent.Kind.ATTEMPT_ENDED), 2);
    List<LimiterEvent> lifecycle =
        events.all().stream().filter(e -> !e.kind().isRequestStep()).toList();
    assertThat(lifecycle)
        .extracting(LimiterEvent::kind)
        .containsExactly(
            LimiterEvent.Kind.ATTEMPT_STARTED,
            LimiterEvent.Kind.ATTEMPT_ENDED,
            LimiterEvent.Kind.RETRY_SCHEDULED,
            LimiterEvent.Kind.ATTEMPT_STARTED,
            LimiterEvent.Kind.ATTEMPT_ENDED);
    LimiterEvent.AttemptEnded first = (LimiterEvent.AttemptEnded) lifecycle.get(1);
    assertThat(first.attempt()).isEqualTo(1);
    assertThat(first.threw()).isTrue();
    assertThat(first.outcome()).isInstanceOf(AttemptOutcome.ServiceFailure.class);
    LimiterEvent.RetryScheduled retry = (LimiterEvent.RetryScheduled) lifecycle.get(2);
    assertThat(retry.nextAttempt()).isEqualTo(2);
    assertThat(retry.delay()).isEqualTo(Duration.ofMillis(1));
    assertThat(retry.operationId()).isEqualTo(first.operationId());
    LimiterEvent.AttemptEnded second = (LimiterEvent.AttemptEnded) lifecycle.get(4);
    assertThat(second.outcome()).isEqualTo(AttemptOutcome.success());
    assertThat(second.threw()).isFalse();
  }

  @Test
  void aBlockingCallReportsItsRetryToo() throws Exception {
    Limiter limiter = limiter();
    Recorder events = new Recorder();
    open.add(limiter.listen(events));
    AtomicInteger runs = new AtomicInteger();
    ExecuteOptions options =
        ExecuteOptions.builder()
            .replaySafe(true)
            .retry(
                RetryPolicy.builder()
                    .maxAttempts(2)
                    .delays(Duration.ofMillis(1), Duration.ofMillis(1))
                    .jitter(0)
                    .build())
            .classifier(
                (result, failure) ->
                    runs.get() == 1 ? AttemptOutcome.serviceFailure() : AttemptOutcome.success())
            .build();
    Integer last = limiter.call(ctx -> runs.incrementAndGet(), options);
    assertThat(last).isEqualTo(2);
    events.await(kind(LimiterEvent.Kind.ATTEMPT_ENDED), 2);
    assertThat(events.count(kind(LimiterEvent.Kind.ATTEMPT_STARTED))).isEqualTo(2);
    assertThat(events.count(kind(LimiterEvent.Kind.RETRY_SCHEDULED))).isEqualTo(1);
  }

  @Test
  void aDrainAndItsResumeAreControlChanges() throws Exception {
    Limiter limiter = limiter();
    Recorder events = new Recorder();
    open.add(limiter.listen(events));
    ControlStatus drained = limiter.maintenance().drain();
    limiter.maintenance().resume(drained.generation());
    events.await(kind(LimiterEvent.Kind.CONTROL_CHANGED), 2);
    List<LimiterEvent.ControlChanged> changes =
        events.all().stream()
            .filter(LimiterEvent.ControlChanged.class::isInstance)
            .map(LimiterEvent.ControlChanged.class::cast)
            .toList();
    assertThat(changes)
        .extracting(LimiterEvent.ControlChanged::change)
        .containsExactly(LimiterEvent.Change.DRAIN_STARTED, LimiterEvent.Change.DRAIN_RESUMED);
    assertThat(changes.get(0).status().generation()).isEqualTo(drained.generation());
    assertThat(changes.get(0).status().draining()).isTrue();
    assertThat(changes.get(1).status().draining()).isFalse();
  }
}
