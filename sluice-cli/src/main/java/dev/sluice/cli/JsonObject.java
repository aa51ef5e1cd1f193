/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One JSON object of the command's output, built field by field in order and written on one line
 * with jackson-core's streaming generator. Values are strings, numbers, booleans, nested objects
 * and lists of them. The command prints a handful of small objects per call; the streaming core
 * starts in a fraction of the time the data-binding layer takes, which every call would pay.
 *
 * <p>Not thread-safe; build and print on one thread.
 */
public final class JsonObject {
  private static final JsonFactory FACTORY = new JsonFactory();

  private final Map<String, Object> fields = new LinkedHashMap<>();

  /** Sets a string field. */
  public JsonObject put(String name, String value) {
    fields.put(name, value);
    return this;
  }

  /** Sets a number field. */
  public JsonObject put(String name, long value) {
    fields.put(name, value);
    return this;
  }

  /** Sets a boolean field. */
  public JsonObject put(String name, boolean value) {
    fields.put(name, value);
    return this;
  }

  /** Sets a nested object. */
  public JsonObject set(String name, JsonObject value) {
    fields.put(name, value);
    return this;
  }

  /** Sets a list of objects. */
  public JsonObject set(String name, List<JsonObject> values) {
    fields.put(name, List.copyOf(values));
    return this;
  }

  /** Sets a list of strings. */
  public JsonObject putStrings(String name, List<String> values) {
    fields.put(name, List.copyOf(values));
    return this;
  }

  /** The object on one line, without a line break. */
  @Override
  public String toString() {
    StringWriter out = new StringWriter(256);
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      write(g);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  private void write(JsonGenerator g) throws IOException {
    g.writeStartObject();
    for (Map.Entry<String, Object> f : fields.entrySet()) {
      g.writeFieldName(f.getKey());
      value(g, f.getValue());
    }
    g.writeEndObject();
  }

  private static void value(JsonGenerator g, Object v) throws IOException {
    if (v == null) {
      g.writeNull();
    } else if (v instanceof String s) {
      g.writeString(s);
    } else if (v instanceof Long n) {
      g.writeNumber(n);
    } else if (v instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (v instanceof JsonObject o) {
      o.write(g);
    } else if (v instanceof List<?> list) {
      g.writeStartArray();
      for (Object item : list) {
        value(g, item);
      }
      g.writeEndArray();
    } else {
      throw new IllegalArgumentException("not a JSON value: " + v.getClass());
    }
  }
}
