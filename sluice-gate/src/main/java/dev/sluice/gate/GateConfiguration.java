/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import dev.sluice.gate.internal.ConfigKey;
import dev.sluice.gate.internal.ConfigKeys;
import dev.sluice.gate.internal.ConfigRules;
import dev.sluice.gate.internal.ConfigText;
import dev.sluice.gate.internal.GateConfig;
import dev.sluice.gate.store.ConfigFile;
import dev.sluice.gate.store.ConfigMode;
import dev.sluice.gate.store.GateStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The configuration of a gate home: its file {@code config.properties} (one {@code key = value} per
 * line), shown key by key with where each value comes from, changed with a recorded history, and
 * repaired. Unlike {@link GateService}, it works while the file has lines the gate cannot use, so
 * that they can be seen and fixed one by one: {@link #set} and {@link #unset} change their own
 * key's line (an unknown key's line too) whatever the other lines hold. While other lines are still
 * bad, only that key's change takes effect; the rest of the file does once it is all usable.
 *
 * <p>A value is checked before anything is written, and a refused change changes nothing. A change
 * rewrites the file whole (a temporary file made durable, then renamed) and records it in the
 * gate's store in one durable transaction under the home's gate lock, so two processes that change
 * the configuration at once both keep their change; every process that reads the gate after it uses
 * the new value, waiting ones included. An edit of the file by hand is recorded by the next gate
 * command, which also refuses the file if the gate cannot use it.
 *
 * <p>Thread-safe. Nothing is opened until the first call that needs the home (a refused key or
 * value opens nothing); each call then blocks for the gate lock and its file I/O.
 */
public final class GateConfiguration implements AutoCloseable {
  private final Path home;
  private GateStore store;

  private GateConfiguration(Path home) {
    this.home = home;
  }

  /**
   * The configuration of the gate in {@code home}; nothing is opened or created yet.
   *
   * @param home the gate's home directory
   */
  public static GateConfiguration open(Path home) {
    return new GateConfiguration(Objects.requireNonNull(home, "home").toAbsolutePath());
  }

  /** Every key, in the documented order. */
  public static List<String> keys() {
    return ConfigKeys.ALL.stream().map(ConfigKey::name).toList();
  }

  /**
   * Checks that {@code key} is a configuration key.
   *
   * @throws IllegalArgumentException naming the unknown key, the nearest known one and every key
   */
  public static void requireKey(String key) {
    ConfigKeys.require(key);
  }

  /** The configuration file (it may not exist yet). */
  public Path file() {
    return home.resolve(ConfigFile.NAME);
  }

  /** Every known key with its value and source, and every line of the file the gate cannot use. */
  public ConfigView view() {
    return store()
        .transact(
            tx -> {
              ConfigText text = store().configFile().read();
              GateConfig base = ConfigKeys.base(tx.state().baseSettings());
              List<ConfigEntry> entries = new ArrayList<>();
              for (ConfigKey<?> k : ConfigKeys.ALL) {
                entries.add(entry(k, text, base));
              }
              return new ConfigView(store().configFile().path(), entries, text.problems());
            });
  }

  private static ConfigEntry entry(ConfigKey<?> k, ConfigText text, GateConfig base) {
    int line = text.lineOf(k.name());
    String valid = text.values().get(k.name());
    String problem =
        text.problems().stream()
            .filter(p -> p.key().equals(k.name()))
            .map(ConfigProblem::message)
            .findFirst()
            .orElse("");
    ConfigValue value;
    if (valid != null) {
      value = new ConfigValue(valid, ConfigValue.Source.FILE);
    } else if (line > 0) {
      value = new ConfigValue(text.written(k.name()).orElse(""), ConfigValue.Source.FILE);
    } else {
      value = new ConfigValue(k.text(base), ConfigValue.Source.DEFAULT);
    }
    return new ConfigEntry(
        k.name(), value, line, problem, k.text(base), k.allowed(), k.description());
  }

  /**
   * Sets {@code key} to {@code value} in the file and records the change. Setting the value a key
   * already has changes and records nothing.
   *
   * @param actor who, 1 to 128 characters
   * @param reason why, at most 500 characters, possibly empty
   * @return the change ({@link ConfigChange#changed()} is false when nothing changed)
   * @throws IllegalArgumentException for an unknown key (naming the nearest and every key), a value
   *     the key does not allow (naming both and what is allowed), or a bad actor or reason, before
   *     anything is opened
   * @throws GateException {@code unknown_pool} for a {@code default.pool} that is not set up
   */
  public ConfigChange set(String key, String value, String actor, String reason) {
    String canonical = ConfigKeys.require(key).canonical(value);
    ConfigRules.Intent intent = new ConfigRules.Intent(key, ConfigChange.Via.SET, actor, reason);
    return change(intent, text -> text.with(key, canonical));
  }

  /**
   * Removes {@code key} from the file, so it takes its default again, and records the change. An
   * unknown key can be unset only to remove its line; that is not recorded, as it never took
   * effect.
   *
   * @return the change ({@link ConfigChange#changed()} is false when nothing changed)
   * @throws IllegalArgumentException for a key neither known nor in the file, or a bad actor or
   *     reason, before anything is opened
   */
  public ConfigChange unset(String key, String actor, String reason) {
    ConfigRules.Intent intent = new ConfigRules.Intent(key, ConfigChange.Via.UNSET, actor, reason);
    if (ConfigKeys.find(key).isEmpty() && readQuietly().lineOf(key) == 0) {
      throw new IllegalArgumentException(ConfigKeys.unknown(key));
    }
    return change(intent, text -> text.without(key));
  }

  /** Every configuration change, oldest first. */
  public List<ConfigChange> history() {
    return store().transact(tx -> tx.state().configHistory());
  }

  private ConfigText readQuietly() {
    try {
      return ConfigFile.read(file());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file() + ": " + e.getMessage(), e);
    }
  }

  private ConfigChange change(ConfigRules.Intent intent, UnaryOperator<ConfigText> edit) {
    GateStore s = store();
    return s.transactDurably(
        tx -> {
          ConfigFile file = s.configFile();
          ConfigText before = file.read();
          ConfigText after = edit.apply(before);
          Map<String, String> was = tx.state().config();
          ConfigValue old = current(intent.key(), was, before, tx.state().baseSettings());
          List<ConfigChange> changes =
              new ConfigRules(tx.state())
                  .adopt(adoptable(after, was, intent.key()), intent, tx.now());
          if (!after.render().equals(before.render())) {
            file.write(after);
          }
          return changes.stream()
              .filter(c -> c.key().equals(intent.key()))
              .findFirst()
              .orElseGet(() -> unchanged(intent, old, tx.now()));
        });
  }

  /**
   * What the change puts in force: the whole file once every line is usable, else only the changed
   * key (the gate stays stopped by the other lines, which take effect once they are fixed).
   */
  private static Map<String, String> adoptable(
      ConfigText after, Map<String, String> adopted, String key) {
    if (after.problems().isEmpty()) {
      return after.values();
    }
    Map<String, String> values = new LinkedHashMap<>(adopted);
    String mine = after.values().get(key);
    if (mine == null) {
      values.remove(key);
    } else {
      values.put(key, mine);
    }
    return values;
  }

  /** A key's value before the change; for an unknown key, its line as written. */
  private static ConfigValue current(
      String key, Map<String, String> adopted, ConfigText text, GateSettings base) {
    if (ConfigKeys.find(key).isEmpty()) {
      return new ConfigValue(text.written(key).orElse(""), ConfigValue.Source.FILE);
    }
    String v = adopted.get(key);
    return v != null
        ? new ConfigValue(v, ConfigValue.Source.FILE)
        : new ConfigValue(
            ConfigKeys.require(key).text(ConfigKeys.base(base)), ConfigValue.Source.DEFAULT);
  }

  /** The answer when nothing was recorded for the key: unchanged, or an unknown key's line gone. */
  private static ConfigChange unchanged(ConfigRules.Intent intent, ConfigValue old, long now) {
    boolean unknown = ConfigKeys.find(intent.key()).isEmpty();
    ConfigValue after = unknown ? new ConfigValue("", ConfigValue.Source.DEFAULT) : old;
    return new ConfigChange(
        Instant.ofEpochMilli(now),
        intent.key(),
        intent.via(),
        old,
        after,
        intent.actor(),
        intent.reason());
  }

  private synchronized GateStore store() {
    if (store == null) {
      store = GateStore.open(home, GateSettings.defaults(), Clock.systemUTC(), ConfigMode.REPAIR);
    }
    return store;
  }

  /** Closes the store if a call opened it. */
  @Override
  public synchronized void close() {
    if (store != null) {
      store.close();
      store = null;
    }
  }
}
