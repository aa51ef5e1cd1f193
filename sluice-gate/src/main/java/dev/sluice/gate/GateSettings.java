/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import java.time.Duration;
import java.util.Objects;

/**
 * The gate's timing and retention rules, the same for every pool. Immutable; build with {@link
 * #builder()}, whose defaults are the documented ones.
 *
 * @param defaultCapacity the capacity a pool gets when first used: max(1, cores / 2) by default
 * @param offerTtl how long an offer reserves capacity: 30 s
 * @param startDeadline how long a claimed permit may wait for its work to start: 60 s
 * @param untrackedLease how long an untracked permit lives without a heartbeat: 60 s
 * @param longHold a hold longer than this is flagged by {@code diagnose}, never revoked: 30 min
 * @param eventsKept events kept at most: 10,000
 * @param eventsMaxAge events kept at most this long: 7 days
 * @param terminalRetention ended requests (and their tokens) answer idempotently this long: 1 h
 * @param jobLogRetention a submitted job's record and log are kept this long after it ended: 7 days
 *     (never while it waits or runs)
 */
public record GateSettings(
    int defaultCapacity,
    Duration offerTtl,
    Duration startDeadline,
    Duration untrackedLease,
    Duration longHold,
    int eventsKept,
    Duration eventsMaxAge,
    Duration terminalRetention,
    Duration jobLogRetention) {

  /** Validates the fields; see {@link Builder}. */
  public GateSettings {
    if (defaultCapacity < 1 || defaultCapacity > AcquireRequest.MAX_WEIGHT) {
      throw new IllegalArgumentException(
          "defaultCapacity must be between 1 and "
              + AcquireRequest.MAX_WEIGHT
              + ", was "
              + defaultCapacity);
    }
    positive("offerTtl", offerTtl);
    positive("startDeadline", startDeadline);
    positive("untrackedLease", untrackedLease);
    positive("longHold", longHold);
    positive("eventsMaxAge", eventsMaxAge);
    positive("terminalRetention", terminalRetention);
    positive("jobLogRetention", jobLogRetention);
    if (eventsKept < 1) {
      throw new IllegalArgumentException("eventsKept must be positive, was " + eventsKept);
    }
  }

  private static void positive(String field, Duration d) {
    Objects.requireNonNull(d, field);
    if (d.isNegative() || d.isZero() || d.compareTo(Duration.ofDays(365)) > 0) {
      throw new IllegalArgumentException(
          field + " must be positive and at most 365 days, was " + d);
    }
  }

  /** The documented defaults. */
  public static GateSettings defaults() {
    return builder().build();
  }

  /** A builder holding the documented defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds {@link GateSettings}; not thread-safe. */
  public static final class Builder {
    private int defaultCapacity = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    private Duration offerTtl = Duration.ofSeconds(30);
    private Duration startDeadline = Duration.ofSeconds(60);
    private Duration untrackedLease = Duration.ofSeconds(60);
    private Duration longHold = Duration.ofMinutes(30);
    private int eventsKept = 10_000;
    private Duration eventsMaxAge = Duration.ofDays(7);
    private Duration terminalRetention = Duration.ofHours(1);
    private Duration jobLogRetention = Duration.ofDays(7);

    private Builder() {}

    /** See {@link GateSettings#defaultCapacity()}. */
    public Builder defaultCapacity(int v) {
      defaultCapacity = v;
      return this;
    }

    /** See {@link GateSettings#offerTtl()}. */
    public Builder offerTtl(Duration v) {
      offerTtl = v;
      return this;
    }

    /** See {@link GateSettings#startDeadline()}. */
    public Builder startDeadline(Duration v) {
      startDeadline = v;
      return this;
    }

    /** See {@link GateSettings#untrackedLease()}. */
    public Builder untrackedLease(Duration v) {
      untrackedLease = v;
      return this;
    }

    /** See {@link GateSettings#longHold()}. */
    public Builder longHold(Duration v) {
      longHold = v;
      return this;
    }

    /** See {@link GateSettings#eventsKept()}. */
    public Builder eventsKept(int v) {
      eventsKept = v;
      return this;
    }

    /** See {@link GateSettings#eventsMaxAge()}. */
    public Builder eventsMaxAge(Duration v) {
      eventsMaxAge = v;
      return this;
    }

    /** See {@link GateSettings#terminalRetention()}. */
    public Builder terminalRetention(Duration v) {
      terminalRetention = v;
      return this;
    }

    /** See {@link GateSettings#jobLogRetention()}. */
    public Builder jobLogRetention(Duration v) {
      jobLogRetention = v;
      return this;
    }

    /**
     * Builds the settings.
     *
     * @throws IllegalArgumentException naming the field, the value and what is allowed
     */
    public GateSettings build() {
      return new GateSettings(
          defaultCapacity,
          offerTtl,
          startDeadline,
          untrackedLease,
          longHold,
          eventsKept,
          eventsMaxAge,
          terminalRetention,
          jobLogRetention);
    }
  }
}
