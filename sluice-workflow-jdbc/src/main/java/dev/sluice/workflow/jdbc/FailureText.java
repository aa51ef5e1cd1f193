/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.jdbc;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.sluice.workflow.spi.FailureRecord;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A recorded failure as the JSON text of a column: {@code {"class", "message", "frames": [{"class",
 * "method", "file", "line"}]}}. Class names are kept as text only; nothing here loads a class.
 *
 * <p>Thread-safe (stateless).
 */
final class FailureText {
  private static final JsonFactory JSON = new JsonFactory();

  private FailureText() {}

  static String write(FailureRecord f) {
    if (f == null) {
      return null;
    }
    StringWriter out = new StringWriter();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField("class", f.className());
      g.writeStringField("message", f.message());
      g.writeArrayFieldStart("frames");
      for (FailureRecord.Frame fr : f.frames()) {
        g.writeStartObject();
        g.writeStringField("class", fr.className());
        g.writeStringField("method", fr.method());
        g.writeStringField("file", fr.file());
        g.writeNumberField("line", fr.line());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  /**
   * Reads a failure column.
   *
   * @throws IOException if the text is not a failure written by {@link #write}
   */
  static FailureRecord read(String text) throws IOException {
    if (text == null) {
      return null;
    }
    try (JsonParser p = JSON.createParser(text)) {
      expect(p.nextToken(), JsonToken.START_OBJECT);
      String className = null;
      String message = null;
      List<FailureRecord.Frame> frames = new ArrayList<>();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        switch (field) {
          case "class" -> className = p.getValueAsString();
          case "message" -> message = value == JsonToken.VALUE_NULL ? null : p.getText();
          case "frames" -> readFrames(p, value, frames);
          default -> p.skipChildren();
        }
      }
      if (className == null) {
        throw new IOException("failure without a class: " + text);
      }
      return new FailureRecord(className, message, frames);
    } catch (RuntimeException e) {
      throw new IOException("malformed failure '" + text + "': " + e.getMessage(), e);
    }
  }

  private static void readFrames(JsonParser p, JsonToken start, List<FailureRecord.Frame> frames)
      throws IOException {
    expect(start, JsonToken.START_ARRAY);
    while (p.nextToken() == JsonToken.START_OBJECT) {
      String className = null;
      String method = null;
      String file = null;
      int line = -1;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        switch (field) {
          case "class" -> className = p.getText();
          case "method" -> method = p.getText();
          case "file" -> file = value == JsonToken.VALUE_NULL ? null : p.getText();
          case "line" -> line = p.getIntValue();
          default -> p.skipChildren();
        }
      }
      frames.add(new FailureRecord.Frame(className, method, file, line));
    }
  }

  private static void expect(JsonToken actual, JsonToken expected) throws IOException {
    if (actual != expected) {
      throw new IOException("expected " + expected + ", found " + actual);
    }
  }
}
