/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The shared policy of one pool: how much weight may be held at once, how far apart admissions must
 * be, how long a lease lives, and a token reservoir with an optional fixed-phase refill.
 *
 * <p>Every user of a pool must open it with an equal configuration; configurations are normalized
 * (durations in whole milliseconds, defaults explicit) and compared whole. A different one is
 * refused with {@link ConfigMismatchException} and the pool is left unchanged.
 *
 * <pre>{@code
 * LimiterConfig config = LimiterConfig.builder()
 *     .maxConcurrent(5)                               // weight units; unset = unlimited
 *     .minTime(Duration.ofMillis(100))                // spacing between admissions
 *     .expiration(Duration.ofSeconds(30))             // default lease lifetime; unset = none
 *     .reservoir(100)                                 // initial tokens; unset = unlimited
 *     .reservoirRefresh(100, Duration.ofMinutes(1))   // reset to 100 every minute
 *     .build();
 * }</pre>
 *
 * <p>Instances are immutable and thread-safe. Durations have millisecond resolution; a fraction of
 * a millisecond is rounded up.
 */
public final class LimiterConfig {
  static final long UNSET = -1;
  static final int MAX_HAND_OFFS = 65_536;

  private final long maxConcurrent;
  private final long minTimeMillis;
  private final long expirationMillis;
  private final long reservoir;
  private final long refreshAmount;
  private final long refreshIntervalMillis;
  private final int localHandOffs;
  private final RecoveryPolicy recovery;

  private LimiterConfig(Builder b) {
    this.maxConcurrent = b.maxConcurrent;
    this.minTimeMillis = b.minTimeMillis;
    this.expirationMillis = b.expirationMillis;
    this.reservoir = b.reservoir;
    this.refreshAmount = b.refreshAmount;
    this.refreshIntervalMillis = b.refreshIntervalMillis;
    this.localHandOffs = b.localHandOffs;
    this.recovery = b.recovery;
  }

  /** Returns a builder with every setting at its default: unlimited, no spacing, no expiry. */
  public static Builder builder() {
    return new Builder();
  }

  /** The largest total weight held at once, or empty for unlimited. */
  public OptionalLong maxConcurrent() {
    return maxConcurrent == UNSET ? OptionalLong.empty() : OptionalLong.of(maxConcurrent);
  }

  /** The minimum time between two admissions; zero for none. */
  public Duration minTime() {
    return Duration.ofMillis(minTimeMillis);
  }

  /** The default lifetime of a lease, or empty for leases that never expire. */
  public Optional<Duration> expiration() {
    return expirationMillis == UNSET
        ? Optional.empty()
        : Optional.of(Duration.ofMillis(expirationMillis));
  }

  /** The initial token balance, or empty for an unlimited reservoir. */
  public OptionalLong reservoir() {
    return reservoir == UNSET ? OptionalLong.empty() : OptionalLong.of(reservoir);
  }

  /** The balance each refill resets the reservoir to, or empty without refill. */
  public OptionalLong reservoirRefreshAmount() {
    return refreshAmount == UNSET ? OptionalLong.empty() : OptionalLong.of(refreshAmount);
  }

  /** The refill period, anchored at pool creation, or empty without refill. */
  public Optional<Duration> reservoirRefreshInterval() {
    return refreshIntervalMillis == UNSET
        ? Optional.empty()
        : Optional.of(Duration.ofMillis(refreshIntervalMillis));
  }

  /**
   * How many times in a row a JVM may pass a unit it releases to its own earliest waiting request
   * instead of giving it back to the pool's queue; 0 (the default) keeps one strict order across
   * every JVM. See {@link Builder#localHandOffs(int)}.
   */
  public int localHandOffs() {
    return localHandOffs;
  }

  /** The shared cooldown and circuit breaker; see {@link Builder#recovery(RecoveryPolicy)}. */
  public RecoveryPolicy recovery() {
    return recovery;
  }

  /** {@link #maxConcurrent()} as a raw number, {@code -1} for unlimited; for stores. */
  public long maxConcurrentRaw() {
    return maxConcurrent;
  }

  /** {@link #minTime()} in milliseconds; for stores. */
  public long minTimeMillis() {
    return minTimeMillis;
  }

  /** {@link #expiration()} in milliseconds, {@code -1} for none; for stores. */
  public long expirationMillisRaw() {
    return expirationMillis;
  }

  /** {@link #reservoir()} as a raw number, {@code -1} for unlimited; for stores. */
  public long reservoirRaw() {
    return reservoir;
  }

  /** {@link #reservoirRefreshAmount()} as a raw number, {@code -1} for none; for stores. */
  public long refreshAmountRaw() {
    return refreshAmount;
  }

  /** {@link #reservoirRefreshInterval()} in milliseconds, {@code -1} for none; for stores. */
  public long refreshIntervalMillisRaw() {
    return refreshIntervalMillis;
  }

  /**
   * Returns the normalized form a store persists and compares: every field, in a fixed order, with
   * explicit defaults. {@link #parse(String)} reads it back.
   */
  public String normalizedForm() {
    return "maxConcurrent="
        + text(maxConcurrent)
        + ";minTimeMillis="
        + minTimeMillis
        + ";expirationMillis="
        + text(expirationMillis)
        + ";reservoir="
        + text(reservoir)
        + ";reservoirRefreshAmount="
        + text(refreshAmount)
        + ";reservoirRefreshIntervalMillis="
        + text(refreshIntervalMillis)
        // Only when set, so every pool created before the setting existed keeps its stored form.
        + (localHandOffs == 0 ? "" : ";localHandOffs=" + localHandOffs)
        + (recovery.isDefault() ? "" : ";recovery=" + recovery.normalizedForm());
  }

  /**
   * Returns the SHA-256 of {@link #normalizedForm()} in lower-case hex: a short, stable name for
   * the policy that operators can compare across processes and machines.
   */
  public String fingerprint() {
    try {
      byte[] digest =
          java.security.MessageDigest.getInstance("SHA-256")
              .digest(normalizedForm().getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return java.util.HexFormat.of().formatHex(digest);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform provides SHA-256", e);
    }
  }

  /**
   * Reads a configuration written by {@link #normalizedForm()}.
   *
   * @param normalized the stored text
   * @return the configuration
   * @throws IllegalArgumentException if the text is not a normalized configuration
   */
  public static LimiterConfig parse(String normalized) {
    Objects.requireNonNull(normalized, "normalized");
    String[] all = normalized.split(";", -1);
    RecoveryPolicy recovery = RecoveryPolicy.defaults();
    String[] parts = all;
    if (all.length > 0 && all[all.length - 1].startsWith("recovery=")) {
      recovery = RecoveryPolicy.parse(all[all.length - 1].substring("recovery=".length()));
      parts = java.util.Arrays.copyOf(all, all.length - 1);
    }
    String[] names = {
      "maxConcurrent",
      "minTimeMillis",
      "expirationMillis",
      "reservoir",
      "reservoirRefreshAmount",
      "reservoirRefreshIntervalMillis",
      "localHandOffs"
    };
    if (parts.length != names.length && parts.length != names.length - 1) {
      throw new IllegalArgumentException("not a normalized limiter configuration: " + normalized);
    }
    long[] values = new long[names.length];
    for (int i = 0; i < parts.length; i++) {
      String prefix = names[i] + "=";
      if (!parts[i].startsWith(prefix)) {
        throw new IllegalArgumentException("not a normalized limiter configuration: " + normalized);
      }
      String value = parts[i].substring(prefix.length());
      try {
        values[i] = value.equals("unset") ? UNSET : Long.parseLong(value);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "not a normalized limiter configuration: " + normalized, e);
      }
    }
    Builder b = builder();
    if (values[0] != UNSET) {
      b.maxConcurrent(values[0]);
    }
    b.minTime(Duration.ofMillis(values[1]));
    if (values[2] != UNSET) {
      b.expiration(Duration.ofMillis(values[2]));
    }
    if (values[3] != UNSET) {
      b.reservoir(values[3]);
    }
    if (values[4] != UNSET || values[5] != UNSET) {
      b.reservoirRefresh(values[4], Duration.ofMillis(values[5]));
    }
    if (values[6] < 0 || values[6] > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("not a normalized limiter configuration: " + normalized);
    }
    return b.localHandOffs((int) values[6]).recovery(recovery).build();
  }

  private static String text(long value) {
    return value == UNSET ? "unset" : Long.toString(value);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LimiterConfig other
        && maxConcurrent == other.maxConcurrent
        && minTimeMillis == other.minTimeMillis
        && expirationMillis == other.expirationMillis
        && reservoir == other.reservoir
        && refreshAmount == other.refreshAmount
        && refreshIntervalMillis == other.refreshIntervalMillis
        && localHandOffs == other.localHandOffs
        && recovery.equals(other.recovery);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        maxConcurrent,
        minTimeMillis,
        expirationMillis,
        reservoir,
        refreshAmount,
        refreshIntervalMillis,
        localHandOffs,
        recovery);
  }

  @Override
  public String toString() {
    return "LimiterConfig{" + normalizedForm().replace(';', ',') + "}";
  }

  /**
   * Builds a {@link LimiterConfig}. Each setter checks its argument at once and throws {@link
   * IllegalArgumentException} naming the field, the value and the allowed range.
   *
   * <p>Not thread-safe; {@link #build()} copies the settings, so a built configuration never
   * changes.
   */
  public static final class Builder {
    private long maxConcurrent = UNSET;
    private long minTimeMillis;
    private long expirationMillis = UNSET;
    private long reservoir = UNSET;
    private long refreshAmount = UNSET;
    private long refreshIntervalMillis = UNSET;
    private int localHandOffs;
    private RecoveryPolicy recovery = RecoveryPolicy.defaults();

    private Builder() {}

    /**
     * Sets the shared cooldown and circuit breaker (default {@link RecoveryPolicy#defaults()}:
     * cooldown 500 ms doubling to 10 s, no breaker). Part of the pool's configuration, so every
     * client must supply the same.
     *
     * @param recovery the policy
     * @return this builder
     */
    public Builder recovery(RecoveryPolicy recovery) {
      this.recovery = Objects.requireNonNull(recovery, "recovery");
      return this;
    }

    /**
     * Sets the largest total weight held at once. Unset means unlimited.
     *
     * @param maxConcurrent at least 1
     * @return this builder
     */
    public Builder maxConcurrent(long maxConcurrent) {
      this.maxConcurrent = Limits.positive("maxConcurrent", maxConcurrent);
      return this;
    }

    /**
     * Sets the minimum time between two admissions. Release, expiry and failure never refund it.
     *
     * @param minTime zero or more, at most 3650 days
     * @return this builder
     */
    public Builder minTime(Duration minTime) {
      this.minTimeMillis = Limits.millis("minTime", minTime, 0);
      return this;
    }

    /**
     * Sets the default lease lifetime. An expired lease returns its weight (not its tokens) to the
     * pool even while its callback still runs. Unset means leases never expire.
     *
     * @param expiration at least 1 ms, at most 3650 days
     * @return this builder
     */
    public Builder expiration(Duration expiration) {
      this.expirationMillis = Limits.millis("expiration", expiration, 1);
      return this;
    }

    /**
     * Sets the initial token balance. Each admission spends its weight in tokens. Unset means
     * unlimited.
     *
     * @param reservoir zero or more
     * @return this builder
     */
    public Builder reservoir(long reservoir) {
      this.reservoir = Limits.nonNegative("reservoir", reservoir);
      return this;
    }

    /**
     * Resets the reservoir to {@code amount} at every multiple of {@code interval} after the pool
     * was created. Missed windows do not accumulate; an unlimited reservoir becomes finite at the
     * first refill.
     *
     * @param amount zero or more tokens
     * @param interval at least 1 ms, at most 3650 days
     * @return this builder
     */
    public Builder reservoirRefresh(long amount, Duration interval) {
      long checkedAmount = Limits.nonNegative("reservoirRefresh amount", amount);
      this.refreshIntervalMillis = Limits.millis("reservoirRefresh interval", interval, 1);
      this.refreshAmount = checkedAmount;
      return this;
    }

    /**
     * Lets a JVM keep one request waiting in the pool's queue and hold its others, and pass a unit
     * it releases straight to its earliest held request (or, with none held, to its request in the
     * pool's queue), up to {@code handOffs} times per grant, before the unit goes back to the pool.
     * A pass to a held request starts it at once, in memory, with no store transaction and no
     * wake-up of another process: with many processes on one pool this multiplies throughput.
     *
     * <p>What it costs is order. With the default 0, requests are admitted in one order across
     * every JVM, the order they joined the pool's queue. With {@code handOffs} = n, that order
     * holds between grants from the pool, and each grant of a unit may be followed by up to n
     * admissions of the holding JVM's requests ahead of earlier requests of other JVMs: a waiting
     * request is passed by at most n admissions for each unit granted ahead of it.
     *
     * <p>A passed unit keeps its lease in the pool: {@link Admission#leaseId()} names that lease
     * for every request it serves in turn, while each request gets its own fencing token, above
     * every token issued before the unit's grant (the grant reserves the next n). With {@code
     * maxConcurrent(1)} tokens therefore still rise strictly in admission order; with more units
     * they rise strictly along each unit. {@link Limiter#inspect()} shows the lease, not the
     * request it serves. A request with its own lease lifetime is never passed a unit, and neither
     * is an attempt of a managed execution ({@code execute}, {@code call}, {@code http()}): its
     * acquire always goes to the store, which records its operation for drains, so executions gain
     * nothing from hand-offs.
     *
     * <p>Every admission must be seen by the store for spacing, the reservoir and lease expiry, so
     * a positive value cannot be combined with {@link #minTime}, {@link #reservoir}, {@link
     * #reservoirRefresh} or {@link #expiration}; {@link #build()} refuses such a combination.
     *
     * @param handOffs 0 to 65536
     * @return this builder
     */
    public Builder localHandOffs(int handOffs) {
      if (handOffs < 0 || handOffs > MAX_HAND_OFFS) {
        throw new IllegalArgumentException(
            "localHandOffs must be between 0 and " + MAX_HAND_OFFS + ", was " + handOffs);
      }
      this.localHandOffs = handOffs;
      return this;
    }

    /**
     * Returns the configuration.
     *
     * @throws IllegalArgumentException if {@link #localHandOffs} is positive together with a
     *     setting that needs every admission in the store
     */
    public LimiterConfig build() {
      if (localHandOffs > 0) {
        refuseWithHandOffs("minTime", minTimeMillis > 0, minTimeMillis + " ms");
        refuseWithHandOffs("expiration", expirationMillis != UNSET, expirationMillis + " ms");
        refuseWithHandOffs("reservoir", reservoir != UNSET, Long.toString(reservoir));
        refuseWithHandOffs("reservoirRefresh", refreshAmount != UNSET, refreshAmount + " tokens");
        refuseWithHandOffs("recovery breaker", recovery.breaker() != null, "a circuit breaker");
      }
      return new LimiterConfig(this);
    }

    private void refuseWithHandOffs(String field, boolean set, String value) {
      if (set) {
        throw new IllegalArgumentException(
            "localHandOffs="
                + localHandOffs
                + " cannot be combined with "
                + field
                + " ("
                + value
                + "): "
                + field
                + " needs every admission in the pool's store; use localHandOffs=0 or leave "
                + field
                + " unset");
      }
    }
  }
}
