/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ExecutionContext;
import dev.sluice.ExecutionTask;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A managed execution's task for tests: each attempt is recorded (its context and the manual time
 * it started at) and announced to the test, then does what the script says for its number — fail,
 * answer, or wait for the test to let it go.
 *
 * <p>Thread-safe.
 */
public final class AttemptScript implements ExecutionTask<String> {
  /** What one attempt does. */
  @FunctionalInterface
  public interface Step {
    /**
     * Runs one attempt.
     *
     * @param context the attempt's context
     * @return the attempt's result
     * @throws Exception the attempt's failure
     */
    String run(ExecutionContext context) throws Exception;
  }

  /** A failure thrown by scripted attempts, with the attempt's number in its message. */
  public static final class ServiceDown extends Exception {
    private static final long serialVersionUID = 1L;

    /**
     * Creates it.
     *
     * @param attempt the attempt that failed
     */
    public ServiceDown(int attempt) {
      super("service down on attempt " + attempt);
    }
  }

  private final ManualClock clock;
  private final Step step;
  private final BlockingQueue<ExecutionContext> started = new LinkedBlockingQueue<>();
  private final List<ExecutionContext> contexts = new ArrayList<>();
  private final List<Long> startNanos = new ArrayList<>();
  private final CountDownLatch release = new CountDownLatch(1);

  /**
   * A script.
   *
   * @param clock the test's clock, read when each attempt starts
   * @param step what each attempt does; null to wait for {@link #release()}
   */
  public AttemptScript(ManualClock clock, Step step) {
    this.clock = clock;
    this.step = step;
  }

  /** A script whose every attempt fails with {@link ServiceDown}. */
  public static AttemptScript failing(ManualClock clock) {
    return new AttemptScript(
        clock,
        ctx -> {
          throw new ServiceDown(ctx.attempt());
        });
  }

  /** A script whose every attempt waits until {@link #release()} is called, then answers "late". */
  public static AttemptScript waiting(ManualClock clock) {
    return new AttemptScript(clock, null);
  }

  @Override
  public String run(ExecutionContext context) throws Exception {
    synchronized (this) {
      contexts.add(context);
      startNanos.add(clock.monotonicNanos());
    }
    started.add(context);
    if (step == null) {
      assertThat(release.await(ConformanceCase.SAFETY.toMillis(), TimeUnit.MILLISECONDS))
          .as("the test released the attempt")
          .isTrue();
      return "late";
    }
    return step.run(context);
  }

  /** Lets the attempts that wait (those of {@link #waiting(ManualClock)}) go on. */
  public void release() {
    release.countDown();
  }

  /** Waits for the next attempt to start and returns its context. */
  public ExecutionContext awaitStart() throws InterruptedException {
    ExecutionContext c = started.poll(ConformanceCase.SAFETY.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(c).as("an attempt started within the safety timeout").isNotNull();
    return c;
  }

  /** The contexts of the attempts that started, in order. */
  public synchronized List<ExecutionContext> contexts() {
    return new ArrayList<>(contexts);
  }

  /** How many attempts started. */
  public synchronized int attempts() {
    return contexts.size();
  }

  /** The gaps between consecutive attempts' starts, in manual time. */
  public synchronized List<Duration> gaps() {
    List<Duration> out = new ArrayList<>();
    for (int i = 1; i < startNanos.size(); i++) {
      out.add(Duration.ofNanos(startNanos.get(i) - startNanos.get(i - 1)));
    }
    return out;
  }
}
