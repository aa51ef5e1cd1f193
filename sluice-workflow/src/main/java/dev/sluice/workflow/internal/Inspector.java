/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import dev.sluice.workflow.ExecutionDetails;
import dev.sluice.workflow.ExecutionPage;
import dev.sluice.workflow.ExecutionQuery;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.WorkflowInspector;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.ExecutionScan;
import dev.sluice.workflow.spi.StepRecord;
import dev.sluice.workflow.spi.WorkflowSession;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The runtime's {@link WorkflowInspector}: read-only units of work on the runtime's session, and
 * the listeners its session's change signal calls. A page asks the store for one row more than it
 * returns, to know whether there is a next page without a second query. Details leave out the
 * carried context record ({@link dev.sluice.workflow.spi.StepKind#CONTEXT}), so every reader (the
 * console, tools) shows only the workflow's own steps. Thread-safe.
 */
final class Inspector implements WorkflowInspector {
  private final WorkflowSession session;
  private final Runnable checkOpen;
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

  Inspector(WorkflowSession session, Runnable checkOpen) {
    this.session = session;
    this.checkOpen = checkOpen;
  }

  /** Called by the runtime's change signal. */
  void changed() {
    for (Runnable l : listeners) {
      l.run();
    }
  }

  @Override
  public ExecutionPage executions(ExecutionQuery query) {
    Objects.requireNonNull(query, "query");
    ExecutionScan.Position after = query.cursor().map(Inspector::decode).orElse(null);
    ExecutionScan scan =
        new ExecutionScan(query.statuses(), query.idPrefix(), after, query.limit() + 1);
    checkOpen.run();
    List<ExecutionRecord> found = session.transact(tx -> tx.executions(scan));
    if (found.size() <= query.limit()) {
      return new ExecutionPage(found, Optional.empty());
    }
    List<ExecutionRecord> page = found.subList(0, query.limit());
    return new ExecutionPage(
        page, Optional.of(encode(ExecutionScan.Position.of(page.get(page.size() - 1)))));
  }

  @Override
  public Optional<ExecutionDetails> details(String id) {
    Objects.requireNonNull(id, "id");
    checkOpen.run();
    return session.transact(
        tx ->
            tx.execution(id)
                .map(
                    e ->
                        new ExecutionDetails(
                            e, userSteps(tx.steps(id)), tx.timer(id), tx.waiter(id))));
  }

  /**
   * The steps the workflow function recorded: without the context an instrumentation carried from
   * the submit, which is the runtime's bookkeeping, not a step of the user's workflow.
   */
  static List<StepRecord> userSteps(List<StepRecord> steps) {
    return StepObserver.carriesContext(steps) ? steps.subList(1, steps.size()) : steps;
  }

  @Override
  public Map<ExecutionStatus, Long> counts() {
    checkOpen.run();
    Map<ExecutionStatus, Long> stored = session.transact(tx -> tx.executionCounts());
    Map<ExecutionStatus, Long> all = new EnumMap<>(ExecutionStatus.class);
    for (ExecutionStatus s : ExecutionStatus.values()) {
      all.put(s, stored.getOrDefault(s, 0L));
    }
    return all;
  }

  @Override
  public AutoCloseable onChange(Runnable listener) {
    Objects.requireNonNull(listener, "listener");
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  static String encode(ExecutionScan.Position p) {
    byte[] text = (p.createdAt() + ":" + p.id()).getBytes(StandardCharsets.UTF_8);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(text);
  }

  static ExecutionScan.Position decode(String cursor) {
    try {
      String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
      int colon = text.indexOf(':');
      return new ExecutionScan.Position(
          Long.parseLong(text.substring(0, colon)), text.substring(colon + 1));
    } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
      throw new IllegalArgumentException(
          "cursor '" + cursor + "' is not one an execution page returned (use its nextCursor)", e);
    }
  }
}
