/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.serve;

import com.sun.net.httpserver.HttpExchange;
import dev.sluice.cli.GateJson;
import dev.sluice.cli.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writing answers and reading bodies of the console's exchanges, with the headers every answer
 * carries (no caching, no sniffing, no framing, no referrer: the page's URL may hold the token for
 * the moment before it is exchanged for the cookie). Stateless and thread-safe; blocks on the
 * connection.
 */
final class Exchanges {
  /** The largest request body read: actions are a few small fields. */
  static final int MOST_BODY = 16 * 1024;

  private Exchanges() {}

  /** Sends {@code json} with {@code status}. */
  static void json(HttpExchange ex, int status, JsonObject json) throws IOException {
    send(ex, status, "application/json", json.toString().getBytes(StandardCharsets.UTF_8));
  }

  /** Sends {@code {"error": code, "message": message}} with {@code status}. */
  static void error(HttpExchange ex, int status, String code, String message) throws IOException {
    json(ex, status, GateJson.error(code, message));
  }

  /** Sends {@code body} as {@code type} (UTF-8 for text). */
  static void send(HttpExchange ex, int status, String type, byte[] body) throws IOException {
    common(ex);
    ex.getResponseHeaders().set("Content-Type", type + "; charset=utf-8");
    ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(body);
    }
  }

  /** A redirect to {@code location} that also sets {@code cookie}, or none when null. */
  static void seeOther(HttpExchange ex, String location, String cookie) throws IOException {
    common(ex);
    if (cookie != null) {
      ex.getResponseHeaders().add("Set-Cookie", cookie);
    }
    ex.getResponseHeaders().set("Location", location);
    ex.sendResponseHeaders(303, -1);
    ex.close();
  }

  /** The headers every answer carries. */
  static void common(HttpExchange ex) {
    var h = ex.getResponseHeaders();
    h.set("Cache-Control", "no-store");
    h.set("X-Content-Type-Options", "nosniff");
    h.set("X-Frame-Options", "DENY");
    h.set("Referrer-Policy", "no-referrer");
    h.set(
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'none'");
  }

  /**
   * The request body as text, at most {@value #MOST_BODY} bytes.
   *
   * @throws IllegalArgumentException if it is longer
   */
  static String body(HttpExchange ex) throws IOException {
    try (InputStream in = ex.getRequestBody()) {
      byte[] b = in.readNBytes(MOST_BODY + 1);
      if (b.length > MOST_BODY) {
        throw new IllegalArgumentException("the body is longer than " + MOST_BODY + " bytes");
      }
      return new String(b, StandardCharsets.UTF_8);
    }
  }
}
