/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.workflow.spi.Change;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WorkflowNoticeTest {
  @Test
  void aNoticeReadsBackAsWritten() {
    for (Set<Change> changes :
        java.util.List.of(
            Set.of(Change.WORK),
            Set.of(Change.OUTCOME, Change.PROGRESS),
            Change.ALL,
            Set.of(Change.PROGRESS))) {
      WorkflowNotice sent = new WorkflowNotice("tok", changes);
      assertThat(WorkflowNotice.parse(sent.text())).isEqualTo(sent);
    }
  }

  @Test
  void aPayloadThatDoesNotParseNamesEveryChange() {
    // An older Sluice's payload, a newer version, an unknown letter, nothing at all.
    for (String text : new String[] {"1 tok *", "w2 tok w", "w1 tok wx", "w1 tok", "", null}) {
      assertThat(WorkflowNotice.parse(text).changes()).as("%s", text).isEqualTo(Change.ALL);
    }
    assertThat(WorkflowNotice.parse("w1 tok wx").writer()).isEqualTo("tok");
  }

  @Test
  void aNoticeNamesAtLeastOneChange() {
    assertThatThrownBy(() -> new WorkflowNotice("tok", Set.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one change");
  }
}
