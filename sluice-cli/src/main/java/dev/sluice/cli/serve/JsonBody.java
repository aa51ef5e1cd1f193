/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.serve;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The body of an action request: one flat JSON object of strings, whole numbers and booleans, read
 * with jackson-core's streaming parser. Every refusal names the field, the value and what is
 * allowed.
 *
 * <p>Immutable once read; thread-safe. Never blocks.
 */
final class JsonBody {
  private static final JsonFactory FACTORY = new JsonFactory();

  private final Map<String, Object> fields;

  private JsonBody(Map<String, Object> fields) {
    this.fields = fields;
  }

  /**
   * Reads {@code text}.
   *
   * @throws IllegalArgumentException if it is not one flat JSON object
   */
  static JsonBody parse(String text) {
    Map<String, Object> fields = new HashMap<>();
    try (JsonParser p = FACTORY.createParser(text)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IllegalArgumentException("the body must be one JSON object, was: " + cut(text));
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken t = p.nextToken();
        Object value =
            switch (t) {
              case VALUE_STRING -> p.getText();
              case VALUE_NUMBER_INT -> p.getLongValue();
              case VALUE_TRUE -> Boolean.TRUE;
              case VALUE_FALSE -> Boolean.FALSE;
              case VALUE_NULL -> null;
              default ->
                  throw new IllegalArgumentException(
                      "field '" + name + "' must be a string, a whole number or a boolean");
            };
        fields.put(name, value);
      }
      if (p.nextToken() != null) {
        throw new IllegalArgumentException("the body must hold one JSON object only");
      }
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("the body is not JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new IllegalArgumentException("the body cannot be read: " + e.getMessage());
    }
    return new JsonBody(fields);
  }

  /** A string field that must be there and not blank. */
  String text(String name) {
    Object v = fields.get(name);
    if (!(v instanceof String s) || s.isBlank()) {
      throw new IllegalArgumentException(
          "field '" + name + "' must be a non-empty string, was " + shown(v));
    }
    return s;
  }

  /** A string field that may be empty, or {@code absent} when it is not there. */
  String text(String name, String absent) {
    Object v = fields.get(name);
    if (v == null) {
      return absent;
    }
    if (v instanceof String s) {
      return s;
    }
    throw new IllegalArgumentException("field '" + name + "' must be a string, was " + shown(v));
  }

  /** A boolean field, or {@code absent} when it is not there. */
  boolean flag(String name, boolean absent) {
    Object v = fields.get(name);
    if (v == null) {
      return absent;
    }
    if (v instanceof Boolean b) {
      return b;
    }
    throw new IllegalArgumentException(
        "field '" + name + "' must be true or false, was " + shown(v));
  }

  /** A whole number from {@code min} to {@code max} that must be there. */
  int whole(String name, int min, int max) {
    Object v = fields.get(name);
    if (v instanceof Long n && n >= min && n <= max) {
      return n.intValue();
    }
    throw new IllegalArgumentException(
        "field '"
            + name
            + "' must be a whole number from "
            + min
            + " to "
            + max
            + ", was "
            + shown(v));
  }

  private static String shown(Object v) {
    return v == null ? "missing" : v instanceof String s ? "\"" + cut(s) + "\"" : v.toString();
  }

  private static String cut(String s) {
    return s.length() <= 80 ? s : s.substring(0, 80) + "...";
  }
}
