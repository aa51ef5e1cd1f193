/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import java.util.Objects;

/**
 * One configuration key's value as the gate uses it, and where it comes from.
 *
 * @param text the value in the gate's syntax ({@code 30s}, {@code 4}, {@code build}); empty for a
 *     key that no longer has one (an unknown key's line removed from the file)
 * @param source the configuration file, or the home's default
 */
public record ConfigValue(String text, Source source) {
  /** Where a value comes from. */
  public enum Source {
    /** The home's default: the documented one, unless the home was made with other settings. */
    DEFAULT,
    /** A line of the configuration file. */
    FILE
  }

  /** Checks both fields are present. */
  public ConfigValue {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(source, "source");
  }

  /** For people: {@code 5m}, {@code 30s (default)}, or {@code (none)}. */
  public String describe() {
    if (text.isEmpty()) {
      return "(none)";
    }
    return text + (source == Source.DEFAULT ? " (default)" : "");
  }
}
