/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import dev.sluice.Observation;
import dev.sluice.TimeSource;
import dev.sluice.spi.support.Log;
import dev.sluice.spi.support.Logs;
import dev.sluice.spi.support.Observed;
import dev.sluice.workflow.DurableStore;
import dev.sluice.workflow.NonDeterminismException;
import dev.sluice.workflow.StepContext;
import dev.sluice.workflow.StepEvent;
import dev.sluice.workflow.StepFailedException;
import dev.sluice.workflow.StepFunction;
import dev.sluice.workflow.StepOptions;
import dev.sluice.workflow.StoreHandle;
import dev.sluice.workflow.TypeRef;
import dev.sluice.workflow.WorkflowCodec;
import dev.sluice.workflow.WorkflowCodecException;
import dev.sluice.workflow.WorkflowContext;
import dev.sluice.workflow.WorkflowSuspension;
import dev.sluice.workflow.internal.Claims.Claim;
import dev.sluice.workflow.spi.FailureRecord;
import dev.sluice.workflow.spi.StepKind;
import dev.sluice.workflow.spi.StepOutcome;
import dev.sluice.workflow.spi.StepRecord;
import dev.sluice.workflow.spi.WorkflowSession;
import dev.sluice.workflow.spi.WorkflowTransaction;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongUnaryOperator;

/**
 * The {@link WorkflowContext} of one run of a workflow function: replays recorded steps by position
 * ({@link Replay}), runs and commits new ones (one unit of work per step), and stops the function
 * with {@link WorkflowSuspension} when it must wait, remembering why in {@link #pending()} for the
 * runtime to write after the function has unwound.
 *
 * <p>Confined to the thread that created it: the worker that runs the function.
 */
final class ReplayContext implements WorkflowContext {
  private static final Log LOG = Logs.of(ReplayContext.class);
  private static final long MAX_SLEEP_MILLIS = Duration.ofDays(3650).toMillis();

  private final Thread owner = Thread.currentThread();
  private final String executionId;
  private final List<StepRecord> recorded;
  private final Claim claim;
  private final WorkflowSession session;
  private final WorkflowCodec codec;
  private final TimeSource clock;
  private final BooleanSupplier closing;
  private final StepObserver observer;
  private final String workflow;
  private final Consumer<StepEvent> steps;
  private final Set<String> seen = new HashSet<>();
  private final Map<String, Boolean> patches = new HashMap<>();
  private int position;
  private int nowCalls;
  private int uuidCalls;
  private boolean inBody;
  private boolean ended;
  private Suspension pending;
  private StepRecord unrecorded;
  private WorkflowSuspension thrown;
  private NonDeterminismException failure;

  /**
   * A context whose steps {@code observer} sees, or none if null. A context step recorded at
   * position 0 (the submit's carried trace) is passed over: the function starts after it.
   */
  ReplayContext(
      String executionId,
      List<StepRecord> recorded,
      Claim claim,
      WorkflowSession session,
      WorkflowCodec codec,
      TimeSource clock,
      BooleanSupplier closing) {
    this(executionId, "", recorded, claim, session, codec, clock, closing, e -> {}, null);
  }

  ReplayContext(
      String executionId,
      String workflow,
      List<StepRecord> recorded,
      Claim claim,
      WorkflowSession session,
      WorkflowCodec codec,
      TimeSource clock,
      BooleanSupplier closing,
      Consumer<StepEvent> steps,
      StepObserver observer) {
    this.workflow = workflow;
    this.steps = steps;
    this.executionId = executionId;
    this.observer = observer;
    this.position = StepObserver.carriesContext(recorded) ? 1 : 0;
    this.recorded = List.copyOf(recorded);
    this.claim = claim;
    this.session = session;
    this.codec = codec;
    this.clock = clock;
    this.closing = closing;
  }

  /** Why the function was suspended, or null. */
  Suspension pending() {
    return pending;
  }

  /** The suspension thrown for {@link #pending()}, to tell it from one the function made up. */
  WorkflowSuspension thrown() {
    return thrown;
  }

  /** The non-determinism found, or null. */
  NonDeterminismException failure() {
    return failure;
  }

  /** How many recorded steps the function has passed. */
  int position() {
    return position;
  }

  List<StepRecord> recorded() {
    return recorded;
  }

  /** Ends the context: any later call throws {@link IllegalStateException}. */
  void end() {
    ended = true;
  }

  @Override
  public String executionId() {
    return executionId;
  }

  /** Checks the thread and the state before any durable call; the key is not yet claimed. */
  private void checkUsable() {
    StoreCode.refuseInside("the WorkflowContext of execution '" + executionId + "'");
    if (Thread.currentThread() != owner) {
      throw new IllegalStateException(
          "the WorkflowContext of execution '"
              + executionId
              + "' was used from thread '"
              + Thread.currentThread().getName()
              + "'; it is confined to the worker thread that runs the workflow function");
    }
    if (ended) {
      throw new IllegalStateException(
          "the WorkflowContext of execution '"
              + executionId
              + "' was used after the workflow function returned");
    }
    if (inBody) {
      throw new IllegalStateException(
          "execution '" + executionId + "': a step body must not call its WorkflowContext");
    }
    if (failure != null) {
      throw failure;
    }
    if (pending != null) {
      // The function swallowed a suspension and carries on; stop it again.
      throw thrown;
    }
    flush();
  }

  private void enter(String key) {
    checkUsable();
    if (!seen.add(key)) {
      throw nonDeterminism(
          "execution '"
              + executionId
              + "' used step key '"
              + key
              + "' twice; every step of an execution needs its own key (in a loop, add the"
              + " iteration to the key)");
    }
  }

  /** A recorded step result, decoded; a payload that no longer fits names its execution. */
  private <T> T recorded(String key, String payload, TypeRef<T> type) {
    try {
      return codec.decode(payload, type);
    } catch (WorkflowCodecException e) {
      throw new WorkflowCodecException(
          "the recorded result of step '"
              + key
              + "' of execution '"
              + executionId
              + "' is unreadable: "
              + e.getMessage(),
          e);
    }
  }

  private NonDeterminismException nonDeterminism(String message) {
    failure = new NonDeterminismException(message);
    return failure;
  }

  private WorkflowSuspension suspend(Suspension s) {
    pending = s;
    thrown = new WorkflowSuspension(s.stepKey());
    return thrown;
  }

  /**
   * Keeps a new step's record for the next durable call, which writes it first ({@link #flush}), or
   * for the runner, which writes it with the execution's end ({@link #takeUnrecorded}): the last
   * step of a run and the run's outcome then cost one commit, not two. Nothing but the function's
   * own deterministic code runs before the record is written, so a crash in between runs the step
   * again exactly as a crash before an immediate write would have.
   */
  private void commit(StepRecord step) {
    flush();
    unrecorded = step;
    position++;
  }

  /**
   * The last new step's record, not written yet, which the runner writes in the unit that ends the
   * run; null if none. The context holds it no longer.
   */
  StepRecord takeUnrecorded() {
    StepRecord step = unrecorded;
    unrecorded = null;
    return step;
  }

  /** Writes the kept step record, if any; a lost claim or a failing store stops the function. */
  private void flush() {
    StepRecord step = unrecorded;
    if (step == null) {
      return;
    }
    unrecorded = null;
    boolean held;
    try {
      held = session.transactOn(claim.executionId(), tx -> Units.record(tx, claim, step));
    } catch (RuntimeException e) {
      LOG.warn(
          "execution '{}': cannot record step '{}'; it runs again on a later claim",
          executionId,
          step.key(),
          e);
      throw suspend(new Suspension.Yield(step.key()));
    }
    if (!held) {
      throw suspend(new Suspension.Abandon(step.key()));
    }
  }

  private StepRecord record(String key, StepKind kind, StepOutcome outcome, long now) {
    return new StepRecord(executionId, position, key, kind, outcome, now);
  }

  @Override
  public <T> StoreHandle<T> store(DurableStore<T> store, String id) {
    checkUsable();
    return new ReplayStoreHandle<>(this, new DocumentCodec<>(store, id, codec));
  }

  /**
   * Begins a durable store step: checks the key and claims it for this run, then returns the
   * recorded outcome to replay, or null if the step must run.
   *
   * @throws NonDeterminismException if another step is recorded at this position
   */
  StepOutcome beginStoreStep(String key, StepKind kind) {
    Names.stepKey(key);
    enter(key);
    Replay.Decision d =
        Replay.decide(executionId, recorded, position, key, kind, clock.wallMillis());
    if (d instanceof Replay.Mismatch m) {
      throw nonDeterminism(m.message());
    }
    if (d instanceof Replay.Recorded r) {
      position++;
      return r.step().outcome();
    }
    return null;
  }

  /** Records and returns a non-determinism found by a store step. */
  NonDeterminismException mismatch(String message) {
    return nonDeterminism(message);
  }

  /** Where the store step about to run is recorded. */
  StoreUnits.Step stepAt(String key, StepKind kind) {
    return new StoreUnits.Step(executionId, position, key, kind);
  }

  /** A store step's unit of work, given this run's claim. */
  @FunctionalInterface
  interface StoreStep {
    StoreUnits.Result apply(WorkflowTransaction tx, Claim claim);
  }

  /**
   * Runs a store step begun with {@link #beginStoreStep} in one unit of work.
   *
   * @return the recorded snapshot
   * @throws StepFailedException if the updater or condition threw (recorded)
   * @throws WorkflowSuspension if the condition is false, the claim was lost or the store failed
   */
  StepOutcome.Snapshot runStoreStep(String key, StoreStep step) {
    StoreUnits.Result r;
    try {
      r = session.transact(tx -> step.apply(tx, claim));
    } catch (RuntimeException e) {
      LOG.warn("execution '{}': store step '{}' failed in the store", executionId, key, e);
      throw suspend(new Suspension.Yield(key));
    }
    if (r instanceof StoreUnits.Lost) {
      throw suspend(new Suspension.Abandon(key));
    }
    if (r instanceof StoreUnits.Parked) {
      throw suspend(new Suspension.Park(key));
    }
    position++;
    if (r instanceof StoreUnits.Failed f) {
      throw Failures.stepFailed(key, f.failure());
    }
    return ((StoreUnits.Done) r).snapshot();
  }

  @Override
  public <T> T step(String key, StepOptions options, TypeRef<T> type, StepFunction<T> body) {
    Names.stepKey(key);
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(body, "body");
    enter(key);
    Replay.Decision d =
        Replay.decide(executionId, recorded, position, key, StepKind.STEP, clock.wallMillis());
    if (d instanceof Replay.Mismatch m) {
      throw nonDeterminism(m.message());
    }
    if (d instanceof Replay.Wait w) {
      throw suspend(new Suspension.Wait(key, w.dueAt(), null));
    }
    if (d instanceof Replay.Recorded r) {
      position++;
      StepOutcome o = r.step().outcome();
      if (o instanceof StepOutcome.Failed f) {
        StepFailedException replayed = Failures.stepFailed(key, f.failure());
        observeReplay(key, replayed);
        throw replayed;
      }
      observeReplay(key, null);
      return recorded(key, ((StepOutcome.Value) o).payload(), type);
    }
    if (closing.getAsBoolean()) {
      throw suspend(new Suspension.Yield(key));
    }
    int attempt = ((Replay.Run) d).attempt();
    long started = clock.monotonicNanos();
    BodyRun run = runBody(key, attempt, type, body);
    Duration took = Duration.ofNanos(clock.monotonicNanos() - started);
    String payload = run.payload();
    Exception bodyFailure = run.failure();
    long now = clock.wallMillis();
    if (bodyFailure == null) {
      report(key, attempt, StepEvent.Outcome.SUCCEEDED, took);
      commit(record(key, StepKind.STEP, new StepOutcome.Value(payload), now));
      // The first run returns what replays will return: the decoded payload.
      return codec.decode(payload, type);
    }
    FailureRecord fr = Failures.of(bodyFailure);
    if (options.retry().allowsRetry(attempt, bodyFailure)) {
      long delay =
          options.retry().delayAfter(attempt, ThreadLocalRandom.current().nextDouble()).toMillis();
      StepRecord retrying =
          record(key, StepKind.STEP, new StepOutcome.Retrying(attempt, now + delay, fr), now);
      report(key, attempt, StepEvent.Outcome.RETRYING, took);
      throw suspend(new Suspension.Wait(key, now + delay, retrying));
    }
    report(key, attempt, StepEvent.Outcome.FAILED, took);
    commit(record(key, StepKind.STEP, new StepOutcome.Failed(fr, attempt), now));
    throw Failures.stepFailed(key, fr);
  }

  /** What a body's run left: its encoded result, or its failure. */
  private record BodyRun(String payload, Exception failure) {}

  /** Runs a step's body, observed (with its context current) when an observer is set. */
  private <T> BodyRun runBody(String key, int attempt, TypeRef<T> type, StepFunction<T> body) {
    Observation observation = observer == null ? null : observer.run(key, attempt);
    Observation.Scope scope = observation == null ? null : Observed.enter(observation);
    String payload = null;
    Exception failure = null;
    inBody = true;
    try {
      payload = codec.encode(body.run(new Step(executionId, key, attempt)), type);
    } catch (Exception e) {
      failure = e;
    } finally {
      inBody = false;
      if (observation != null) {
        Observed.exit(scope);
        Observed.end(observation, failure);
      }
    }
    return new BodyRun(payload, failure);
  }

  private void observeReplay(String key, Throwable failure) {
    if (observer != null) {
      observer.replayed(key, failure);
    }
  }

  private void report(String key, int attempt, StepEvent.Outcome outcome, Duration took) {
    try {
      steps.accept(new StepEvent(executionId, workflow, key, attempt, outcome, took));
    } catch (RuntimeException e) {
      LOG.warn("execution '{}': a step listener failed on step '{}'", executionId, key, e);
    }
  }

  @Override
  public void sleep(String key, Duration duration) {
    Objects.requireNonNull(duration, "duration");
    if (duration.isNegative() || duration.toMillis() > MAX_SLEEP_MILLIS) {
      throw new IllegalArgumentException(
          "sleep duration of step '"
              + key
              + "' must be between 0 and "
              + Duration.ofMillis(MAX_SLEEP_MILLIS)
              + ", was "
              + duration);
    }
    long millis =
        duration.toMillis() + (duration.minusMillis(duration.toMillis()).isZero() ? 0 : 1);
    sleepUntil(key, now -> now + millis);
  }

  @Override
  public void sleepUntil(String key, Instant wakeAt) {
    Objects.requireNonNull(wakeAt, "wakeAt");
    long at = wakeAt.toEpochMilli();
    sleepUntil(key, now -> at);
  }

  private void sleepUntil(String key, LongUnaryOperator wakeAtFromNow) {
    Names.stepKey(key);
    enter(key);
    long now = clock.wallMillis();
    Replay.Decision d = Replay.decide(executionId, recorded, position, key, StepKind.SLEEP, now);
    if (d instanceof Replay.Mismatch m) {
      throw nonDeterminism(m.message());
    }
    if (d instanceof Replay.Wait w) {
      throw suspend(new Suspension.Wait(key, w.dueAt(), null));
    }
    if (d instanceof Replay.Recorded) {
      position++;
      return;
    }
    if (closing.getAsBoolean()) {
      throw suspend(new Suspension.Yield(key));
    }
    long wakeAt = wakeAtFromNow.applyAsLong(now);
    StepRecord sleep = record(key, StepKind.SLEEP, new StepOutcome.Sleep(wakeAt), now);
    if (wakeAt <= now) {
      commit(sleep);
      return;
    }
    throw suspend(new Suspension.Wait(key, wakeAt, sleep));
  }

  /** Returns the recorded value of a {@code now} or {@code randomUuid} call, recording it first. */
  private String recordedValue(
      String key, StepKind kind, java.util.function.Supplier<String> fresh) {
    enter(key);
    Replay.Decision d =
        Replay.decide(executionId, recorded, position, key, kind, clock.wallMillis());
    if (d instanceof Replay.Mismatch m) {
      throw nonDeterminism(m.message());
    }
    if (d instanceof Replay.Recorded r && r.step().outcome() instanceof StepOutcome.Value v) {
      position++;
      return v.payload();
    }
    String value = fresh.get();
    commit(record(key, kind, new StepOutcome.Value(value), clock.wallMillis()));
    return value;
  }

  @Override
  public Instant now() {
    checkUsable();
    String key = Names.RESERVED_PREFIX + "now:" + nowCalls++;
    return Instant.ofEpochMilli(
        Long.parseLong(recordedValue(key, StepKind.NOW, () -> Long.toString(clock.wallMillis()))));
  }

  @Override
  public UUID randomUuid() {
    checkUsable();
    String key = Names.RESERVED_PREFIX + "uuid:" + uuidCalls++;
    return UUID.fromString(recordedValue(key, StepKind.UUID, () -> UUID.randomUUID().toString()));
  }

  @Override
  public boolean patched(String changeId) {
    Names.check("changeId", changeId);
    checkUsable();
    String key = Names.RESERVED_PREFIX + "patch:" + changeId;
    Boolean known = patches.get(key);
    if (known != null) {
      // Asked again in this run (a loop): the first answer holds for the whole execution.
      return known;
    }
    seen.add(key);
    Boolean answer = Replay.patched(recorded, position, key);
    if (answer == null) {
      commit(record(key, StepKind.PATCH, new StepOutcome.Value("true"), clock.wallMillis()));
      answer = true;
    } else if (answer) {
      position++;
    }
    patches.put(key, answer);
    return answer;
  }

  /** What a step body sees. */
  private record Step(String executionId, String stepKey, int attempt) implements StepContext {}
}
