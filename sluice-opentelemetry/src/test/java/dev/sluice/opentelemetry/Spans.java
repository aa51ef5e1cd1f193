/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.opentelemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;

/**
 * A real OpenTelemetry SDK exporting every ended span, at once, to an in-memory exporter: one per
 * simulated process. Not thread-safe to build; the exporter is.
 */
final class Spans implements AutoCloseable {
  final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  final OpenTelemetrySdk sdk =
      OpenTelemetrySdk.builder()
          .setTracerProvider(
              SdkTracerProvider.builder()
                  .addSpanProcessor(SimpleSpanProcessor.create(exporter))
                  .build())
          .build();

  OpenTelemetry otel() {
    return sdk;
  }

  List<SpanData> all() {
    return exporter.getFinishedSpanItems();
  }

  /** The ended spans named {@code name}, in the order they ended. */
  List<SpanData> named(String name) {
    return all().stream().filter(s -> s.getName().equals(name)).toList();
  }

  /** The one ended span named {@code name}. */
  SpanData one(String name) {
    List<SpanData> found = named(name);
    assertThat(found).as("spans named %s among %s", name, all()).hasSize(1);
    return found.get(0);
  }

  /** Asserts {@code child}'s parent is {@code parent}, in the same trace. */
  static void assertChild(SpanData child, SpanData parent) {
    assertThat(child.getTraceId())
        .as("trace of %s", child.getName())
        .isEqualTo(parent.getTraceId());
    assertThat(child.getParentSpanId())
        .as("parent of %s", child.getName())
        .isEqualTo(parent.getSpanId());
  }

  @Override
  public void close() {
    sdk.close();
  }
}
