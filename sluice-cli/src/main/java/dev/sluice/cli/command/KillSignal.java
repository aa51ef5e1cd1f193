/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The signals {@code sluice kill --signal} may send first: those that ask a command to end. SIGKILL
 * follows any of them after the grace period; KILL itself cannot be refused. Immutable and
 * thread-safe.
 */
enum KillSignal {
  TERM,
  INT,
  HUP,
  QUIT,
  USR1,
  USR2,
  KILL;

  /** The name as people and events say it, for example {@code SIGTERM}. */
  String wireName() {
    return "SIG" + name();
  }

  /** Reads {@code TERM}, {@code SIGTERM} or {@code term}; a refusal lists what is allowed. */
  static final class Converter implements ITypeConverter<KillSignal> {
    @Override
    public KillSignal convert(String text) {
      String name = text.strip().toUpperCase(Locale.ROOT);
      name = name.startsWith("SIG") ? name.substring(3) : name;
      for (KillSignal s : values()) {
        if (s.name().equals(name)) {
          return s;
        }
      }
      throw new TypeConversionException(
          "'"
              + text
              + "' is not a signal kill sends; give one of "
              + Arrays.stream(values()).map(Enum::name).collect(Collectors.joining(", "))
              + " (with or without SIG)");
    }
  }
}
