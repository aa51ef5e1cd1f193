/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import dev.sluice.gate.store.GateStore;
import dev.sluice.gate.store.JobTable;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The jobs {@code sluice submit} queues, as a Java API over one {@link GateService}: a job is a
 * gate request made and held by a process of its own (its <em>runner</em>), plus a record of its
 * command, its log and, once it ended, how. The request waits in its pool's FIFO like any other;
 * the record is written in the same transaction that makes the request, and the end in the same one
 * that releases the permit, so a job and its request never disagree. A job whose runner dies is
 * settled by the next transaction of any process that can tell how it ended (see {@link
 * JobOutcome}).
 *
 * <p>Thread-safe. Every method blocks for the gate lock; {@link #submitOwned} and {@link #await}
 * also sleep until the gate changes, never in a polling loop.
 */
public final class SubmittedJobs {
  private final GateService gate;
  private final GateStore store;

  SubmittedJobs(GateService gate, GateStore store) {
    this.gate = gate;
    this.store = store;
  }

  /**
   * Checks, without changing anything, whether a job could be queued for {@code request}: its pool
   * must be usable and big enough for its weight, and its operation key must not name another live
   * request. Called before anything is started for the job.
   *
   * @return the live job the request's operation key already names with the same pool and weight
   *     (submitting it again is idempotent), or empty if a new job would be queued
   * @throws GateException {@code unknown_pool}, {@code weight_exceeds_capacity}, or {@code
   *     conflict} if the key names another request
   */
  public Optional<Job> check(AcquireRequest request) {
    Objects.requireNonNull(request, "request");
    return store.transact(
        tx -> {
          Optional<Ticket> live = liveUnder(tx, request);
          if (live.isPresent()) {
            Ticket t = live.get();
            Optional<JobTable.Row> row = tx.jobs().find(t.requestId());
            if (row.isPresent()
                && t.pool().equals(request.pool())
                && t.weight() == request.weight()) {
              return Optional.of(row.get().job());
            }
            throw conflict(request, t);
          }
          tx.machine().checkPool(request);
          return Optional.empty();
        });
  }

  /**
   * What a job's runner does: makes the job's request, owned by this process (cancelled by the next
   * transaction of any process once this one dies), records the job and creates its empty log, all
   * in one transaction; then waits up to {@code queueTimeout} for its turn and claims it, as {@link
   * GateService#acquireOwned} does.
   *
   * @param command the command and its arguments
   * @param progress told the first answer at once (the job's id is its request's), then each change
   *     while waiting
   * @return the permit, or empty on timeout (the request is then withdrawn: {@link
   *     JobOutcome#QUEUE_TIMEOUT})
   * @throws GateException if the gate refuses, or if the operation key names a live request
   * @throws java.io.UncheckedIOException if the log cannot be created; nothing is queued then
   * @throws InterruptedException if interrupted while waiting; the request is then withdrawn
   */
  public Optional<Permit> submitOwned(
      AcquireRequest request,
      List<String> command,
      Duration queueTimeout,
      Consumer<AcquireOutcome> progress)
      throws InterruptedException {
    Objects.requireNonNull(request, "request");
    List<String> argv = List.copyOf(command);
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("command must not be empty");
    }
    long deadline = GateService.deadline(queueTimeout);
    String runner = store.ownerId();
    return gate.acquireOwned(
        request,
        deadline,
        progress,
        tx -> {
          Optional<Ticket> live = liveUnder(tx, request);
          if (live.isPresent()) {
            // Another runner holds this key: two runners of one request would both run it.
            throw conflict(request, live.get());
          }
          AcquireOutcome first = GateService.claimIfOffered(tx, request, runner, true);
          if (!(first instanceof AcquireOutcome.Conflict)) {
            tx.jobs().insert(first.ticket(), argv, runner, tx.now());
          }
          return first;
        });
  }

  /**
   * Records how a job's command ended and releases its permit, in one transaction; whoever waits
   * for the job wakes. A job that already has an end keeps it.
   *
   * @param permitToken the job's permit
   * @param requestId the job
   * @param end how the command ended
   * @return the job as recorded
   * @throws GateException {@code unknown_request} if no such job is kept, or as {@link
   *     GateService#release} refuses the token
   */
  public Job finish(String permitToken, String requestId, JobEnd end) {
    Objects.requireNonNull(end, "end");
    return store.transact(
        tx -> {
          requireJob(tx, requestId);
          tx.jobs().end(requestId, end, tx.now());
          tx.permits().release(permitToken, end.reason(), tx.now());
          return requireJob(tx, requestId).job();
        });
  }

  /** The job {@code requestId} names, if it is kept (it waits, runs, or ended within retention). */
  public Optional<Job> job(String requestId) {
    return store.transact(tx -> tx.jobs().find(requestId).map(JobTable.Row::job));
  }

  /** Every job kept, oldest first. */
  public List<Job> list() {
    return store.transact(tx -> tx.jobs().all());
  }

  /**
   * Waits up to {@code wait} until the job has ended, then answers it as it is (ended, or as it
   * stood when the wait ran out). Wakes when its runner records the end, when the runner dies, and
   * when the gate learns that the job's process group ended.
   *
   * @throws GateException {@code unknown_request} if no such job is kept
   * @throws InterruptedException if interrupted while waiting
   */
  public Job await(String requestId, Duration wait) throws InterruptedException {
    Objects.requireNonNull(wait, "wait");
    return gate.awaitUntil(
        tx -> {
          JobTable.Row row = requireJob(tx, requestId);
          if (row.job().end() == null) {
            // Its runner's death may settle the job even after its request ended.
            store.watchOwners(Set.of(row.runner()));
          }
          return row.job();
        },
        job -> job.end() != null,
        wait);
  }

  private static JobTable.Row requireJob(GateStore.Tx tx, String requestId)
      throws java.sql.SQLException {
    Objects.requireNonNull(requestId, "requestId");
    Optional<JobTable.Row> row = tx.jobs().find(requestId);
    if (row.isPresent()) {
      return row.get();
    }
    boolean request = tx.views().ticket(requestId).isPresent();
    throw new GateException(
        GateException.Code.UNKNOWN_REQUEST,
        request
            ? "request "
                + requestId
                + " is not a submitted job (only sluice submit keeps a job's log and status)"
            : "no job '"
                + requestId
                + "' is known (never submitted, or ended over "
                + words(tx.state().settings().jobLogRetention())
                + " ago)");
  }

  private static String words(Duration d) {
    return d.toHours() % 24 == 0 && d.toDays() > 0 ? d.toDays() + " days" : d.toString();
  }

  private static Optional<Ticket> liveUnder(GateStore.Tx tx, AcquireRequest request) {
    return tx.views().live(request.agentId()).stream()
        .filter(t -> t.opKey().equals(request.opKey()))
        .findFirst();
  }

  private static GateException conflict(AcquireRequest request, Ticket t) {
    return new GateException(
        GateException.Code.CONFLICT,
        "operation key '"
            + request.opKey()
            + "' of agent '"
            + request.agentId()
            + "' already names request "
            + t.requestId()
            + " (pool "
            + t.pool()
            + ", weight "
            + t.weight()
            + ", "
            + t.state().name().toLowerCase(java.util.Locale.ROOT)
            + "); submit with another --op");
  }
}
