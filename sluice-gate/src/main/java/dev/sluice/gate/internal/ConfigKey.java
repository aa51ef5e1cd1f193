/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import dev.sluice.gate.AcquireRequest;
import dev.sluice.gate.DurationText;
import dev.sluice.gate.GateSettings;
import java.time.Duration;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * One key of the configuration file: its name, what it does, what values it allows, how its text is
 * read and printed, and which part of {@link GateConfig} it reads and sets. Immutable and
 * thread-safe.
 *
 * @param <T> the value's type
 */
public final class ConfigKey<T> {
  private static final Pattern WHOLE = Pattern.compile("[0-9]{1,10}");

  private final String name;
  private final String description;
  private final String allowed;
  private final Function<String, T> parse;
  private final Function<T, String> format;
  private final Function<GateConfig, T> get;
  private final BiConsumer<GateConfig.Builder, T> set;

  private ConfigKey(
      String name,
      String description,
      String allowed,
      Function<String, T> parse,
      Function<T, String> format,
      Function<GateConfig, T> get,
      BiConsumer<GateConfig.Builder, T> set) {
    this.name = name;
    this.description = description;
    this.allowed = allowed;
    this.parse = parse;
    this.format = format;
    this.get = get;
    this.set = set;
  }

  /** A duration setting from {@code min} to {@code max}, in the gate's duration syntax. */
  static ConfigKey<Duration> duration(
      String name,
      Duration min,
      Duration max,
      Function<GateSettings, Duration> get,
      BiConsumer<GateSettings.Builder, Duration> set,
      String description) {
    String allowed =
        "a duration from "
            + DurationText.format(min)
            + " to "
            + DurationText.format(max)
            + " (such as 500ms, 30s, 2m, 1h, 7d, plain seconds 30, or ISO-8601 PT30S)";
    Function<String, Duration> parse =
        text -> {
          Duration d;
          try {
            d = DurationText.parse(text);
          } catch (IllegalArgumentException e) {
            return null;
          }
          return d.compareTo(min) < 0 || d.compareTo(max) > 0 ? null : d;
        };
    return new ConfigKey<>(
        name,
        description,
        allowed,
        parse,
        DurationText::format,
        c -> get.apply(c.settings()),
        (b, v) -> set.accept(b.settings, v));
  }

  /** A whole-number setting from {@code min} to {@code max}. */
  static ConfigKey<Integer> whole(
      String name,
      int min,
      int max,
      Function<GateSettings, Integer> get,
      BiConsumer<GateSettings.Builder, Integer> set,
      String description) {
    Function<String, Integer> parse =
        text -> {
          if (!WHOLE.matcher(text).matches()) {
            return null;
          }
          long v = Long.parseLong(text);
          return v < min || v > max ? null : (int) v;
        };
    return new ConfigKey<>(
        name,
        description,
        "a whole number from " + min + " to " + max,
        parse,
        String::valueOf,
        c -> get.apply(c.settings()),
        (b, v) -> set.accept(b.settings, v));
  }

  /**
   * The default pool: any well-formed pool name here; that it names a pool that exists is checked
   * when it is set and when it is used, as pools come and go.
   */
  static ConfigKey<String> pool(String name, String description) {
    Function<String, String> parse =
        text -> {
          try {
            return AcquireRequest.poolName(text);
          } catch (IllegalArgumentException e) {
            return null;
          }
        };
    return new ConfigKey<>(
        name,
        description,
        "the name of a pool set up with sluice pool set, or "
            + AcquireRequest.DEFAULT_POOL
            + " (1 to 64 of A-Z a-z 0-9 . _ -, starting with a letter or digit)",
        parse,
        Function.identity(),
        GateConfig::defaultPool,
        (b, v) -> b.defaultPool = v);
  }

  /** The key, for example {@code offer.ttl}. */
  public String name() {
    return name;
  }

  /** What the key does. */
  public String description() {
    return description;
  }

  /** What values the key allows. */
  public String allowed() {
    return allowed;
  }

  /**
   * Reads a value and prints it back in the gate's own form ({@code PT5M} becomes {@code 5m}).
   *
   * @param text the value as written; surrounding blanks are ignored
   * @throws IllegalArgumentException naming the key, the value and what is allowed
   */
  public String canonical(String text) {
    return format.apply(value(text));
  }

  /** Whether {@code text} is a value this key allows. */
  boolean allows(String text) {
    return text != null && parse.apply(text.strip()) != null;
  }

  /** The value as {@code config} prints it. */
  public String text(GateConfig config) {
    return format.apply(get.apply(config));
  }

  /** Sets this key of {@code to} from its text, already checked. */
  void apply(GateConfig.Builder to, String text) {
    set.accept(to, value(text));
  }

  /** Sets this key of {@code to} as {@code from} has it. */
  void copy(GateConfig from, GateConfig.Builder to) {
    set.accept(to, get.apply(from));
  }

  private T value(String text) {
    T v = text == null ? null : parse.apply(text.strip());
    if (v == null) {
      throw new IllegalArgumentException(problem(text));
    }
    return v;
  }

  /** What is wrong with {@code text} as this key's value: {@code key = 'text': not ...}. */
  String problem(String text) {
    return name + " = '" + text + "': not " + allowed;
  }
}
