/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.mcp;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One argument of a tool: its name, JSON type, whether it is required, its bounds and its
 * description. The same record writes the argument's JSON schema and checks a value against it, so
 * what {@code tools/list} advertises and what a call is held to never drift apart.
 *
 * @param name the argument's name in the call's {@code arguments} object
 * @param type the JSON type
 * @param required whether a call must give it
 * @param description what it means, for the agent reading the schema
 * @param min the least value (integers) or length (strings, arrays)
 * @param max the greatest value (integers) or length (strings, arrays)
 * @param pattern a regular expression a string must match in full, or {@code null}
 * @param allowed the values a string may take, or empty for any
 */
public record Param(
    String name,
    Type type,
    boolean required,
    String description,
    long min,
    long max,
    String pattern,
    List<String> allowed) {

  /** The JSON types tool arguments use. */
  public enum Type {
    /** A JSON string. */
    STRING,
    /** A JSON number without a fraction. */
    INTEGER,
    /** {@code true} or {@code false}. */
    BOOLEAN,
    /** A JSON array of strings. */
    STRING_ARRAY
  }

  /** Checks the fields. */
  public Param {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(description, "description");
    allowed = List.copyOf(allowed);
    if (min > max) {
      throw new IllegalArgumentException(name + ": min " + min + " exceeds max " + max);
    }
  }

  /** A string of {@code min} to {@code max} characters. */
  public static Param text(String name, boolean required, int min, int max, String description) {
    return new Param(name, Type.STRING, required, description, min, max, null, List.of());
  }

  /** A whole number from {@code min} to {@code max}. */
  public static Param whole(String name, boolean required, long min, long max, String description) {
    return new Param(name, Type.INTEGER, required, description, min, max, null, List.of());
  }

  /** {@code true} or {@code false}. */
  public static Param flag(String name, String description) {
    return new Param(name, Type.BOOLEAN, false, description, 0, 0, null, List.of());
  }

  /** One of {@code allowed}. */
  public static Param oneOf(String name, List<String> allowed, String description) {
    return new Param(name, Type.STRING, false, description, 0, Integer.MAX_VALUE, null, allowed);
  }

  /** An array of at most {@code max} strings of 1 to 128 characters each. */
  public static Param texts(String name, int max, String description) {
    return new Param(name, Type.STRING_ARRAY, false, description, 0, max, null, List.of());
  }

  /** This argument, but its strings must match {@code regex} in full. */
  public Param matching(String regex) {
    Pattern.compile(regex);
    return new Param(name, type, required, description, min, max, regex, allowed);
  }

  /** The argument's JSON schema, as {@code tools/list} shows it. */
  public Map<String, Object> schema() {
    Map<String, Object> s = new LinkedHashMap<>();
    switch (type) {
      case STRING -> {
        s.put("type", "string");
        if (!allowed.isEmpty()) {
          s.put("enum", allowed);
        } else {
          s.put("minLength", min);
          s.put("maxLength", max);
        }
        if (pattern != null) {
          s.put("pattern", "^" + pattern + "$");
        }
      }
      case INTEGER -> {
        s.put("type", "integer");
        s.put("minimum", min);
        s.put("maximum", max);
      }
      case BOOLEAN -> s.put("type", "boolean");
      case STRING_ARRAY -> {
        s.put("type", "array");
        s.put("items", Map.of("type", "string", "minLength", 1, "maxLength", 128));
        s.put("maxItems", max);
      }
    }
    s.put("description", description);
    return s;
  }

  /**
   * Checks {@code value} (as the JSON parser gave it) and returns it in its Java form: a {@link
   * String}, a {@link Long}, a {@link Boolean} or a {@code List<String>}.
   *
   * @throws BadArgument naming this argument, the value and what is allowed
   */
  Object check(Object value) {
    return switch (type) {
      case STRING -> checkText(value);
      case INTEGER -> checkWhole(value);
      case BOOLEAN -> {
        if (!(value instanceof Boolean b)) {
          throw new BadArgument(name, value, "true or false");
        }
        yield b;
      }
      case STRING_ARRAY -> checkTexts(value);
    };
  }

  private String checkText(Object value) {
    if (!allowed.isEmpty()) {
      if (!(value instanceof String s) || !allowed.contains(s)) {
        throw new BadArgument(name, value, "one of " + String.join(", ", allowed));
      }
      return s;
    }
    String what = "a string of " + min + " to " + max + " characters";
    if (!(value instanceof String s) || s.length() < min || s.length() > max) {
      throw new BadArgument(name, value, what);
    }
    if (s.chars().anyMatch(Character::isISOControl)) {
      throw new BadArgument(name, value, what + " without control characters");
    }
    if (pattern != null && !s.matches(pattern)) {
      throw new BadArgument(name, value, "a string matching " + pattern);
    }
    return s;
  }

  private Long checkWhole(Object value) {
    String what = "a whole number from " + min + " to " + max;
    long n;
    if (value instanceof Integer || value instanceof Long || value instanceof Short) {
      n = ((Number) value).longValue();
    } else if (value instanceof java.math.BigInteger b && b.bitLength() < 64) {
      n = b.longValue();
    } else if (value instanceof Number d
        && !(value instanceof java.math.BigInteger)
        && d.doubleValue() == Math.rint(d.doubleValue())
        && Math.abs(d.doubleValue()) < 1e15) {
      // A client may send 2.0 for 2; a fraction is refused below.
      n = (long) d.doubleValue();
    } else {
      throw new BadArgument(name, value, what);
    }
    if (n < min || n > max) {
      throw new BadArgument(name, value, what);
    }
    return n;
  }

  private List<String> checkTexts(Object value) {
    String what = "an array of at most " + max + " strings of 1 to 128 characters";
    if (!(value instanceof List<?> list) || list.size() > max) {
      throw new BadArgument(name, value, what);
    }
    for (Object item : list) {
      if (!(item instanceof String s) || s.isEmpty() || s.length() > 128) {
        throw new BadArgument(name, value, what);
      }
    }
    @SuppressWarnings("unchecked")
    List<String> strings = (List<String>) list;
    return List.copyOf(strings);
  }
}
