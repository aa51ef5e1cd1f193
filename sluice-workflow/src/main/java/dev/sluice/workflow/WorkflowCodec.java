/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Turns inputs, outputs and step results into the text payloads a store keeps, and back. The
 * default, {@link #jackson()}, writes JSON with Jackson.
 *
 * <p>A codec must never choose a class from a payload: the type to read is always the one the code
 * asks for. Submit idempotency compares encoded inputs, so equal values must encode to equal text.
 *
 * <p>Implementations must be thread-safe.
 */
public interface WorkflowCodec {
  /**
   * Writes a value.
   *
   * @param value the value, may be null
   * @param type its declared type
   * @return the payload
   * @throws WorkflowCodecException if the value cannot be written
   */
  String encode(Object value, TypeRef<?> type);

  /**
   * Reads a value.
   *
   * @param payload a payload from {@link #encode}, possibly written by other code
   * @param type the type to read
   * @param <T> the type
   * @return the value, may be null
   * @throws WorkflowCodecException naming the field and value if the payload does not fit the type
   */
  <T> T decode(String payload, TypeRef<T> type);

  /**
   * Returns the default codec: Jackson JSON with properties and map entries in sorted order (so
   * equal values encode equally), unknown properties refused, and every class-name-based
   * polymorphic type id refused.
   */
  static WorkflowCodec jackson() {
    return dev.sluice.workflow.internal.JacksonCodec.create(new ObjectMapper());
  }

  /**
   * Returns a Jackson codec on a copy of {@code mapper} (with its modules, for example for {@code
   * java.time}), with sorted output, default typing off and class-name-based type ids refused.
   *
   * @param mapper the mapper to copy; it is not changed
   * @return the codec
   */
  static WorkflowCodec jackson(ObjectMapper mapper) {
    return dev.sluice.workflow.internal.JacksonCodec.create(mapper);
  }
}
