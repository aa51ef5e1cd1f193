/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON document read with jackson-core's streaming parser into maps, lists, strings, longs and
 * booleans, with accessors that fail with the missing or mistyped field's name. The gate's stored
 * documents are small; the streaming core starts in a fraction of the time the data-binding layer
 * takes, which every short-lived {@code sluice} call pays.
 *
 * <p>Immutable after reading; thread-safe.
 */
final class JsonDoc {
  static final JsonFactory FACTORY = new JsonFactory();

  private final Map<String, Object> fields;

  private JsonDoc(Map<String, Object> fields) {
    this.fields = fields;
  }

  /**
   * Parses an object.
   *
   * @throws IOException if the text is not a JSON object
   */
  static JsonDoc parse(String text) throws IOException {
    try (JsonParser p = FACTORY.createParser(text)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("not a JSON object");
      }
      return new JsonDoc(object(p));
    }
  }

  private static Map<String, Object> object(JsonParser p) throws IOException {
    Map<String, Object> out = new LinkedHashMap<>();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      p.nextToken();
      out.put(name, value(p));
    }
    return out;
  }

  private static Object value(JsonParser p) throws IOException {
    return switch (p.currentToken()) {
      case START_OBJECT -> object(p);
      case START_ARRAY -> {
        List<Object> list = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          list.add(value(p));
        }
        yield list;
      }
      case VALUE_STRING -> p.getText();
      case VALUE_NUMBER_INT -> p.getLongValue();
      case VALUE_TRUE -> Boolean.TRUE;
      case VALUE_FALSE -> Boolean.FALSE;
      case VALUE_NULL -> null;
      default -> throw new IOException("unexpected " + p.currentToken());
    };
  }

  boolean has(String field) {
    return fields.get(field) != null;
  }

  String str(String field) {
    return need(field, String.class);
  }

  long num(String field) {
    return need(field, Long.class);
  }

  int integer(String field) {
    return Math.toIntExact(num(field));
  }

  JsonDoc doc(String field) {
    return wrap(field, need(field, Object.class));
  }

  List<JsonDoc> docs(String field) {
    List<JsonDoc> out = new ArrayList<>();
    for (Object o : need(field, List.class)) {
      out.add(wrap(field, o));
    }
    return out;
  }

  List<String> strings(String field) {
    List<String> out = new ArrayList<>();
    for (Object o : need(field, List.class)) {
      if (!(o instanceof String s)) {
        throw new IllegalArgumentException("field '" + field + "' must hold strings");
      }
      out.add(s);
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static JsonDoc wrap(String field, Object o) {
    if (!(o instanceof Map<?, ?> m)) {
      throw new IllegalArgumentException("field '" + field + "' must hold objects");
    }
    return new JsonDoc((Map<String, Object>) m);
  }

  private <T> T need(String field, Class<T> type) {
    Object v = fields.get(field);
    if (v == null) {
      throw new IllegalArgumentException("missing field '" + field + "'");
    }
    if (!type.isInstance(v)) {
      throw new IllegalArgumentException(
          "field '" + field + "' must be a " + type.getSimpleName().toLowerCase() + ", was " + v);
    }
    return type.cast(v);
  }
}
