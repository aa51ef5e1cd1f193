/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Submitted jobs on a real SQLite home: their record and log made with their request, their end
 * recorded with their release, settled when their request ends otherwise, waited for, and removed
 * after the retention.
 */
class SubmittedJobsTest {
  private static final Duration SAFETY = Duration.ofSeconds(30);
  private static final List<String> COMMAND = List.of("make", "-j4", "it's");

  @TempDir Path tmp;

  private static AcquireRequest request(String agent, String op) {
    return new AcquireRequest(agent, op, "p", 1, "label " + op, "");
  }

  private GateService open(Clock clock) {
    GateService gate = GateService.open(tmp.resolve("home"), GateSettings.builder().build(), clock);
    gate.setCapacity("p", 1, "test", "");
    return gate;
  }

  private static String hold(GateService gate) {
    return ((AcquireOutcome.Granted) gate.acquire(request("holder", "x"))).permitToken();
  }

  private static CompletableFuture<Optional<Permit>> submitLater(
      SubmittedJobs jobs, String op, Duration queueTimeout) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return jobs.submitOwned(request("me", op), COMMAND, queueTimeout, o -> {});
          } catch (InterruptedException e) {
            throw new IllegalStateException(e);
          }
        });
  }

  @Test
  void aJobIsQueuedWithItsRecordAndLogAndEndsWithItsRelease() throws Exception {
    try (GateService gate = open(Clock.systemUTC())) {
      String holder = hold(gate);
      SubmittedJobs jobs = gate.submittedJobs();
      CompletableFuture<Optional<Permit>> run = submitLater(jobs, "job", Duration.ofMinutes(1));
      String id = awaitEvent(gate, "queued").requestId();

      Job queued = jobs.job(id).orElseThrow();
      assertThat(queued.command()).isEqualTo(COMMAND);
      assertThat(queued.label()).isEqualTo("label job");
      assertThat(queued.log()).isEqualTo(gate.home().resolve("logs").resolve(id + ".log"));
      assertThat(queued.log()).isEmptyFile();
      assertThat(queued.startedAt()).isNull();
      assertThat(queued.end()).isNull();
      assertThat(gate.ticket(id).orElseThrow().position()).isEqualTo(1);

      gate.release(holder, "done");
      Permit permit = run.get(SAFETY.toSeconds(), TimeUnit.SECONDS).orElseThrow();
      Job ended = jobs.finish(permit.permitToken(), id, JobEnd.exited(3));
      assertThat(ended.end().outcome()).isEqualTo(JobOutcome.EXITED);
      assertThat(ended.end().exitStatus()).hasValue(3);
      assertThat(ended.endedAt()).isNotNull();
      Ticket released = gate.ticket(id).orElseThrow();
      assertThat(released.state()).isEqualTo(TicketState.RELEASED);
      assertThat(released.endReason()).isEqualTo("exited 3");
      assertThat(jobs.list()).extracting(Job::requestId).containsExactly(id);
    }
  }

  @Test
  void aWaiterInAnotherServiceWakesWhenTheEndIsRecorded() throws Exception {
    try (GateService runner = open(Clock.systemUTC());
        GateService waiter = GateService.open(tmp.resolve("home"))) {
      Permit permit =
          runner
              .submittedJobs()
              .submitOwned(request("me", "job"), COMMAND, Duration.ZERO, o -> {})
              .orElseThrow();
      String id = permit.ticket().requestId();
      CompletableFuture<Job> waiting =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return waiter.submittedJobs().await(id, SAFETY.multipliedBy(4));
                } catch (InterruptedException e) {
                  throw new IllegalStateException(e);
                }
              });
      awaitEvent(waiter, "granted");
      assertThat(waiting).isNotDone();
      runner.submittedJobs().finish(permit.permitToken(), id, JobEnd.exited(0));
      Job ended = waiting.get(SAFETY.toSeconds(), TimeUnit.SECONDS);
      assertThat(ended.end().exitStatus()).hasValue(0);
    }
  }

  @Test
  void aJobThatTimedOutOrWasCancelledIsSettledWithoutAnExitStatus() throws Exception {
    try (GateService gate = open(Clock.systemUTC())) {
      hold(gate);
      SubmittedJobs jobs = gate.submittedJobs();
      assertThat(jobs.submitOwned(request("me", "late"), COMMAND, Duration.ZERO, o -> {}))
          .isEmpty();
      Job late = jobs.list().get(0);
      assertThat(late.end().outcome()).isEqualTo(JobOutcome.QUEUE_TIMEOUT);
      assertThat(late.end().exitStatus()).isEmpty();

      // Read before the submission: its queued event may come before this thread looks.
      long seen = gate.lastEventSequence();
      CompletableFuture<Optional<Permit>> run = submitLater(jobs, "job", Duration.ofMinutes(1));
      String id = awaitEvent(gate, "queued", seen).requestId();
      gate.cancel("me", id);
      assertThatThrownBy(() -> run.get(SAFETY.toSeconds(), TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOf(GateException.class)
          .hasMessageContaining("cancelled by me");
      JobEnd cancelled = jobs.await(id, Duration.ZERO).end();
      assertThat(cancelled.outcome()).isEqualTo(JobOutcome.CANCELLED);
      assertThat(cancelled.reason()).startsWith("cancelled by me");
    }
  }

  @Test
  void theCheckRefusesWhatTheRequestWouldAndChangesNothing() throws Exception {
    try (GateService gate = open(Clock.systemUTC())) {
      SubmittedJobs jobs = gate.submittedJobs();
      AcquireRequest unknown = new AcquireRequest("me", "a", "nope", 1, "", "");
      assertThatThrownBy(() -> jobs.check(unknown))
          .isInstanceOfSatisfying(
              GateException.class,
              e -> assertThat(e.code()).isEqualTo(GateException.Code.UNKNOWN_POOL));
      AcquireRequest heavy = new AcquireRequest("me", "b", "p", 2, "", "");
      assertThatThrownBy(() -> jobs.check(heavy))
          .isInstanceOfSatisfying(
              GateException.class,
              e -> assertThat(e.code()).isEqualTo(GateException.Code.WEIGHT_EXCEEDS_CAPACITY));
      assertThat(jobs.check(request("me", "c"))).isEmpty();
      assertThat(gate.events(0, 100)).extracting(GateEvent::type).containsOnly("capacity_changed");
      assertThat(jobs.list()).isEmpty();
      assertThat(gate.home().resolve("logs")).doesNotExist();

      Permit permit =
          jobs.submitOwned(request("me", "c"), COMMAND, Duration.ZERO, o -> {}).orElseThrow();
      assertThat(jobs.check(request("me", "c")))
          .map(Job::requestId)
          .hasValue(permit.ticket().requestId());
      gate.acquire(request("me", "d"));
      assertThatThrownBy(() -> jobs.check(request("me", "d")))
          .isInstanceOfSatisfying(
              GateException.class,
              e -> assertThat(e.code()).isEqualTo(GateException.Code.CONFLICT));
      assertThatThrownBy(
              () -> jobs.submitOwned(request("me", "c"), COMMAND, Duration.ZERO, o -> {}))
          .isInstanceOf(GateException.class)
          .hasMessageContaining("already names request " + permit.ticket().requestId());
    }
  }

  @Test
  void anEndedJobAndItsLogGoAfterTheRetentionAndARunningOneStays() throws Exception {
    Instant t0 = Instant.parse("2026-03-01T00:00:00Z");
    Duration retention = GateSettings.defaults().jobLogRetention();
    try (GateService gate = open(Clock.fixed(t0, ZoneOffset.UTC))) {
      SubmittedJobs jobs = gate.submittedJobs();
      Permit first =
          jobs.submitOwned(request("me", "done"), COMMAND, Duration.ZERO, o -> {}).orElseThrow();
      Job done = jobs.finish(first.permitToken(), first.ticket().requestId(), JobEnd.exited(0));
      Permit second =
          jobs.submitOwned(request("me", "runs"), COMMAND, Duration.ZERO, o -> {}).orElseThrow();
      // Tracked like a real job: this JVM's group, launched by this (living) service.
      gate.start(
          second.permitToken(), ProcessRef.lookup(ProcessHandle.current().pid()).orElseThrow());
      Job runs = jobs.job(second.ticket().requestId()).orElseThrow();
      assertThat(runs.startedAt()).isEqualTo(t0);

      assertThat(at(t0.plus(retention).minusMillis(1), done.requestId())).isPresent();
      assertThat(done.log()).exists();
      assertThat(at(t0.plus(retention), done.requestId())).isEmpty();
      assertThat(done.log()).doesNotExist();
      assertThat(at(t0.plus(retention.multipliedBy(5)), runs.requestId())).isPresent();
      assertThat(runs.log()).exists();
    }
  }

  /** The job as a service whose clock shows {@code now} finds it after its first transaction. */
  private Optional<Job> at(Instant now, String id) {
    try (GateService later =
        GateService.open(
            tmp.resolve("home"), GateSettings.defaults(), Clock.fixed(now, ZoneOffset.UTC))) {
      return later.submittedJobs().job(id);
    }
  }

  private static GateEvent awaitEvent(GateService gate, String type) throws InterruptedException {
    return awaitEvent(gate, type, 0);
  }

  private static GateEvent awaitEvent(GateService gate, String type, long since)
      throws InterruptedException {
    long deadline = System.nanoTime() + SAFETY.toNanos();
    while (System.nanoTime() < deadline) {
      for (GateEvent e : gate.awaitEvents(since, 100, SAFETY)) {
        if (e.type().equals(type)) {
          return e;
        }
        since = e.sequence();
      }
    }
    throw new AssertionError("no '" + type + "' event within " + SAFETY);
  }
}
