/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.AttemptClassifier;
import dev.sluice.AttemptTimeoutException;
import dev.sluice.ControlStatus;
import dev.sluice.ExecuteOptions;
import dev.sluice.ExecutionContext;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.Maintenance;
import dev.sluice.QueueTimeoutException;
import dev.sluice.ScheduleOptions;
import dev.sluice.StaleDrainException;
import dev.sluice.spi.PoolCommand;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Operation records: the pool knows each managed execution from its first queued or admitted
 * attempt to its end, so a drain waits for one between attempts, and one whose owner died stays
 * unconfirmed until an operator acknowledges it for the running drain; a resume prunes the
 * acknowledged records, so a later drain can be clean. A plain lease whose owner dies during a
 * drain leaves an unconfirmed operation too. Time moves only on the manual clock.
 */
public abstract class OperationCases extends ConformanceCase {
  /**
   * Creates the cases.
   *
   * @param stores the store under test
   */
  protected OperationCases(StoreFactory stores) {
    super(stores);
  }

  /** An execution whose attempt waits in an owner a case may kill, beside a surviving owner. */
  private record DoomedRun(
      Limiter survivor,
      FailingStore store,
      Limiter victim,
      AttemptScript script,
      CompletableFuture<String> run,
      String id) {}

  private DoomedRun doomedRun(ExecuteOptions options) throws Exception {
    Limiter survivor = open(cap(2));
    FailingStore doomed = new FailingStore(store());
    Limiter victim = Limiter.open(doomed, cap(2));
    AttemptScript script = AttemptScript.waiting(clock);
    CompletableFuture<String> run = victim.execute(script, options);
    String id = script.awaitStart().operationId();
    return new DoomedRun(survivor, doomed, victim, script, run, id);
  }

  @Test
  void anOperationWhoseOwnerDiesIsUnconfirmedUntilAcknowledgedAndPrunedOnResume() throws Exception {
    DoomedRun r = doomedRun(ExecuteOptions.defaults());
    String id = r.id();
    Maintenance m = r.survivor().maintenance();
    assertThat(m.status().runningOperations()).isEqualTo(1);
    long generation = m.drain().generation();
    r.store().killOwners();
    ControlStatus status = m.status();
    assertThat(status.activeLeases()).as("the dead owner's lease was reclaimed").isZero();
    assertThat(status.runningOperations()).isZero();
    assertThat(status.unconfirmed())
        .extracting(ControlStatus.UnconfirmedOperation::id)
        .containsExactly(id);
    assertThat(status.unacknowledgedIds()).containsExactly(id);
    assertThat(status.settled()).isFalse();
    assertThat(m.await(generation, Duration.ofMillis(1))).isFalse();
    assertThatThrownBy(() -> m.acknowledge(generation, List.of(id, "no-such-operation"), "lost"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no-such-operation");
    assertThat(m.status().unacknowledgedIds()).as("all or none").containsExactly(id);
    ControlStatus acknowledged = m.acknowledge(generation, List.of(id), "the job is idempotent");
    assertThat(acknowledged.settled()).isTrue();
    assertThat(acknowledged.clean()).as("an acknowledgement never makes a drain clean").isFalse();
    assertThat(acknowledged.unconfirmed().get(0).reason()).isEqualTo("the job is idempotent");
    assertThat(m.await(generation, SAFETY)).isTrue();
    assertThat(m.resume(generation).unconfirmed()).as("pruned on resume").isEmpty();
    ControlStatus next = m.drain();
    assertThat(next.generation()).isEqualTo(generation + 1);
    assertThat(next.clean()).isTrue();
    r.script().release();
    r.victim().closeAsync();
  }

  @Test
  void aPlainLeaseWhoseOwnerDiesDuringADrainLeavesAnUnconfirmedOperationNamedAfterIt()
      throws Exception {
    Limiter survivor = open(cap(2));
    Maintenance m = survivor.maintenance();
    FailingStore doomed = new FailingStore(store());
    Limiter victim = Limiter.open(doomed, cap(2));
    victim.acquire(1).close();
    Lease held = victim.acquire(1);
    Lease full = survivor.acquire(1);
    CompletableFuture<String> queued = victim.schedule(() -> "never");
    settled(victim);
    long generation = m.drain().generation();
    assertThat(m.status().runningOperations()).as("plain work is recorded only if lost").isZero();

    doomed.killOwners();
    ControlStatus status = m.status();
    String id = "lease-" + held.admission().leaseId();
    assertThat(status.activeLeases()).as("only the survivor's lease is left").isEqualTo(1);
    assertThat(status.unconfirmed())
        .as("the held lease, not the released one nor the request that never started")
        .extracting(ControlStatus.UnconfirmedOperation::id)
        .containsExactly(id);
    full.close();
    assertThat(m.status().settled()).isFalse();
    assertThat(m.acknowledge(generation, List.of(id), "the job is idempotent").settled()).isTrue();
    assertThat(m.resume(generation).unconfirmed()).as("pruned on resume").isEmpty();
    assertThat(m.drain().clean()).isTrue();
    assertThat(queued).isNotCompleted();
    victim.closeAsync();
  }

  @Test
  void aPlainLeaseWhoseOwnerDiesOutsideADrainLeavesNoRecord() throws Exception {
    Limiter survivor = open(cap(2));
    FailingStore doomed = new FailingStore(store());
    Limiter victim = Limiter.open(doomed, cap(2));
    victim.acquire(1);
    doomed.killOwners();
    Maintenance m = survivor.maintenance();
    ControlStatus status = m.status();
    assertThat(status.activeLeases()).as("the dead owner's lease was reclaimed").isZero();
    assertThat(status.unconfirmed()).as("no drain ran: nobody waits for it").isEmpty();
    assertThat(m.drain().clean()).isTrue();
    victim.closeAsync();
  }

  @Test
  void anAttemptQueuedThenGrantedWhoseOwnerDiesLeavesOnlyItsOperation() throws Exception {
    Limiter survivor = open(cap(1));
    Lease full = survivor.acquire(1);
    FailingStore doomed = new FailingStore(store());
    Limiter victim = Limiter.open(doomed, cap(1));
    AttemptScript script = AttemptScript.waiting(clock);
    CompletableFuture<String> run = victim.execute(script, ExecuteOptions.defaults());
    settled(victim);
    assertThat(survivor.inspect().waiters()).as("the attempt waits at the pool").hasSize(1);
    full.close();
    String id = script.awaitStart().operationId();
    Maintenance m = survivor.maintenance();
    long generation = m.drain().generation();

    doomed.killOwners();
    assertThat(m.status().unconfirmed())
        .as("the lease granted from the queue is known as the attempt's")
        .extracting(ControlStatus.UnconfirmedOperation::id)
        .containsExactly(id);
    m.acknowledge(generation, List.of(id), "lost");
    m.resume(generation);
    script.release();
    victim.closeAsync();
  }

  @Test
  void aStaleGenerationCannotAcknowledgeAndBadInputIsRefusedFirst() throws Exception {
    Limiter limiter = open(cap(1));
    Maintenance m = limiter.maintenance();
    long first = m.drain().generation();
    m.resume(first);
    long second = m.drain().generation();
    assertThatThrownBy(() -> m.acknowledge(first, List.of("any"), "lost"))
        .isInstanceOf(StaleDrainException.class);
    assertThatThrownBy(() -> m.acknowledge(second, List.of(), "lost"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("operationIds");
    assertThatThrownBy(() -> m.acknowledge(second, List.of("any"), " "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("reason");
    assertThatThrownBy(() -> m.acknowledge(0, List.of("any"), "lost"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("generation");
    assertThat(m.status().generation()).isEqualTo(second);
    assertThat(m.status().draining()).isTrue();
  }

  @Test
  void anAttemptThatTimedOutKeepsItsOperationWhileItsTaskRunsSoItsOwnersDeathIsHeard()
      throws Exception {
    DoomedRun r = doomedRun(ExecuteOptions.builder().attemptTimeout(Duration.ofSeconds(1)).build());
    clock.advance(Duration.ofSeconds(1));
    assertThat(awaitFailure(r.run())).isInstanceOf(AttemptTimeoutException.class);
    // Asked through the owner itself, which applies its commands in order: an end of the record
    // sent when the execution failed would have been applied by now.
    ControlStatus status = r.victim().maintenance().status();
    assertThat(status.activeLeases()).as("the task still runs").isEqualTo(1);
    assertThat(status.runningOperations()).as("and so does its operation").isEqualTo(1);
    Maintenance m = r.survivor().maintenance();
    long generation = m.drain().generation();
    r.store().killOwners();
    assertThat(m.status().unacknowledgedIds()).as("its effect is unknown").containsExactly(r.id());
    assertThat(m.await(generation, Duration.ofMillis(1))).isFalse();
    r.script().release();
    r.victim().closeAsync();
  }

  @Test
  void anAttemptThatTimedOutEndsItsOperationWhenItsTaskEnds() throws Exception {
    Limiter limiter = open(cap(1));
    AttemptScript script = AttemptScript.waiting(clock);
    CompletableFuture<String> run =
        limiter.execute(
            script, ExecuteOptions.builder().attemptTimeout(Duration.ofSeconds(1)).build());
    script.awaitStart();
    clock.advance(Duration.ofSeconds(1));
    assertThat(awaitFailure(run)).isInstanceOf(AttemptTimeoutException.class);
    assertThat(limiter.maintenance().status().runningOperations()).isEqualTo(1);
    script.release();
    // Granted only by the attempt's release, which reports the operation's end with it.
    try (Lease next = limiter.acquire(1)) {
      assertThat(next.admission().weight()).isEqualTo(1);
    }
    ControlStatus after = limiter.maintenance().drain();
    assertThat(after.runningOperations()).isZero();
    assertThat(after.settled()).isTrue();
    assertThat(after.clean()).isTrue();
  }

  @Test
  void aResumedDrainCannotBeAcknowledgedSoTheNextDrainCanBeClean() throws Exception {
    DoomedRun r = doomedRun(ExecuteOptions.defaults());
    String id = r.id();
    Maintenance m = r.survivor().maintenance();
    long generation = m.drain().generation();
    r.store().killOwners();
    assertThat(m.status().unacknowledgedIds()).containsExactly(id);
    // Resumed without an acknowledgement: the record stays unconfirmed for a later drain to hear.
    m.resume(generation);
    assertThatThrownBy(() -> m.acknowledge(generation, List.of(id), "too late"))
        .isInstanceOf(StaleDrainException.class)
        .hasMessageContaining("resumed");
    ControlStatus next = m.drain();
    assertThat(next.unacknowledgedIds()).as("nothing was acknowledged").containsExactly(id);
    assertThat(next.settled()).isFalse();
    ControlStatus acknowledged = m.acknowledge(next.generation(), List.of(id), "checked by hand");
    assertThat(acknowledged.settled()).isTrue();
    m.resume(next.generation());
    assertThat(m.drain().clean()).as("pruned by the resume of the drain that heard it").isTrue();
    r.script().release();
    r.victim().closeAsync();
  }

  @Test
  void aDrainWaitsForAnOperationBetweenAttemptsWhoseRetryIsStillAdmitted() throws Exception {
    Limiter limiter = open(cap(1));
    ExecuteOptions retried = retriedOnce();
    AttemptScript script =
        new AttemptScript(
            clock,
            ctx -> {
              if (ctx.attempt() == 1) {
                throw new AttemptScript.ServiceDown(1);
              }
              return "second";
            });
    CompletableFuture<String> run = limiter.execute(script, retried);
    ExecutionContext firstAttempt = script.awaitStart();
    long now = clock.monotonicNanos();
    long due = clock.awaitTimerDue(now + 500_000_000L, now + 500_000_000L, SAFETY);
    Maintenance m = limiter.maintenance();
    ControlStatus draining = m.drain();
    assertThat(draining.activeLeases()).as("the delay holds no lease").isZero();
    assertThat(draining.runningOperations()).isEqualTo(1);
    assertThat(draining.settled()).isFalse();
    clock.advance(Duration.ofNanos(due - now));
    assertThat(await(run)).isEqualTo("second");
    assertThat(script.contexts().get(1).operationId()).isEqualTo(firstAttempt.operationId());
    ControlStatus after = m.status();
    assertThat(after.settled()).isTrue();
    assertThat(after.clean()).isTrue();
    assertThat(m.await(draining.generation(), SAFETY)).isTrue();
  }

  @Test
  void anOperationThatEndsWithoutAReportLeavesNoRecord() throws Exception {
    Limiter limiter = open(cap(1));
    Lease held = limiter.acquire(1);
    ExecuteOptions waitOneSecond =
        ExecuteOptions.builder()
            .schedule(ScheduleOptions.builder().queueTimeout(Duration.ofSeconds(1)).build())
            .build();
    CompletableFuture<String> run = limiter.execute(ctx -> "never", waitOneSecond);
    settled(limiter);
    assertThat(limiter.maintenance().status().runningOperations()).isEqualTo(1);
    clock.advance(Duration.ofSeconds(1));
    assertThat(awaitFailure(run)).isInstanceOf(QueueTimeoutException.class);
    assertThat(limiter.maintenance().status().runningOperations()).isZero();
    held.close();
    CompletableFuture<String> done = limiter.execute(ctx -> "done", ExecuteOptions.defaults());
    assertThat(await(done)).isEqualTo("done");
    ControlStatus status = limiter.maintenance().status();
    assertThat(status.runningOperations()).isZero();
    assertThat(status.unconfirmed()).isEmpty();
  }

  /** Replay-safe, exceptions are service failures, one retry 500 ms later. */
  private static ExecuteOptions retriedOnce() {
    return ExecuteOptions.builder()
        .replaySafe(true)
        .classifier(AttemptClassifier.exceptionsAreServiceFailures())
        .retry(ExecutionCases.exact(2, Duration.ofSeconds(10)))
        .build();
  }

  /** Whether a drain started now settles: no lease held, no operation left running. */
  private static boolean drainSettles(Limiter limiter) throws InterruptedException {
    Maintenance m = limiter.maintenance();
    long generation = m.drain().generation();
    boolean settled = m.await(generation, SAFETY);
    m.resume(generation);
    return settled;
  }

  @Test
  void anExecutionStoppedWhileItsRetryIsHandedToTheStoreLeavesNoRecord() throws Exception {
    FailingStore store = new FailingStore(store());
    Limiter limiter = track(Limiter.open(store, cap(1)));
    AttemptScript script = AttemptScript.failing(clock);
    CompletableFuture<String> run = limiter.execute(script, retriedOnce());
    script.awaitStart();
    long now = clock.monotonicNanos();
    long due = clock.awaitTimerDue(now + 500_000_000L, now + 500_000_000L, SAFETY);
    // The second attempt will queue: a granted one would end the record with its own report.
    Lease full = open(cap(1)).acquire(1);
    store.holdAcquires();
    clock.advance(Duration.ofNanos(due - now));
    store.awaitHeldAcquires(1, SAFETY);

    // The execution ends after it chose its second attempt and before the store took its acquire.
    assertThat(run.cancel(true)).isTrue();
    store.releaseAcquires();
    full.close();

    assertThat(drainSettles(limiter))
        .as("the record the late acquire began again was ended after it")
        .isTrue();
    ControlStatus status = limiter.maintenance().status();
    assertThat(status.runningOperations()).isZero();
    assertThat(status.activeLeases()).isZero();
  }

  @Test
  void aLastReportThatFailsTransientlyStillEndsItsOperationOnceTheStoreAnswers() throws Exception {
    FailingStore store = new FailingStore(store());
    Limiter limiter = track(Limiter.open(store, cap(1)));
    Limiter other = open(cap(1));
    AttemptScript script = AttemptScript.waiting(clock);
    CompletableFuture<String> run = limiter.execute(script, ExecuteOptions.defaults());
    script.awaitStart();
    assertThat(other.maintenance().status().runningOperations()).isEqualTo(1);
    store.failNextTransiently(1, PoolCommand.Report.class);
    script.release();
    await(run.handle((value, failure) -> value));
    assertThat(other.inspect().leases()).as("the report did not reach the store").hasSize(1);

    // Idle: the owner's retry timer sends the release and the operation's end.
    clock.advance(Duration.ofSeconds(1));
    assertThat(await(other.schedule(() -> "free"))).isEqualTo("free");
    ControlStatus status = other.maintenance().status();
    assertThat(status.runningOperations()).as("the operation's end came with the release").isZero();
    assertThat(drainSettles(other)).isTrue();
  }
}
