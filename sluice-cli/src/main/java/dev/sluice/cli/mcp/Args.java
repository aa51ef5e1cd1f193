/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.mcp;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A tool call's arguments, checked against the tool's {@link Param}s: every given argument is one
 * of them and has an allowed value, every required one is given. Immutable once checked.
 */
final class Args {
  private final Map<String, Object> values;

  private Args(Map<String, Object> values) {
    this.values = values;
  }

  /**
   * Checks {@code given} against {@code params}.
   *
   * @param tool the tool's name, for the messages
   * @throws BadArgument for an unknown argument, a missing required one or a value not allowed
   */
  static Args check(String tool, List<Param> params, Map<String, Object> given) {
    Map<String, Param> byName = new LinkedHashMap<>();
    params.forEach(p -> byName.put(p.name(), p));
    Map<String, Object> raw = given == null ? Map.of() : given;
    for (Map.Entry<String, Object> e : raw.entrySet()) {
      if (!byName.containsKey(e.getKey())) {
        String takes =
            byName.isEmpty()
                ? tool + " takes no arguments"
                : tool + " takes " + String.join(", ", byName.keySet());
        throw new BadArgument(
            e.getKey(), e.getValue(), "left out (" + takes + "; the agent is the MCP session's)");
      }
    }
    Map<String, Object> values = new HashMap<>();
    for (Param p : params) {
      Object v = raw.get(p.name());
      if (v == null) {
        if (p.required()) {
          throw new BadArgument(p.name(), null, describe(p) + " (required)");
        }
        continue;
      }
      values.put(p.name(), p.check(v));
    }
    return new Args(values);
  }

  private static String describe(Param p) {
    return switch (p.type()) {
      case STRING ->
          p.allowed().isEmpty()
              ? "a string of " + p.min() + " to " + p.max() + " characters"
              : "one of " + p.allowed().stream().collect(Collectors.joining(", "));
      case INTEGER -> "a whole number from " + p.min() + " to " + p.max();
      case BOOLEAN -> "true or false";
      case STRING_ARRAY -> "an array of strings";
    };
  }

  /** A string argument, or {@code fallback} when it was not given. */
  String text(String name, String fallback) {
    Object v = values.get(name);
    return v == null ? fallback : (String) v;
  }

  /** A required string argument. */
  String text(String name) {
    return (String) values.get(name);
  }

  /** Whether the argument was given. */
  boolean has(String name) {
    return values.containsKey(name);
  }

  /** A whole-number argument, or {@code fallback} when it was not given. */
  long whole(String name, long fallback) {
    Object v = values.get(name);
    return v == null ? fallback : (Long) v;
  }

  /** A boolean argument, {@code false} when it was not given. */
  boolean flag(String name) {
    return Boolean.TRUE.equals(values.get(name));
  }

  /** A string-array argument, empty when it was not given. */
  @SuppressWarnings("unchecked")
  List<String> texts(String name) {
    Object v = values.get(name);
    return v == null ? List.of() : (List<String>) v;
  }
}
