/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.opentelemetry;

import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A trace context as the text a workflow execution carries: the W3C trace-context headers, one
 * {@code name=value} line each. W3C always, not the application's propagators: the text is Sluice's
 * own record, read back by Sluice, and must not depend on how a process was configured.
 *
 * <p>Stateless and thread-safe.
 */
final class CarriedContext {
  private static final TextMapPropagator W3C = W3CTraceContextPropagator.getInstance();

  private static final TextMapGetter<Map<String, String>> GETTER =
      new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
          return carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
          return carrier == null ? null : carrier.get(key);
        }
      };

  private CarriedContext() {}

  /** The text of {@code context}'s span context, or null if it has no valid span. */
  static String write(Context context) {
    Map<String, String> headers = new LinkedHashMap<>();
    W3C.inject(context, headers, Map::put);
    if (headers.isEmpty()) {
      return null;
    }
    StringBuilder text = new StringBuilder();
    headers.forEach(
        (k, v) -> text.append(text.length() == 0 ? "" : "\n").append(k).append('=').append(v));
    return text.toString();
  }

  /** The context {@link #write} wrote; the root context if the text holds no valid one. */
  static Context read(String text) {
    Map<String, String> headers = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        headers.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return W3C.extract(Context.root(), headers, GETTER);
  }
}
