/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class OperationIdsTest {
  @Test
  void idsAreVersionFourUuidsThatDoNotRepeat() {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 10_000; i++) {
      String id = OperationIds.next();
      UUID parsed = UUID.fromString(id);
      assertThat(parsed.toString()).isEqualTo(id);
      assertThat(parsed.version()).isEqualTo(4);
      assertThat(parsed.variant()).isEqualTo(2);
      assertThat(seen.add(id)).as("id %s repeated", id).isTrue();
    }
  }
}
