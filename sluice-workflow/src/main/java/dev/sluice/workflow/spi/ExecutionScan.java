/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.spi;

import dev.sluice.workflow.ExecutionStatus;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * A read-only listing of executions for {@link WorkflowTransaction#executions}: which ones, and
 * from where in the listing's order. The order is the same for every store: newest first, by {@link
 * ExecutionRecord#createdAt()} descending, then by id descending (the ids compared as the store
 * compares text; ids of one ASCII alphabet compare alike everywhere).
 *
 * @param statuses the statuses to list; empty lists every status
 * @param idPrefix lists only ids that start with it (case-sensitive); empty lists every id
 * @param after lists only executions after this position in the order, or null from the start
 * @param limit at most this many, at least 1
 */
public record ExecutionScan(
    Set<ExecutionStatus> statuses, String idPrefix, Position after, int limit) {
  /** The listing's order: newest first, then by id descending. */
  public static final Comparator<ExecutionRecord> ORDER =
      Comparator.comparingLong(ExecutionRecord::createdAt)
          .thenComparing(ExecutionRecord::id)
          .reversed();

  /** Checks the components and copies the statuses. */
  public ExecutionScan {
    statuses =
        statuses.isEmpty()
            ? Set.of()
            : Set.copyOf(EnumSet.copyOf(Objects.requireNonNull(statuses)));
    Objects.requireNonNull(idPrefix, "idPrefix");
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, was " + limit);
    }
  }

  /**
   * A place in the listing's order: the last execution of the previous page.
   *
   * @param createdAt its {@link ExecutionRecord#createdAt()}
   * @param id its id
   */
  public record Position(long createdAt, String id) {
    /** Checks the components. */
    public Position {
      Objects.requireNonNull(id, "id");
    }

    /** Returns the position of an execution. */
    public static Position of(ExecutionRecord e) {
      return new Position(e.createdAt(), e.id());
    }
  }

  /**
   * Whether the listing includes {@code e}, ignoring the limit: the rule every store applies, as
   * code (the in-memory store runs it; database stores run the same rule as SQL).
   *
   * @param e an execution
   * @return true if it matches the statuses and prefix and comes after {@link #after()}
   */
  public boolean includes(ExecutionRecord e) {
    if (!statuses.isEmpty() && !statuses.contains(e.status())) {
      return false;
    }
    if (!e.id().startsWith(idPrefix)) {
      return false;
    }
    if (after == null) {
      return true;
    }
    return e.createdAt() < after.createdAt()
        || (e.createdAt() == after.createdAt() && e.id().compareTo(after.id()) < 0);
  }
}
