/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.jsontype.BasicPolymorphicTypeValidator;
import dev.sluice.workflow.TypeRef;
import dev.sluice.workflow.WorkflowCodec;
import dev.sluice.workflow.WorkflowCodecException;
import java.util.Objects;

/**
 * The default codec: JSON through a private copy of a Jackson mapper. Output is canonical enough
 * for submit idempotency (properties and map entries sorted). Default typing is off, and the
 * polymorphic type validator allows no class at all, so even a {@code @JsonTypeInfo(use = CLASS)}
 * on a user type cannot make the mapper instantiate a class named by a stored payload.
 *
 * <p>Thread-safe.
 */
public final class JacksonCodec implements WorkflowCodec {
  private final ObjectMapper mapper;

  private JacksonCodec(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  /**
   * Returns a codec on a configured copy of {@code mapper}.
   *
   * @param mapper left unchanged
   * @return the codec
   */
  public static JacksonCodec create(ObjectMapper mapper) {
    Objects.requireNonNull(mapper, "mapper");
    ObjectMapper m = mapper.copy();
    m.deactivateDefaultTyping();
    m.setPolymorphicTypeValidator(BasicPolymorphicTypeValidator.builder().build());
    m.setConfig(m.getSerializationConfig().with(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY));
    m.enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
    m.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    m.enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
    m.disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
    return new JacksonCodec(m);
  }

  private JavaType javaType(TypeRef<?> type) {
    return mapper.getTypeFactory().constructType(type.type());
  }

  @Override
  public String encode(Object value, TypeRef<?> type) {
    Objects.requireNonNull(type, "type");
    try {
      return mapper.writerFor(javaType(type)).writeValueAsString(value);
    } catch (JsonProcessingException | RuntimeException e) {
      throw new WorkflowCodecException(
          "cannot write a value of type " + type + " as JSON: " + originalMessage(e), e);
    }
  }

  @Override
  public <T> T decode(String payload, TypeRef<T> type) {
    Objects.requireNonNull(payload, "payload");
    Objects.requireNonNull(type, "type");
    try {
      return mapper.readValue(payload, javaType(type));
    } catch (JsonProcessingException | RuntimeException e) {
      String where = "";
      if (e instanceof JsonMappingException m && !m.getPath().isEmpty()) {
        where = " at " + m.getPathReference() + storedValue(payload, m);
      }
      throw new WorkflowCodecException(
          "cannot read a " + type + " from the stored payload" + where + ": " + originalMessage(e),
          e);
    }
  }

  /** Names the stored value at the failing path, which Jackson's message may leave out. */
  private String storedValue(String payload, JsonMappingException m) {
    try {
      JsonNode node = mapper.readTree(payload);
      for (JsonMappingException.Reference r : m.getPath()) {
        if (node == null) {
          return "";
        }
        node = r.getFieldName() != null ? node.get(r.getFieldName()) : node.get(r.getIndex());
      }
      if (node == null) {
        return " (no stored value)";
      }
      String text = node.toString();
      return " (stored value " + (text.length() > 80 ? text.substring(0, 80) + "…" : text) + ")";
    } catch (JsonProcessingException | RuntimeException notJson) {
      return "";
    }
  }

  private static String originalMessage(Exception e) {
    String m = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
    return m == null ? e.getClass().getSimpleName() : m;
  }

  @Override
  public String toString() {
    return "WorkflowCodec.jackson()";
  }
}
