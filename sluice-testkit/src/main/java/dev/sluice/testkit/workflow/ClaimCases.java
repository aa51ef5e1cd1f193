/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.WorkflowSession;
import dev.sluice.workflow.spi.WorkflowVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link dev.sluice.workflow.spi.WorkflowTransaction#claimNext} through the store's own sessions:
 * queue order, the limit, which executions are eligible, and the epoch each claim writes. The rule
 * is {@link dev.sluice.workflow.spi.ClaimRule}; these cases hold every store to it.
 */
public abstract class ClaimCases extends WorkflowCase {
  private static final Set<WorkflowVersion> W1 = Set.of(new WorkflowVersion("w", 1));

  private final List<WorkflowSession> sessions = new ArrayList<>();

  protected ClaimCases(WorkflowStoreFactory stores) {
    super(stores);
  }

  private WorkflowSession session() {
    WorkflowSession s = store().open();
    sessions.add(s);
    return s;
  }

  @AfterEach
  void closeSessions() {
    sessions.forEach(WorkflowSession::close);
  }

  private static void put(WorkflowSession s, ExecutionRecord... rows) {
    s.transact(
        tx -> {
          for (ExecutionRecord r : rows) {
            tx.putExecution(r);
          }
          return null;
        });
  }

  private static List<ExecutionRecord> claim(
      WorkflowSession s, Set<WorkflowVersion> runnable, int limit) {
    return s.transact(tx -> tx.claimNext(runnable, limit));
  }

  private static ExecutionRecord read(WorkflowSession s, String id) {
    return s.transact(tx -> tx.execution(id)).orElseThrow();
  }

  private static List<String> ids(List<ExecutionRecord> rows) {
    return rows.stream().map(ExecutionRecord::id).toList();
  }

  @Test
  void claimsTheOldestQueuedFirstThenByIdUpToTheLimit() {
    WorkflowSession me = session();
    long now = clock.wallMillis();
    put(
        me,
        ExecutionRecord.queued("c", "w", 1, "1", now - 10),
        ExecutionRecord.queued("b", "w", 1, "1", now - 30),
        ExecutionRecord.queued("d", "w", 1, "1", now - 20),
        ExecutionRecord.queued("a", "w", 1, "1", now - 30));

    assertThat(ids(claim(me, W1, 3))).containsExactly("a", "b", "d");
    assertThat(read(me, "c").status()).as("past the limit").isEqualTo(ExecutionStatus.QUEUED);
    assertThat(ids(claim(me, W1, 3))).containsExactly("c");
    assertThat(claim(me, W1, 3)).as("nothing left").isEmpty();
  }

  @Test
  void aClaimTellsWhetherItsLimitLeftAnEligibleExecution() {
    WorkflowSession me = session();
    long now = clock.wallMillis();
    put(
        me,
        ExecutionRecord.queued("a", "w", 1, "1", now - 30),
        ExecutionRecord.queued("b", "w", 1, "1", now - 20),
        ExecutionRecord.queued("v2", "w", 2, "1", now - 10));

    record Taken(List<String> ids, boolean leftMore) {}
    WorkflowSession.Unit<Taken> first =
        tx -> new Taken(ids(tx.claimNext(W1, 1)), tx.claimLeftMore());
    assertThat(me.transact(first)).isEqualTo(new Taken(List.of("a"), true));
    assertThat(read(me, "b").status())
        .as("seen past the limit, not claimed")
        .isEqualTo(ExecutionStatus.QUEUED);
    assertThat(me.transact(first))
        .as("the last of a runnable version; another version is not eligible")
        .isEqualTo(new Taken(List.of("b"), false));
  }

  @Test
  void aReadOfOneExecutionSeesTheLastCommitOfAnySession() {
    WorkflowSession me = session();
    WorkflowSession other = session();
    long now = clock.wallMillis();
    ExecutionRecord queued = ExecutionRecord.queued("r", "w", 1, "1", now - 5);
    put(me, queued);

    assertThat(other.readExecution("r")).contains(queued);
    List<ExecutionRecord> claimed = claim(me, W1, 1);
    assertThat(other.readExecution("r")).as("after the claim").contains(claimed.get(0));
    assertThat(other.readExecution("none")).isEmpty();
  }

  @Test
  void aClaimWritesTheOwnerTheNextEpochAndTheStoreTime() {
    WorkflowSession me = session();
    long now = clock.wallMillis();
    ExecutionRecord queued = ExecutionRecord.queued("e", "w", 1, "1", now - 5);
    put(me, queued);

    List<ExecutionRecord> claimed = claim(me, W1, 1);
    ExecutionRecord expected = queued.claimedBy(me.ownerId(), now);
    assertThat(claimed).containsExactly(expected);
    assertThat(expected.claimEpoch()).isEqualTo(queued.claimEpoch() + 1);
    assertThat(read(session(), "e")).as("as another session reads it").isEqualTo(expected);
  }

  @Test
  void everyClaimOfAnExecutionHasAHigherEpochSoAnEarlierClaimIsOutdated() {
    WorkflowSession first = session();
    WorkflowSession second = session();
    put(first, ExecutionRecord.queued("e", "w", 1, "1", clock.wallMillis()));

    ExecutionRecord byFirst = claim(first, W1, 1).get(0);
    // Taken from the first owner (as a take-over or a release does), then claimed again.
    put(first, byFirst.unclaimed(ExecutionStatus.QUEUED, clock.wallMillis()));
    ExecutionRecord bySecond = claim(second, W1, 1).get(0);

    assertThat(bySecond.claimOwner()).isEqualTo(second.ownerId());
    assertThat(bySecond.claimEpoch()).isGreaterThan(byFirst.claimEpoch());
    ExecutionRecord stored = read(first, "e");
    assertThat(
            stored.claimEpoch() == byFirst.claimEpoch()
                && first.ownerId().equals(stored.claimOwner()))
        .as("the first claim no longer holds the execution")
        .isFalse();
  }

  @Test
  void onlyQueuedExecutionsOfARunnableVersionBeforeTheirDeadlineAreClaimed() {
    WorkflowSession me = session();
    WorkflowSession other = session();
    long now = clock.wallMillis();
    put(
        me,
        ExecutionRecord.queued("ok", "w", 1, "1", now - 9),
        ExecutionRecord.queued("ok-deadline", "w", 1, "1", now - 8, now + 1),
        ExecutionRecord.queued("overdue", "w", 1, "1", now - 7, now - 1),
        ExecutionRecord.queued("due-now", "w", 1, "1", now - 6, now),
        ExecutionRecord.queued("other-version", "w", 2, "1", now - 5),
        ExecutionRecord.queued("other-workflow", "v", 1, "1", now - 4),
        ExecutionRecord.queued("waiting", "w", 1, "1", now - 3)
            .claimedBy("gone", now - 3)
            .unclaimed(ExecutionStatus.WAITING, now - 3),
        ExecutionRecord.queued("running", "w", 1, "1", now - 2).claimedBy(other.ownerId(), now),
        ExecutionRecord.queued("done", "w", 1, "1", now - 1)
            .finished(ExecutionStatus.COMPLETED, "1", null, now));

    assertThat(ids(claim(me, W1, 100))).containsExactly("ok", "ok-deadline");
    assertThat(read(me, "overdue").status()).isEqualTo(ExecutionStatus.QUEUED);
    assertThat(read(me, "running").claimOwner()).isEqualTo(other.ownerId());
    assertThat(ids(claim(me, Set.of(new WorkflowVersion("w", 2)), 100)))
        .containsExactly("other-version");
    assertThat(
            ids(claim(me, Set.of(new WorkflowVersion("v", 1), new WorkflowVersion("w", 1)), 100)))
        .containsExactly("other-workflow");
  }

  @Test
  void noRunnableVersionOrNoRoomClaimsNothingAndWritesNothing() {
    WorkflowSession me = session();
    ExecutionRecord queued = ExecutionRecord.queued("e", "w", 1, "1", clock.wallMillis());
    put(me, queued);

    assertThat(claim(me, Set.of(), 10)).isEmpty();
    assertThat(claim(me, W1, 0)).isEmpty();
    assertThat(read(me, "e")).isEqualTo(queued);
  }

  @Test
  void aClaimInAUnitThatFailsIsNotKept() {
    WorkflowSession me = session();
    ExecutionRecord queued = ExecutionRecord.queued("e", "w", 1, "1", clock.wallMillis());
    put(me, queued);

    assertThatThrownBy(
            () ->
                me.transact(
                    tx -> {
                      assertThat(tx.claimNext(W1, 1)).hasSize(1);
                      throw new IllegalStateException("the unit fails after its claim");
                    }))
        .hasMessage("the unit fails after its claim");
    assertThat(read(me, "e")).isEqualTo(queued);
    assertThat(claim(me, W1, 1))
        .containsExactly(queued.claimedBy(me.ownerId(), clock.wallMillis()));
  }

  @Test
  void twoOwnersClaimDifferentExecutions() {
    WorkflowSession first = session();
    WorkflowSession second = session();
    long now = clock.wallMillis();
    put(
        first,
        ExecutionRecord.queued("a", "w", 1, "1", now - 2),
        ExecutionRecord.queued("b", "w", 1, "1", now - 1));

    assertThat(ids(claim(first, W1, 1))).containsExactly("a");
    assertThat(ids(claim(second, W1, 1))).containsExactly("b");
    assertThat(claim(first, W1, 1)).isEmpty();
  }
}
