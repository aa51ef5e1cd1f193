/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class DocumentPathsTest {

  @Test
  void equalStatesTouchNothing() {
    assertThat(DocumentPaths.changed("{\"a\":1}", "{\"a\":1}")).isEmpty();
    assertThat(DocumentPaths.changed("{\"a\":1,\"b\":2}", "{\"b\":2,\"a\":1}"))
        .as("other text that is equal JSON still counts as a change, at the root")
        .containsExactly("");
  }

  @Test
  void aChangedLeafIsTouchedAtItsOwnPathOnly() {
    assertThat(DocumentPaths.changed("{\"a\":{\"b\":1,\"c\":2}}", "{\"a\":{\"b\":1,\"c\":3}}"))
        .containsExactly("/a/c");
  }

  @Test
  void addedAndRemovedFieldsAndElementsAreTouched() {
    assertThat(DocumentPaths.changed("{\"a\":1}", "{\"b\":1}")).containsExactly("/a", "/b");
    assertThat(DocumentPaths.changed("{\"xs\":[1]}", "{\"xs\":[1,2]}")).containsExactly("/xs/1");
    assertThat(DocumentPaths.changed("{\"xs\":[1,2]}", "{\"xs\":[2]}"))
        .containsExactly("/xs/0", "/xs/1");
  }

  @Test
  void aValueReplacedByAnotherKindIsTouchedWhole() {
    assertThat(DocumentPaths.changed("{\"p\":null}", "{\"p\":{\"m\":\"card\"}}"))
        .containsExactly("/p");
    assertThat(DocumentPaths.changed("1", "[1]")).containsExactly("");
  }

  @Test
  void namesAreEscapedAsJsonPointerSegments() {
    assertThat(DocumentPaths.changed("{\"a/b\":1,\"c~d\":1}", "{\"a/b\":2,\"c~d\":2}"))
        .containsExactly("/a~1b", "/c~0d");
  }

  @Test
  void numbersAreComparedExactly() {
    assertThat(DocumentPaths.changed("{\"p\":0.10}", "{\"p\":0.1}")).containsExactly("/p");
    assertThat(
            DocumentPaths.changed("{\"p\":12345678901234567.89}", "{\"p\":12345678901234567.91}"))
        .containsExactly("/p");
    assertThat(
            DocumentPaths.changed("{\"n\":123456789012345678901}", "{\"n\":123456789012345678902}"))
        .containsExactly("/n");
  }

  @Test
  void textAfterTheValueIsNotIgnored() {
    assertThat(DocumentPaths.changed("1 a", "1 b")).containsExactly("");
  }

  @Test
  void aStateThatIsNotJsonCountsAsTouchedAtTheRoot() {
    assertThat(DocumentPaths.changed("plain text", "other text")).containsExactly("");
  }

  @Test
  void watchersSeeChangesAtTheirPathAboveAndBelowItByWholeSegments() {
    assertThat(DocumentPaths.seen(List.of("/items"), List.of("/items/3"))).isTrue();
    assertThat(DocumentPaths.seen(List.of("/order/status"), List.of("/order"))).isTrue();
    assertThat(DocumentPaths.seen(List.of("/order"), List.of("/order"))).isTrue();
    assertThat(DocumentPaths.seen(List.of(""), List.of("/anything"))).isTrue();
    assertThat(DocumentPaths.seen(List.of("/item"), List.of("/items"))).isFalse();
    assertThat(DocumentPaths.seen(List.of("/a", "/b"), List.of("/c/d"))).isFalse();
    assertThat(DocumentPaths.seen(List.of("/a"), List.of())).isFalse();
  }

  @Test
  void watchedPathsMustBeJsonPointers() {
    assertThat(DocumentPaths.checkWatched("k", List.of("", "/a"))).containsExactly("", "/a");
    assertThatThrownBy(() -> DocumentPaths.checkWatched("k", List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("step 'k'")
        .hasMessageContaining("at least one");
    assertThatThrownBy(() -> DocumentPaths.checkWatched("k", List.of("status")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'status'");
    for (String bad : List.of("/", "/items/", "/a//b", "/a~2", "/a~")) {
      assertThatThrownBy(() -> DocumentPaths.checkWatched("k", List.of(bad)))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'" + bad + "'");
    }
    assertThat(DocumentPaths.checkWatched("k", List.of("/a~0b~1c"))).containsExactly("/a~0b~1c");
  }
}
