/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.sluice.workflow.TypeRef;
import dev.sluice.workflow.WorkflowCodec;
import dev.sluice.workflow.WorkflowCodecException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JacksonCodecTest {
  private final WorkflowCodec codec = WorkflowCodec.jackson();

  /** A value type. */
  public record Item(String name, int qty) {}

  /** A type whose annotation asks for class names in payloads. */
  @JsonTypeInfo(use = JsonTypeInfo.Id.CLASS)
  public static class Shape {
    public int sides;
  }

  @Test
  void equalValuesEncodeEquallyWhateverTheMapOrder() {
    Map<String, Integer> ab = new LinkedHashMap<>();
    ab.put("a", 1);
    ab.put("b", 2);
    Map<String, Integer> ba = new LinkedHashMap<>();
    ba.put("b", 2);
    ba.put("a", 1);
    TypeRef<Map<String, Integer>> type = new TypeRef<>() {};
    assertThat(codec.encode(ab, type)).isEqualTo(codec.encode(ba, type));
  }

  @Test
  void genericTypesRoundTrip() {
    TypeRef<List<Item>> type = new TypeRef<>() {};
    List<Item> items = List.of(new Item("tea", 2));
    assertThat(codec.decode(codec.encode(items, type), type)).isEqualTo(items);
  }

  @Test
  void aPayloadThatDoesNotFitNamesTheFieldAndValue() {
    assertThatThrownBy(
            () -> codec.decode("{\"name\":\"tea\",\"qty\":\"lots\"}", TypeRef.of(Item.class)))
        .isInstanceOf(WorkflowCodecException.class)
        .hasMessageContaining("qty")
        .hasMessageContaining("lots");
    assertThatThrownBy(
            () -> codec.decode("{\"name\":\"tea\",\"qty\":1,\"colour\":1}", TypeRef.of(Item.class)))
        .isInstanceOf(WorkflowCodecException.class)
        .hasMessageContaining("colour");
  }

  @Test
  void classNamesInPayloadsAreNeverTrusted() {
    String payload = "{\"@class\":\"java.lang.ProcessBuilder\",\"sides\":3}";
    assertThatThrownBy(() -> codec.decode(payload, TypeRef.of(Shape.class)))
        .isInstanceOf(WorkflowCodecException.class);
  }
}
