/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Which executions {@link WorkflowInspector#executions} lists, one bounded page at a time: by
 * status, by id prefix, newest first, from a cursor of the previous page. Immutable and
 * thread-safe; built by {@link #builder()}, which checks every setting.
 *
 * @param statuses the statuses listed; empty lists every status
 * @param idPrefix only ids starting with it (case-sensitive); empty matches every id
 * @param limit the page size, 1 to {@value #MAX_LIMIT}
 * @param cursor where the page starts: {@link ExecutionPage#nextCursor()} of the previous page
 */
public record ExecutionQuery(
    Set<ExecutionStatus> statuses, String idPrefix, int limit, Optional<String> cursor) {
  /** The largest page. */
  public static final int MAX_LIMIT = 500;

  /** The page size unless set. */
  public static final int DEFAULT_LIMIT = 50;

  /** Checks the components; see {@link Builder} for the rules. */
  public ExecutionQuery {
    statuses = statuses.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(statuses));
    Objects.requireNonNull(idPrefix, "idPrefix");
    Objects.requireNonNull(cursor, "cursor");
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException(
          "limit must be between 1 and " + MAX_LIMIT + ", was " + limit);
    }
    if (idPrefix.length() > 200) {
      throw new IllegalArgumentException(
          "idPrefix must be at most 200 characters (the longest id), was " + idPrefix.length());
    }
  }

  /** Returns a builder: every status, every id, {@value #DEFAULT_LIMIT} a page, from the newest. */
  public static Builder builder() {
    return new Builder();
  }

  /** Returns the first page of every execution, newest first. */
  public static ExecutionQuery all() {
    return builder().build();
  }

  /** Builds an {@link ExecutionQuery}. Not thread-safe. */
  public static final class Builder {
    private final Set<ExecutionStatus> statuses = EnumSet.noneOf(ExecutionStatus.class);
    private String idPrefix = "";
    private int limit = DEFAULT_LIMIT;
    private String cursor;

    private Builder() {}

    /** Lists only these statuses (adds to earlier calls); none set lists every status. */
    public Builder status(ExecutionStatus... statuses) {
      for (ExecutionStatus s : statuses) {
        this.statuses.add(Objects.requireNonNull(s, "status"));
      }
      return this;
    }

    /** Lists only ids that start with {@code prefix}; the empty prefix matches every id. */
    public Builder idPrefix(String prefix) {
      this.idPrefix = Objects.requireNonNull(prefix, "idPrefix");
      return this;
    }

    /** Sets the page size, 1 to {@value #MAX_LIMIT}. */
    public Builder limit(int limit) {
      this.limit = limit;
      return this;
    }

    /** Starts after the previous page: its {@link ExecutionPage#nextCursor()}. */
    public Builder cursor(String cursor) {
      this.cursor = Objects.requireNonNull(cursor, "cursor");
      return this;
    }

    /**
     * Builds the query.
     *
     * @throws IllegalArgumentException naming the setting if one is out of range
     */
    public ExecutionQuery build() {
      return new ExecutionQuery(statuses, idPrefix, limit, Optional.ofNullable(cursor));
    }
  }
}
