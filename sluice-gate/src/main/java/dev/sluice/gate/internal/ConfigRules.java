/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import dev.sluice.gate.AcquireRequest;
import dev.sluice.gate.ConfigChange;
import dev.sluice.gate.ConfigValue;
import dev.sluice.gate.GateException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How the gate adopts its configuration file's values: every key whose value (or source) differs
 * from the values last adopted is recorded in the configuration history and the event feed, and the
 * settings follow at once, for every process that reads the state after. A refused change throws
 * before it changes anything.
 *
 * <p>Not thread-safe: a store applies one transition at a time.
 */
public final class ConfigRules {
  /** The event a configuration change writes to the feed. */
  public static final String EVENT = "config_changed";

  private final GateState s;

  /**
   * Rules over one state.
   *
   * @param state the state they change
   */
  public ConfigRules(GateState state) {
    this.s = state;
  }

  /**
   * Who changes the configuration, and how.
   *
   * @param key the key the actor set or unset, or empty for none (an edit by hand)
   * @param via how that key was changed; every other key that differs changed by hand
   * @param actor who, empty for an edit by hand
   * @param reason why, possibly empty
   */
  public record Intent(String key, ConfigChange.Via via, String actor, String reason) {
    /** Checks the fields: the actor and reason as for a capacity change. */
    public Intent {
      AcquireRequest.text("actor", actor, via == ConfigChange.Via.FILE_EDIT ? 0 : 1, 128);
      AcquireRequest.text("reason", reason, 0, 500);
    }

    /** What the first gate command after an edit by hand records. */
    public static Intent fileEdit() {
      return new Intent("", ConfigChange.Via.FILE_EDIT, "", "");
    }
  }

  /**
   * Adopts the file's checked values, recording each key that changed.
   *
   * @param values each key the file sets, in the gate's own form
   * @param intent who changes what
   * @param now store milliseconds
   * @return the changes, in the keys' order; empty when nothing differs
   * @throws GateException {@code unknown_pool} when {@code intent} sets {@code default.pool} to a
   *     pool that is not set up; nothing is changed
   */
  public List<ConfigChange> adopt(Map<String, String> values, Intent intent, long now) {
    GateConfig base = ConfigKeys.base(s.base);
    GateConfig next = ConfigKeys.overlay(s.base, values);
    if (intent.key().equals("default.pool") && intent.via() == ConfigChange.Via.SET) {
      requireSetUp(next.defaultPool());
    }
    List<ConfigChange> changes = new ArrayList<>();
    for (ConfigKey<?> k : ConfigKeys.ALL) {
      ConfigValue before = value(k, s.config, base);
      ConfigValue after = value(k, values, base);
      if (!before.equals(after)) {
        boolean mine = k.name().equals(intent.key());
        Intent who = mine ? intent : Intent.fileEdit();
        changes.add(
            new ConfigChange(
                Instant.ofEpochMilli(now),
                k.name(),
                who.via(),
                before,
                after,
                who.actor(),
                who.reason()));
      }
    }
    s.configure(values);
    for (ConfigChange c : changes) {
      s.configHistory.add(c);
      s.event(now, EVENT, "", "", c.actor(), c.describe());
    }
    return changes;
  }

  private static ConfigValue value(ConfigKey<?> k, Map<String, String> values, GateConfig base) {
    String text = values.get(k.name());
    return text == null
        ? new ConfigValue(k.text(base), ConfigValue.Source.DEFAULT)
        : new ConfigValue(text, ConfigValue.Source.FILE);
  }

  private void requireSetUp(String pool) {
    PoolRules pools = new PoolRules(s);
    if (pools.usable(pool)) {
      return;
    }
    throw new GateException(
        GateException.Code.UNKNOWN_POOL,
        "default.pool = '"
            + pool
            + "': no pool '"
            + pool
            + "' (known pools: "
            + pools.known()
            + "); set it up first with: sluice pool set "
            + pool
            + " --capacity N, or choose "
            + AcquireRequest.DEFAULT_POOL);
  }
}
