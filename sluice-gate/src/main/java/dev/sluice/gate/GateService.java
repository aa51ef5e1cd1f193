/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import dev.sluice.gate.internal.GateSweeper;
import dev.sluice.gate.internal.JobSettle;
import dev.sluice.gate.internal.Jobs;
import dev.sluice.gate.store.Diagnoser;
import dev.sluice.gate.store.GateStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The job gate of one home directory: every operation of the {@code sluice} command, as a Java API.
 * Each call is one transaction under the home's gate lock, shared with every other process that
 * opens the same home; there is no daemon. Time-driven changes (offers lapsing, start deadlines,
 * untracked leases, pruning) are applied at the start of every transaction, and a waiting call arms
 * a timer for the next of them.
 *
 * <p>Thread-safe. Every method blocks for the gate lock (held for one short transaction); the
 * {@code wait} forms also sleep until the pool's pulse, an owner's death, the next deadline or the
 * wait's end, never in a polling loop.
 */
public final class GateService implements AutoCloseable {
  /** The first re-check of a process group whose launcher is gone; doubled up to the maximum. */
  private static final long RECHECK_FIRST_MILLIS = 1_000;

  private static final long RECHECK_MAX_MILLIS = 30_000;

  /** Why a {@code sluice run} that gave up waiting withdrew its request. */
  private static final String QUEUE_TIMEOUT = JobSettle.QUEUE_TIMEOUT;

  private final GateStore store;

  private GateService(GateStore store) {
    this.store = store;
  }

  /**
   * Opens (creating if needed) the gate stored in {@code home} with the default settings, over
   * which the home's configuration file ({@code config.properties}) sets its keys. The first call
   * that reads the gate fails with {@link ConfigFileException} while that file has a line the gate
   * cannot use ({@link GateConfiguration} shows and fixes it).
   *
   * @throws dev.sluice.StoreFormatException if {@code home} holds something else or is corrupt
   */
  public static GateService open(Path home) {
    return open(home, GateSettings.defaults());
  }

  /**
   * Opens the gate in {@code home}; {@code settings} apply if this call creates it, else the stored
   * settings do; either way the home's configuration file sets its keys over them.
   *
   * @throws dev.sluice.StoreFormatException if {@code home} holds something else or is corrupt
   */
  public static GateService open(Path home, GateSettings settings) {
    return open(home, settings, Clock.systemUTC());
  }

  /**
   * Opens the gate in {@code home} on {@code clock}, which every deadline, time-driven change and
   * retention of this service follows (tests move it instead of waiting); see {@link #open(Path,
   * GateSettings)}.
   *
   * @throws dev.sluice.StoreFormatException if {@code home} holds something else or is corrupt
   */
  public static GateService open(Path home, GateSettings settings, Clock clock) {
    Objects.requireNonNull(home, "home");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(clock, "clock");
    return new GateService(GateStore.open(home, settings, clock));
  }

  /** The jobs queued by {@code sluice submit}: their records, logs and ends. */
  public SubmittedJobs submittedJobs() {
    return new SubmittedJobs(this, store);
  }

  /** The settings in force: the home's own with its configuration file's values over them. */
  public GateSettings settings() {
    return store.transact(tx -> tx.state().settings());
  }

  /**
   * The pool a request without one uses: {@code default.pool} of the home's configuration, else
   * {@value AcquireRequest#DEFAULT_POOL}. That it is set up is checked when a request uses it.
   */
  public String defaultPool() {
    return store.transact(tx -> tx.state().defaultPool());
  }

  /** The home directory's real path. */
  public Path home() {
    return store.home();
  }

  /** Asks for capacity; see {@link AcquireOutcome}. Idempotent per agent and operation key. */
  public AcquireOutcome acquire(AcquireRequest request) {
    Objects.requireNonNull(request, "request");
    return store.transact(tx -> tx.machine().acquire(request, tx.now()));
  }

  /**
   * Asks for capacity and waits up to {@code wait} for it: an offer that arrives is claimed and
   * answered as {@link AcquireOutcome.Granted}. On timeout the request stays as it is (queued).
   *
   * @throws InterruptedException if interrupted while waiting; the request stays queued
   */
  public AcquireOutcome acquire(AcquireRequest request, Duration wait) throws InterruptedException {
    Objects.requireNonNull(request, "request");
    long deadline = deadline(wait);
    AcquireOutcome first = store.transact(tx -> claimIfOffered(tx, request, "", false));
    return waitFor(first, request, "", deadline, o -> {});
  }

  /**
   * What {@code sluice run} does before it spawns: acquires for a request owned by this process
   * (cancelled by the next transaction of any process once this one dies), waits up to {@code
   * queueTimeout} and claims the offer. An offer that lapsed meanwhile (the process was stopped) is
   * rejoined at the tail.
   *
   * @param progress told each state while waiting (queued with position, offered, granted)
   * @return the permit, or empty on timeout (the request is then cancelled)
   * @throws GateException if the gate refuses, or the agent's key names another request
   * @throws InterruptedException if interrupted while waiting; the request is then cancelled
   */
  public Optional<Permit> acquireOwned(
      AcquireRequest request, Duration queueTimeout, Consumer<AcquireOutcome> progress)
      throws InterruptedException {
    Objects.requireNonNull(request, "request");
    long deadline = deadline(queueTimeout);
    String owner = store.ownerId();
    return acquireOwned(
        request, deadline, progress, tx -> claimIfOffered(tx, request, owner, true));
  }

  /**
   * {@link #acquireOwned(AcquireRequest, Duration, Consumer)} with its first look given: {@link
   * SubmittedJobs} records the job in the same transaction that makes its request.
   */
  Optional<Permit> acquireOwned(
      AcquireRequest request,
      long deadline,
      Consumer<AcquireOutcome> progress,
      GateStore.Operation<AcquireOutcome> firstLook)
      throws InterruptedException {
    String owner = store.ownerId();
    AcquireOutcome first = store.transact(firstLook);
    if (first instanceof AcquireOutcome.Conflict c) {
      throw new GateException(GateException.Code.CONFLICT, c.detail());
    }
    AcquireOutcome last = null;
    try {
      progress.accept(first);
      last = waitFor(first, request, owner, deadline, progress);
    } finally {
      if (!(last instanceof AcquireOutcome.Granted)) {
        // Returned without a grant: the queue timeout; thrown: interrupted, or refused meanwhile.
        withdraw(request, last == null ? "withdrawn" : QUEUE_TIMEOUT);
      }
    }
    if (last instanceof AcquireOutcome.Granted g) {
      return Optional.of(new Permit(g.ticket(), g.permitToken()));
    }
    return Optional.empty();
  }

  private void withdraw(AcquireRequest request, String why) {
    try {
      store.transact(
          tx -> {
            for (Ticket t : tx.views().live(request.agentId())) {
              if (t.opKey().equals(request.opKey())) {
                tx.machine().withdraw(request.agentId(), t.requestId(), why, tx.now());
              }
            }
            return null;
          });
    } catch (RuntimeException e) {
      // Best effort: the request is tied to this process and ends with it anyway.
    }
  }

  /** One look: the request's state, with an arrived offer claimed (and a lapsed one rejoined). */
  static AcquireOutcome claimIfOffered(
      GateStore.Tx tx, AcquireRequest r, String owner, boolean rejoinPaused) {
    AcquireOutcome o = tx.machine().acquire(r, owner, tx.now());
    if (o instanceof AcquireOutcome.Paused p && rejoinPaused) {
      o = tx.machine().rejoin(r.agentId(), p.ticket().requestId(), tx.now());
    }
    if (o instanceof AcquireOutcome.Offered offered) {
      Permit permit = tx.machine().claim(offered.offerToken(), tx.now());
      return new AcquireOutcome.Granted(permit.ticket(), permit.permitToken());
    }
    return o;
  }

  private AcquireOutcome waitFor(
      AcquireOutcome first,
      AcquireRequest r,
      String owner,
      long deadline,
      Consumer<AcquireOutcome> progress)
      throws InterruptedException {
    AcquireOutcome last = first;
    Waiter waiter = new Waiter();
    while (last instanceof AcquireOutcome.Queued q) {
      long seen = store.changes().count();
      Look<AcquireOutcome> look =
          store.transact(tx -> look(tx, claimIfOffered(tx, r, owner, !owner.isEmpty())));
      if (!sameTicket(last, look.value)) {
        progress.accept(look.value);
      }
      last = look.value;
      if (!(last instanceof AcquireOutcome.Queued)) {
        break;
      }
      if (!waiter.sleep(look, seen, deadline)) {
        break;
      }
    }
    return last;
  }

  private static boolean sameTicket(AcquireOutcome a, AcquireOutcome b) {
    return a.getClass() == b.getClass()
        && a.ticket().position() == b.ticket().position()
        && a.ticket().state() == b.ticket().state();
  }

  /** Claims an offer. */
  public Permit claim(String offerToken) {
    return store.transact(tx -> tx.machine().claim(offerToken, tx.now()));
  }

  /** Declines an offer; the request is paused until rejoined. */
  public Ticket decline(String offerToken) {
    return store.transact(tx -> tx.machine().decline(offerToken, tx.now()));
  }

  /** Puts a paused request back at the tail of its queue. */
  public AcquireOutcome rejoin(String agentId, String requestId) {
    return store.transact(tx -> tx.machine().rejoin(agentId, requestId, tx.now()));
  }

  /**
   * Withdraws a queued, offered or paused request, recorded as cancelled by {@code agentId} from
   * this process. Whoever waits on it (a {@code sluice run}, an {@code acquire --wait}) stops with
   * {@link GateException.Code#CANCELLED}, and so does asking again under its operation key.
   */
  public Ticket cancel(String agentId, String requestId) {
    return cancel(agentId, JobRef.id(requestId));
  }

  /**
   * Like {@link #cancel(String, String)} for the job {@code job} names (by id, or by a label that
   * names exactly one live job). A running job is refused ({@code wrong_state}): see {@link #kill}.
   *
   * @throws GateException {@code unknown_request}, {@code unknown_label}, {@code ambiguous_label},
   *     {@code not_owner} or {@code wrong_state}
   */
  public Ticket cancel(String agentId, JobRef job) {
    Objects.requireNonNull(job, "job");
    String by = byThisProcess(agentId);
    return store.transact(tx -> jobs(tx).cancel(agentId, job, by, tx.now()));
  }

  /**
   * Starts the kill of the job {@code job} names, as {@code agentId} from this process: a waiting
   * job is cancelled at once; for a running one a {@code killed} event (naming who, {@code signal}
   * and the group) is recorded and its process group returned, for the caller to signal and then
   * {@link #awaitEnd} (the job's own launcher releases the slot when the command ends).
   *
   * @param signal the signal the caller sends first, as the event names it ({@code SIGTERM})
   * @throws GateException {@code unknown_request}, {@code unknown_label}, {@code ambiguous_label},
   *     {@code not_owner}, or {@code wrong_state} for an ended job or one with no process group
   *     this process can signal
   */
  public KillPlan kill(String agentId, JobRef job, String signal) {
    Objects.requireNonNull(job, "job");
    AcquireRequest.text("signal", signal, 1, 16);
    String by = byThisProcess(agentId);
    return store.transact(tx -> jobs(tx).kill(agentId, job, by, signal, tx.now()));
  }

  /**
   * The job {@code job} names: by id, live or ended within the retention; by label, the one live
   * job with it.
   *
   * @throws GateException {@code unknown_request}, {@code unknown_label} or {@code ambiguous_label}
   */
  public Ticket job(JobRef job) {
    Objects.requireNonNull(job, "job");
    return store.transact(tx -> jobs(tx).find(job));
  }

  private static Jobs jobs(GateStore.Tx tx) {
    return new Jobs(tx.state(), tx.machine());
  }

  private static String byThisProcess(String agentId) {
    AcquireRequest.text("agentId", agentId, 1, 128);
    return agentId + " (pid " + ProcessHandle.current().pid() + ")";
  }

  /**
   * Binds a permit to a running process group; the permit then lives until every process of the
   * group has exited. This process is recorded as the launcher: while it lives it reports the end
   * itself; once it is gone, waiters check the group.
   */
  public Ticket start(String permitToken, ProcessRef process) {
    Objects.requireNonNull(process, "process");
    String launcher = store.ownerId();
    return store.transact(tx -> tx.permits().start(permitToken, process, launcher, tx.now()));
  }

  /** Starts a permit without a process: it lives while its agent sends heartbeats. */
  public Ticket markStarted(String permitToken) {
    return store.transact(tx -> tx.permits().markStarted(permitToken, tx.now()));
  }

  /** Extends every untracked lease of the agent; returns how many. */
  public int heartbeat(String agentId) {
    AcquireRequest.text("agentId", agentId, 1, 128);
    return store.transact(tx -> tx.permits().heartbeat(agentId, tx.now()));
  }

  /**
   * Extends the agent's untracked leases and tells which permits were lost: those {@code
   * permitTokens} name, or without tokens the agent's newest permit when nothing was extended.
   */
  public HeartbeatOutcome heartbeat(String agentId, List<String> permitTokens) {
    Objects.requireNonNull(permitTokens, "permitTokens");
    if (permitTokens.isEmpty()) {
      AcquireRequest.text("agentId", agentId, 1, 128);
    }
    return store.transact(tx -> tx.permits().heartbeat(agentId, permitTokens, tx.now()));
  }

  /** Releases a permit; idempotent. */
  public ReleaseOutcome release(String permitToken, String reason) {
    return store.transact(tx -> tx.permits().release(permitToken, reason, tx.now()));
  }

  /** An operator's release of a held permit, recorded with {@code actor}. */
  public ReleaseOutcome forceRelease(String requestId, String actor) {
    return forceRelease(requestId, actor, "");
  }

  /** An operator's release of a held permit, recorded with {@code actor} and {@code reason}. */
  public ReleaseOutcome forceRelease(String requestId, String actor, String reason) {
    return forceReleaseChecked(requestId, actor, reason).release();
  }

  /**
   * An operator's release of a held permit that also says whether the permit's process group still
   * runs: the slot is freed either way, so a group that runs on over-subscribes the pool; the
   * answer and the {@code force_released} event say so. Stopping the group is the caller's choice
   * (see {@link #awaitEnd}).
   */
  public ForceReleaseOutcome forceReleaseChecked(String requestId, String actor, String reason) {
    AcquireRequest.text("actor", actor, 1, 128);
    AcquireRequest.text("reason", reason, 0, 500);
    return store.transact(
        tx -> {
          ProcessRef running =
              tx.views()
                  .ticket(requestId)
                  .filter(t -> t.state() == TicketState.HELD)
                  .flatMap(Ticket::trackedProcess)
                  .filter(ProcessRef::groupMayRun)
                  .orElse(null);
          String note =
              running == null
                  ? ""
                  : "process group "
                      + running.pgid()
                      + " still running: the pool is over-subscribed";
          return new ForceReleaseOutcome(
              tx.permits().forceRelease(requestId, actor, reason, note, tx.now()), running);
        });
  }

  /**
   * Records in the event feed that {@code actor} signalled the request's process group ({@code
   * detail} says which signal to which group); changes nothing else.
   */
  public void signalled(String requestId, String actor, String detail) {
    AcquireRequest.text("actor", actor, 1, 128);
    store.transact(
        tx -> {
          tx.permits().signalled(requestId, actor, detail, tx.now());
          return null;
        });
  }

  /**
   * Waits up to {@code wait} until a request is no longer live (its permit released, for example
   * because its process group ended), then answers it as it is.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  public Optional<Ticket> awaitEnd(String requestId, Duration wait) throws InterruptedException {
    long deadline = deadline(wait);
    Waiter waiter = new Waiter();
    while (true) {
      long seen = store.changes().count();
      Look<Optional<Ticket>> look = store.transact(tx -> look(tx, tx.views().ticket(requestId)));
      boolean live = look.value.map(t -> t.state().isLive()).orElse(false);
      if (!live || !waiter.sleep(look, seen, deadline)) {
        return look.value;
      }
    }
  }

  /**
   * Reads {@code read} until {@code done} accepts what it read or {@code wait} has passed, sleeping
   * between reads as every wait of the gate does; answers the last value read.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  <T> T awaitUntil(GateStore.Operation<T> read, Predicate<T> done, Duration wait)
      throws InterruptedException {
    long deadline = deadline(wait);
    Waiter waiter = new Waiter();
    while (true) {
      long seen = store.changes().count();
      Look<T> look = store.transact(tx -> look(tx, read.apply(tx)));
      if (done.test(look.value) || !waiter.sleep(look, seen, deadline)) {
        return look.value;
      }
    }
  }

  /** An agent's offers (with fresh tokens), queue entries, paused entries and held permits. */
  public Pending pending(String agentId) {
    return store.transact(tx -> tx.views().pending(agentId));
  }

  /**
   * Like {@link #pending(String)}, but first waits up to {@code wait} until the agent's requests
   * differ (a new state, a new position, one more or one less) from when the call began.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  public Pending pending(String agentId, Duration wait) throws InterruptedException {
    long deadline = deadline(wait);
    List<Ticket> before = store.transact(tx -> tx.views().live(agentId));
    Waiter waiter = new Waiter();
    while (true) {
      long seen = store.changes().count();
      Look<List<Ticket>> look = store.transact(tx -> look(tx, tx.views().live(agentId)));
      if (!signature(look.value).equals(signature(before)) || !waiter.sleep(look, seen, deadline)) {
        return pending(agentId);
      }
    }
  }

  private static List<String> signature(List<Ticket> tickets) {
    return tickets.stream().map(t -> t.requestId() + t.state() + t.position() + t.phase()).toList();
  }

  /** The sequence of the newest event, or 0: where a feed that shows only new events starts. */
  public long lastEventSequence() {
    return store.transact(tx -> tx.state().lastEventSequence());
  }

  /** Events after sequence {@code since}, oldest first, at most {@code limit}. */
  public List<GateEvent> events(long since, int limit) {
    checkEventsQuery(since, limit);
    return store.events(since, limit);
  }

  /** The events of one request that are still kept, oldest first. */
  public List<GateEvent> events(String requestId) {
    Objects.requireNonNull(requestId, "requestId");
    return store.events(requestId);
  }

  /**
   * Like {@link #events}, waiting up to {@code wait} while there are none.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  public List<GateEvent> awaitEvents(long since, int limit, Duration wait)
      throws InterruptedException {
    checkEventsQuery(since, limit);
    long deadline = deadline(wait);
    Waiter waiter = new Waiter();
    while (true) {
      long seen = store.changes().count();
      Look<List<GateEvent>> look = store.transact(tx -> look(tx, store.eventsInTx(since, limit)));
      if (!look.value.isEmpty() || !waiter.sleep(look, seen, deadline)) {
        return look.value;
      }
    }
  }

  private static void checkEventsQuery(long since, int limit) {
    if (since < 0) {
      throw new IllegalArgumentException("since must not be negative, was " + since);
    }
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be positive, was " + limit);
    }
  }

  /** Every pool. */
  public List<PoolStatus> status() {
    return store.transact(tx -> tx.views().status());
  }

  /** One request, live or ended within the retention. */
  public Optional<Ticket> ticket(String requestId) {
    return store.transact(tx -> tx.views().ticket(requestId));
  }

  /**
   * The requests of these ids that are live or ended within the retention, in one transaction;
   * unknown ids are left out. What a view that names many requests at once reads (labels for an
   * event feed) instead of one transaction per id.
   */
  public List<Ticket> tickets(Collection<String> requestIds) {
    List<String> ids = List.copyOf(requestIds);
    return store.transact(
        tx -> ids.stream().map(id -> tx.views().ticket(id)).flatMap(Optional::stream).toList());
  }

  /**
   * Changes a pool's capacity (created if new); nothing is preempted. Only {@link
   * AcquireRequest#DEFAULT_POOL} is made by a request: every other pool must be set up here first.
   */
  public CapacityChange setCapacity(String pool, int capacity, String actor, String reason) {
    return store.transact(tx -> tx.machine().setCapacity(pool, capacity, actor, reason, tx.now()));
  }

  /**
   * Removes a pool that holds and waits for nothing, recorded with {@code actor}.
   *
   * @return the removed pool's capacity
   * @throws GateException {@code unknown_pool}, or {@code pool_busy} while anything is in it
   */
  public int removePool(String pool, String actor, String reason) {
    return store.transact(tx -> tx.machine().removePool(pool, actor, reason, tx.now()));
  }

  /** Every capacity change, oldest first. */
  public List<CapacityChange> history() {
    return store.transact(tx -> tx.state().history());
  }

  /** Why heads wait, long holders, dead or unverifiable holders. */
  public Diagnosis diagnose() {
    return store.transact(tx -> Diagnoser.diagnose(tx.views().status(), tx.state(), tx.now()));
  }

  /** Closes the store and retires this process's owner registration. */
  @Override
  public void close() {
    store.close();
  }

  static long deadline(Duration wait) {
    Objects.requireNonNull(wait, "wait");
    if (wait.isNegative()) {
      throw new IllegalArgumentException("wait must not be negative, was " + wait);
    }
    long now = System.nanoTime();
    long nanos = wait.compareTo(Duration.ofDays(3650)) > 0 ? Long.MAX_VALUE / 4 : wait.toNanos();
    return now + nanos;
  }

  /** A value read in a transaction, with what a waiter needs to know to sleep until it changes. */
  private record Look<T>(
      T value, long now, long nextDueMillis, Set<String> owners, boolean orphans) {}

  private static <T> Look<T> look(GateStore.Tx tx, T value) {
    long due = new GateSweeper(tx.state()).nextDeadline().orElse(Long.MAX_VALUE);
    return new Look<>(
        value, tx.now(), due, tx.state().owners(), !tx.state().orphanedGroups().isEmpty());
  }

  /**
   * Sleeps until a pulse, an owner's death, the next sweep deadline, a re-check of a launcher-less
   * process group (1 s doubling to 30 s, only while there is one) or the caller's deadline.
   */
  private final class Waiter {
    private long recheckMillis = RECHECK_FIRST_MILLIS;

    /** Returns false once the caller's deadline has passed. */
    boolean sleep(Look<?> look, long seen, long deadline) throws InterruptedException {
      if (System.nanoTime() - deadline >= 0) {
        return false;
      }
      store.watchOwners(look.owners());
      long wake = deadline;
      if (look.nextDueMillis() != Long.MAX_VALUE) {
        long inMillis = Math.max(0, look.nextDueMillis() - look.now()) + 1;
        wake = Math.min(wake, System.nanoTime() + inMillis * 1_000_000);
      }
      if (look.orphans()) {
        wake = Math.min(wake, System.nanoTime() + recheckMillis * 1_000_000);
        recheckMillis = Math.min(RECHECK_MAX_MILLIS, recheckMillis * 2);
      } else {
        recheckMillis = RECHECK_FIRST_MILLIS;
      }
      store.changes().awaitAfter(seen, wake);
      return true;
    }
  }
}
