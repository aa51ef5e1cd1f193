/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.store;

import dev.sluice.gate.ConfigFileException;
import dev.sluice.gate.internal.ConfigRules;
import dev.sluice.gate.internal.ConfigText;
import dev.sluice.gate.internal.GateState;
import java.io.IOException;

/**
 * What a store's first transaction does with its home's configuration file: it adopts the file's
 * values (each changed key recorded as an edit by hand), and a file with lines the gate cannot use
 * is either refused or, for the verbs that show and fix it, passed over. Immutable and thread-safe.
 */
public enum ConfigMode {
  /** Refuse a file the gate cannot use: the operation fails with {@link ConfigFileException}. */
  ENFORCE,
  /** Go on with the values last adopted, so that the file can be shown and fixed. */
  REPAIR;

  private static final String ADVICE =
      "until it is fixed (by hand, or with sluice config set KEY VALUE or sluice config unset KEY;"
          + " sluice config get shows every problem) every gate command but sluice config refuses"
          + " to run";

  /**
   * Adopts the file's values into {@code s}; call under the gate, so that no change another process
   * made meanwhile is undone.
   *
   * @throws ConfigFileException in {@link #ENFORCE} mode, if the file has a line the gate cannot
   *     use; nothing is changed
   * @throws IOException if the file cannot be read
   */
  void adopt(ConfigFile file, GateState s, long now) throws IOException {
    ConfigText text = file.read();
    if (!text.problems().isEmpty()) {
      if (this == ENFORCE) {
        throw new ConfigFileException(file.path(), text.problems(), ADVICE);
      }
      return;
    }
    if (text.values().isEmpty() && s.config().isEmpty()) {
      // No value in the file and none adopted before: the home runs on its own settings either
      // way, so there is nothing to adopt or record. Skipping the rules (every key's default
      // rendered and compared) saves a short command such as sluice run about 15 ms of its start.
      return;
    }
    new ConfigRules(s).adopt(text.values(), ConfigRules.Intent.fileEdit(), now);
  }
}
