/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import dev.sluice.TimeSource;
import dev.sluice.spi.support.ChangeCounter;
import dev.sluice.spi.support.Log;
import dev.sluice.spi.support.Logs;
import dev.sluice.workflow.DurableStore;
import dev.sluice.workflow.Execution;
import dev.sluice.workflow.ExecutionConflictException;
import dev.sluice.workflow.RuntimeSettings;
import dev.sluice.workflow.StoreClient;
import dev.sluice.workflow.SubmitOptions;
import dev.sluice.workflow.TypeRef;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowCodec;
import dev.sluice.workflow.WorkflowCodecException;
import dev.sluice.workflow.WorkflowInspector;
import dev.sluice.workflow.WorkflowInstrumentation;
import dev.sluice.workflow.WorkflowRuntime;
import dev.sluice.workflow.spi.Change;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.WorkflowSession;
import dev.sluice.workflow.spi.WorkflowStore;
import dev.sluice.workflow.spi.WorkflowVersion;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The runtime: a session on the store and a bounded pool of worker threads; an {@link
 * ExecutionRunner} runs what a worker claimed, and a {@link WakeTimer} wakes idle workers for the
 * next durable timer.
 *
 * <p>A worker loops: read the wake count, claim in one unit of work (due timers fire, dead owners'
 * claims go back to the queue, the oldest runnable queued execution is claimed), run what it
 * claimed, or else arm one timer for the earliest durable timer and sleep until a wake. Nothing
 * wakes it "just to check".
 */
final class WorkflowRuntimeImpl implements WorkflowRuntime {
  private static final Log LOG = Logs.of(WorkflowRuntimeImpl.class);

  /** How many executions one purge transaction deletes at most. */
  static final int PURGE_BATCH = RuntimeSettings.PURGE_BATCH;

  private static final long MAX_BACKOFF_MILLIS = 5_000;

  private final WorkflowStore store;
  private final WorkflowSession session;
  private final WorkflowCodec codec;
  private final TimeSource clock;
  private final Registry registry;
  private final int workerCount;
  private final RuntimeSettings settings;
  private final long retentionMillis;
  private final AtomicBoolean purging = new AtomicBoolean();
  private final ChangeCounter work = new ChangeCounter();

  /**
   * The largest count of {@link #work} that a claim read before it found nothing to run: while the
   * count stays there, the store has had no work since (every change that can give some counts).
   */
  private final AtomicLong foundNothingAt = new AtomicLong(-1);

  /**
   * Whether a claim that finds nothing means nothing: with a limit, a run that ends gives room that
   * no change of the store counts.
   */
  private final boolean unlimited;

  /** Shared by the workers' claims (see {@link Units.PurgeFloor}). */
  private final Units.PurgeFloor purgeFloor = new Units.PurgeFloor();

  private final ChangeCounter results = new ChangeCounter();
  private final Object lifecycle = new Object();
  private final List<Thread> workers = new ArrayList<>();
  private volatile boolean started;
  private volatile boolean closing;
  private boolean closed;

  private final WakeTimer timer;
  private final ExecutionRunner runner;
  private final WorkflowInstrumentation instrumentation;
  private final Inspector inspector;
  private final List<java.util.function.Consumer<dev.sluice.workflow.StepEvent>> stepListeners =
      new java.util.concurrent.CopyOnWriteArrayList<>();

  WorkflowRuntimeImpl(RuntimeSettings settings, WorkflowInstrumentation instrumentation) {
    this.instrumentation = instrumentation;
    this.store = settings.store();
    this.codec = settings.codec();
    this.clock = store.clock();
    this.registry = new Registry(settings.workflows(), settings.maxConcurrent());
    this.unlimited = settings.maxConcurrent().isEmpty() && settings.globalMaxConcurrent().isEmpty();
    this.workerCount = settings.workers();
    this.settings = settings;
    this.retentionMillis = settings.retention().toMillis();
    this.session = store.open();
    this.timer = new WakeTimer(clock, work);
    this.runner =
        new ExecutionRunner(
            session,
            codec,
            clock,
            registry,
            () -> closing,
            instrumentation,
            e -> stepListeners.forEach(l -> l.accept(e)));
    this.inspector = new Inspector(session, this::checkOpen);
    // With a global cap, an execution that ends may let a queued one of its workflow run.
    boolean outcomesGiveWork = !settings.globalMaxConcurrent().isEmpty();
    session.onChange(
        changes -> {
          inspector.changed();
          if (changes.contains(Change.WORK)
              || (outcomesGiveWork && changes.contains(Change.OUTCOME))) {
            // One idle worker looks, none while one is looking (it looks again); if it claims
            // something, it wakes the next (see work()).
            work.bumpOneUnlessLooking();
          }
          if (changes.contains(Change.OUTCOME)) {
            results.bump();
          }
        });
  }

  TimeSource clock() {
    return clock;
  }

  WorkflowCodec codec() {
    return codec;
  }

  ChangeCounter resultSignal() {
    return results;
  }

  Optional<ExecutionRecord> read(String id) {
    StoreCode.refuseInside("reading execution '" + id + "'");
    // A read of one row: a store may run it beside the claims and step writes of other runtimes.
    return session.readExecution(id);
  }

  @Override
  public void start() {
    synchronized (lifecycle) {
      if (closed) {
        throw new IllegalStateException("workflow runtime on " + store.name() + " is closed");
      }
      if (started) {
        return;
      }
      started = true;
      LOG.info("workflow runtime on store {} started with {} workers", store.name(), workerCount);
      for (int i = 1; i <= workerCount; i++) {
        Thread t = WorkerThreads.create("sluice-workflow-" + store.name() + "-" + i, this::work);
        workers.add(t);
        t.start();
      }
    }
  }

  @Override
  public <I, O> Execution<O> submit(Workflow<I, O> workflow, String id, I input) {
    return submit(workflow, id, input, SubmitOptions.defaults());
  }

  @Override
  public <I, O> Execution<O> submit(
      Workflow<I, O> workflow, String id, I input, SubmitOptions options) {
    Objects.requireNonNull(workflow, "workflow");
    Objects.requireNonNull(options, "options");
    Names.check("execution id", id);
    if (!registry.isRegistered(workflow)) {
      throw new IllegalArgumentException(
          "workflow '"
              + workflow.name()
              + "' version "
              + workflow.version()
              + " with these input and output types is not registered with this runtime"
              + " (registered: "
              + registry.names()
              + ")");
    }
    Class<?> inputClass = workflow.inputType().rawType();
    if (input != null && !inputClass.isInstance(input)) {
      throw new IllegalArgumentException(
          "input of workflow '"
              + workflow.name()
              + "' must be a "
              + workflow.inputType()
              + ", was a "
              + input.getClass().getName());
    }
    String payload;
    try {
      payload = codec.encode(input, workflow.inputType());
    } catch (WorkflowCodecException e) {
      throw new IllegalArgumentException(
          "input of workflow '" + workflow.name() + "' cannot be encoded: " + e.getMessage(), e);
    }
    checkOpen();
    long timeoutMillis =
        options
            .executionTimeoutOverride()
            .or(() -> settings.executionTimeout(workflow.name()))
            .map(Duration::toMillis)
            .orElse(0L);
    // Captured on the submitting thread, and written with the execution it belongs to.
    String carried =
        instrumentation == null
            ? null
            : StepObserver.checkCarried(
                workflow.name(), instrumentation.carry(workflow.name(), id));
    long resultCount = results.count();
    Claims.SubmitDecision d =
        session.transactReading(
            id,
            tx ->
                Units.submit(
                    tx, id, workflow.name(), workflow.version(), payload, timeoutMillis, carried));
    ExecutionRecord row;
    if (d instanceof Claims.Create c) {
      row = c.execution();
    } else if (d instanceof Claims.Existing e) {
      row = e.execution();
    } else {
      throw new ExecutionConflictException(((Claims.Conflict) d).message());
    }
    return new ExecutionHandle<>(
        this,
        id,
        workflow.name(),
        workflow.outputType(),
        new ExecutionHandle.Known(row, resultCount));
  }

  @Override
  public <O> Optional<Execution<O>> execution(String id, Class<O> outputType) {
    return execution(id, TypeRef.of(Objects.requireNonNull(outputType, "outputType")));
  }

  @Override
  public <O> Optional<Execution<O>> execution(String id, TypeRef<O> outputType) {
    Names.check("execution id", id);
    Objects.requireNonNull(outputType, "outputType");
    checkOpen();
    long resultCount = results.count();
    Optional<ExecutionRecord> r = read(id);
    if (r.isEmpty()) {
      return Optional.empty();
    }
    ExecutionRecord e = r.get();
    Optional<Workflow<?, ?>> w =
        registry.find(e.workflow(), e.version()).or(() -> registry.anyVersion(e.workflow()));
    if (w.isPresent()
        && !outputType.equals(w.get().outputType())
        && !outputType.rawType().isAssignableFrom(w.get().outputType().rawType())) {
      throw new IllegalArgumentException(
          "execution '"
              + id
              + "' is of workflow '"
              + e.workflow()
              + "', whose output type is "
              + w.get().outputType()
              + ", not "
              + outputType);
    }
    return Optional.of(
        new ExecutionHandle<>(
            this, id, e.workflow(), outputType, new ExecutionHandle.Known(e, resultCount)));
  }

  @Override
  public <T> StoreClient<T> store(DurableStore<T> store, String id) {
    return new RuntimeStoreClient<>(
        new DocumentCodec<>(store, id, codec), session, this::checkOpen);
  }

  @Override
  public AutoCloseable onStep(java.util.function.Consumer<dev.sluice.workflow.StepEvent> listener) {
    Objects.requireNonNull(listener, "listener");
    stepListeners.add(listener);
    return () -> stepListeners.remove(listener);
  }

  @Override
  public WorkflowInspector inspector() {
    return inspector;
  }

  @Override
  public boolean cancel(String id) {
    Names.check("execution id", id);
    checkOpen();
    return session.transactReading(id, tx -> Units.cancel(tx, id));
  }

  @Override
  public long purge(Duration olderThan) {
    Objects.requireNonNull(olderThan, "olderThan");
    if (olderThan.isNegative()) {
      throw new IllegalArgumentException("olderThan must not be negative, was " + olderThan);
    }
    checkOpen();
    long millis = olderThan.toMillis();
    long total = 0;
    int n;
    do {
      n = session.transact(tx -> Units.purge(tx, millis, PURGE_BATCH));
      total += n;
    } while (n == PURGE_BATCH);
    return total;
  }

  private void checkOpen() {
    StoreCode.refuseInside("the workflow runtime");
    synchronized (lifecycle) {
      if (closed) {
        throw new IllegalStateException("workflow runtime on " + store.name() + " is closed");
      }
    }
  }

  @Override
  public void close() {
    List<Thread> toJoin;
    synchronized (lifecycle) {
      if (closed) {
        return;
      }
      if (workers.contains(Thread.currentThread())) {
        throw new IllegalStateException("a workflow runtime cannot be closed from its own worker");
      }
      closed = true;
      closing = true;
      toJoin = List.copyOf(workers);
    }
    work.bump();
    boolean interrupted = false;
    for (Thread t : toJoin) {
      while (true) {
        try {
          t.join();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    timer.close();
    session.close();
    results.bump();
    LOG.info("workflow runtime on store {} closed", store.name());
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  // ---- workers ----

  /**
   * What this runtime may run, for one claim: {@code reserved[0]} is set to the execution whose run
   * the claim reserved.
   */
  private Units.Runnables runnables(ExecutionRecord[] reserved) {
    return new Units.Runnables() {
      @Override
      public Set<WorkflowVersion> now() {
        return registry.runnableNow();
      }

      @Override
      public boolean tryReserve(ExecutionRecord claimed) {
        if (registry.tryReserve(claimed)) {
          reserved[0] = claimed;
          return true;
        }
        return false;
      }
    };
  }

  /**
   * Runs one claim. A store-wide limit counts running executions, which a claim beside other units
   * cannot, so only a runtime without one lets the store try the claim beside them.
   */
  private Units.ClaimResult claim(ExecutionRecord[] reserved) {
    WorkflowSession.Unit<Units.ClaimResult> claim =
        tx -> {
          // A store may run the unit again after a conflict: undo the last run's reservation.
          if (reserved[0] != null) {
            registry.finished(reserved[0].workflow());
            reserved[0] = null;
          }
          return Units.claim(
              tx, runnables(reserved), retentionMillis, settings.globalMaxConcurrent(), purgeFloor);
        };
    return settings.globalMaxConcurrent().isEmpty()
        ? session.transactReadOrClaim(claim)
        : session.transact(claim);
  }

  private void work() {
    long backoff = 0;
    while (true) {
      long seen = work.count();
      // Checked after reading the count: close() sets the flag before it bumps, so a worker that
      // missed the flag here sees the bump in its sleep.
      if (closing) {
        return;
      }
      Units.ClaimResult r;
      ExecutionRecord[] reserved = new ExecutionRecord[1];
      // While it looks, a change wakes no other worker: this one looks again after it (it read
      // the count before), or wakes the next when it claimed something.
      work.lookStarted();
      boolean looking = true;
      try {
        r = claim(reserved);
      } catch (Units.LostReservation e) {
        // Nothing was kept; a run of another workflow, or this one's freed run, may be claimable.
        continue;
      } catch (RuntimeException e) {
        // Not looking while it backs off: a change must wake it, or another worker.
        looking = false;
        work.lookEnded();
        if (reserved[0] != null) {
          registry.finished(reserved[0].workflow());
        }
        backoff = Math.min(MAX_BACKOFF_MILLIS, Math.max(100, backoff * 2));
        LOG.warn("workflow store {} failed; trying again in {} ms", store.name(), backoff, e);
        TimeSource.Timer retry = clock.schedule(work::bump, backoff * 1_000_000L);
        if (!sleep(seen)) {
          retry.cancel();
          return;
        }
        continue;
      } finally {
        if (looking) {
          work.lookEnded();
        }
      }
      if (backoff > 0) {
        LOG.info("workflow store {} answers again", store.name());
      }
      backoff = 0;
      boolean purged = r.purgeDue() && purgeBatch();
      if (r instanceof Units.Claimed c) {
        if (c.thenIdle().isEmpty() || work.count() != seen) {
          // More may be queued, or a change came while this worker looked (it woke no other):
          // the next idle worker looks, and so on while claims find work.
          work.bumpOneUnlessLooking();
        } else {
          // This claim took the last: it counts as a claim that then found nothing.
          foundNothingAt.accumulateAndGet(seen, Math::max);
          arm(c.thenIdle().get());
        }
        try {
          runner.run(c);
        } catch (RuntimeException | Error e) {
          // Nothing that happens to one execution may stop the worker.
          LOG.error("execution '{}' left as it is after a failure", c.execution().id(), e);
        } finally {
          registry.finished(c.execution().workflow());
        }
        // A claim found nothing after the last change that could give work: this worker would
        // only find nothing again, so it sleeps until the next such change.
        long now = work.count();
        if (unlimited && now == foundNothingAt.get() && !sleep(now)) {
          return;
        }
        continue;
      }
      if (r instanceof Units.Unreadable u) {
        registry.finished(u.execution().workflow());
        LOG.error(
            "execution '{}' failed: its store rows are unreadable", u.execution().id(), u.error());
        continue;
      }
      if (purged) {
        // More may be purgeable: claim again, which looks.
        continue;
      }
      foundNothingAt.accumulateAndGet(seen, Math::max);
      arm((Units.Idle) r);
      if (!sleep(seen)) {
        return;
      }
    }
  }

  /** Arms the wake for what an idle claim found due next: a durable timer or a purge. */
  private void arm(Units.Idle idle) {
    // A purge that is due but another worker of this runtime is doing wakes it through the store
    // when done; do not arm for it, or this worker would spin.
    (idle.purgeDue() ? idle.nextTimer() : idle.nextWake()).ifPresent(timer::armAt);
  }

  /**
   * Deletes one batch of executions past the retention, in its own transaction, unless another
   * worker of this runtime is at it.
   *
   * @return whether this worker purged something
   */
  private boolean purgeBatch() {
    if (!purging.compareAndSet(false, true)) {
      return false;
    }
    try {
      return session.transact(tx -> Units.purge(tx, retentionMillis, PURGE_BATCH)) > 0;
    } catch (RuntimeException e) {
      // Left to the next claim that finds a purge due; the worker goes on.
      LOG.warn("purge on workflow store {} failed; the next claim tries again", store.name(), e);
      return false;
    } finally {
      purging.set(false);
    }
  }

  private boolean sleep(long seen) {
    try {
      work.awaitAfter(seen);
      return true;
    } catch (InterruptedException e) {
      return false;
    }
  }

  @Override
  public String toString() {
    return "WorkflowRuntime[" + store.name() + "]";
  }
}
