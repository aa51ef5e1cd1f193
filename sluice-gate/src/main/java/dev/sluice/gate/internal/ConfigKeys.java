/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import dev.sluice.gate.AcquireRequest;
import dev.sluice.gate.DurationText;
import dev.sluice.gate.GateSettings;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The keys of the gate's configuration file, in the documented order. One line adds a key: a {@link
 * GateSettings} field with its reader, its builder method, its range and what it does. Every field
 * of {@link GateSettings} has a key here, so that a home's own defaults (see {@link #overlay})
 * carry over whole. Stateless and thread-safe.
 */
public final class ConfigKeys {
  private static final Duration SECOND = Duration.ofSeconds(1);
  private static final Duration MINUTE = Duration.ofMinutes(1);
  private static final Duration DAY = Duration.ofDays(1);

  /** Every key, in the documented order. */
  public static final List<ConfigKey<?>> ALL =
      List.of(
          ConfigKey.pool(
              "default.pool",
              "the pool run and acquire use without --pool: one set up with pool set, or default"),
          ConfigKey.whole(
              "default.capacity",
              1,
              AcquireRequest.MAX_WEIGHT,
              GateSettings::defaultCapacity,
              GateSettings.Builder::defaultCapacity,
              "the capacity the default pool is made with, by its first request"),
          ConfigKey.duration(
              "offer.ttl",
              SECOND,
              DAY,
              GateSettings::offerTtl,
              GateSettings.Builder::offerTtl,
              "how long an offer reserves capacity for its claim"),
          ConfigKey.duration(
              "start.deadline",
              SECOND,
              DAY,
              GateSettings::startDeadline,
              GateSettings.Builder::startDeadline,
              "how long a claimed permit may wait for its work to start"),
          ConfigKey.duration(
              "untracked.lease",
              SECOND,
              DAY,
              GateSettings::untrackedLease,
              GateSettings.Builder::untrackedLease,
              "how long a permit without a process lives after its last heartbeat"),
          ConfigKey.duration(
              "long.hold",
              MINUTE,
              DurationText.MAX,
              GateSettings::longHold,
              GateSettings.Builder::longHold,
              "a hold longer than this is flagged by diagnose (never revoked)"),
          ConfigKey.whole(
              "events.kept",
              100,
              1_000_000,
              GateSettings::eventsKept,
              GateSettings.Builder::eventsKept,
              "events kept at most"),
          ConfigKey.duration(
              "events.max-age",
              MINUTE,
              DurationText.MAX,
              GateSettings::eventsMaxAge,
              GateSettings.Builder::eventsMaxAge,
              "events are kept at most this long"),
          ConfigKey.duration(
              "terminal.retention",
              MINUTE,
              DAY,
              GateSettings::terminalRetention,
              GateSettings.Builder::terminalRetention,
              "how long an ended request (and its --op key and tokens) still answers"),
          ConfigKey.duration(
              "job.log-retention",
              MINUTE,
              DurationText.MAX,
              GateSettings::jobLogRetention,
              GateSettings.Builder::jobLogRetention,
              "how long a submitted job's record and log are kept after it ended"));

  private ConfigKeys() {}

  /** The key named {@code name}, if there is one. */
  public static Optional<ConfigKey<?>> find(String name) {
    return ALL.stream().filter(k -> k.name().equals(name)).findFirst();
  }

  /**
   * The key named {@code name}.
   *
   * @throws IllegalArgumentException naming the unknown key, the nearest known one and every key
   */
  public static ConfigKey<?> require(String name) {
    return find(name).orElseThrow(() -> new IllegalArgumentException(unknown(name)));
  }

  /** Why {@code name} is refused: unknown, the nearest key if one is near, and every key. */
  public static String unknown(String name) {
    return "unknown key '" + name + "'" + suggestion(name) + "; the keys are " + names();
  }

  /** {@code " (did you mean offer.ttl?)"}, or empty when no key is near {@code name}. */
  static String suggestion(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    ConfigKey<?> best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (ConfigKey<?> k : ALL) {
      int d = distance(lower, k.name());
      if (d < bestDistance) {
        best = k;
        bestDistance = d;
      }
    }
    return bestDistance <= 3 ? " (did you mean " + best.name() + "?)" : "";
  }

  /** Every key's name, comma-separated. */
  public static String names() {
    return ALL.stream().map(ConfigKey::name).collect(Collectors.joining(", "));
  }

  /** Levenshtein distance: the fewest one-character edits that turn {@code a} into {@code b}. */
  private static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int replace = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(replace, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] t = previous;
      previous = current;
      current = t;
    }
    return previous[b.length()];
  }

  /** The configuration of a home with no configuration file: its own settings, pool default. */
  public static GateConfig base(GateSettings settings) {
    return new GateConfig(settings, AcquireRequest.DEFAULT_POOL);
  }

  /**
   * A home's settings with the file's values over them, key by key.
   *
   * @param base the settings the home was made with
   * @param values checked values by key; keys this version does not know are passed over (a newer
   *     Sluice may have stored them, and this one's own file check refuses them)
   * @throws IllegalArgumentException if a value is not allowed
   */
  public static GateConfig overlay(GateSettings base, Map<String, String> values) {
    GateConfig from = base(base);
    GateConfig.Builder b = new GateConfig.Builder();
    for (ConfigKey<?> k : ALL) {
      k.copy(from, b);
      String text = values.get(k.name());
      if (text != null) {
        k.apply(b, text);
      }
    }
    return b.build();
  }
}
