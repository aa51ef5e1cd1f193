/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import static dev.sluice.gate.internal.GateFixture.refused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.GateException.Code;
import dev.sluice.gate.JobRef;
import dev.sluice.gate.KillPlan;
import dev.sluice.gate.ProcessRef;
import dev.sluice.gate.TicketState;
import org.junit.jupiter.api.Test;

/**
 * Jobs named by id or label for {@code cancel} and {@code kill}, and what asking again under a
 * finished request's key answers; on a manual clock. The fixture labels each request {@code "label
 * <op>"}.
 */
class JobsTest {
  final GateFixture f = new GateFixture(1);
  final Jobs jobs = new Jobs(f.state, f.machine);

  private static JobRef label(String op) {
    return new JobRef.ByLabel("label " + op);
  }

  @Test
  void aLabelNamesTheOneLiveJobWithItAndNothingElse() {
    f.grant("a", "x", 1);
    String waiting = f.queue("a", "y", 1);

    assertThat(jobs.find(label("y")).requestId()).isEqualTo(waiting);
    assertThat(refused(() -> jobs.find(label("none"))).code()).isEqualTo(Code.UNKNOWN_LABEL);
    assertThat(refused(() -> jobs.find(new JobRef.ById("r99"))).code())
        .isEqualTo(Code.UNKNOWN_REQUEST);
  }

  @Test
  void aLabelOfSeveralLiveJobsIsRefusedWithTheirIdsAndChangesNothing() {
    f.grant("a", "x", 1);
    String first = f.queue("a", "dup", 1);
    String second = f.queue("b", "dup", 1);
    long events = f.state.lastEventSequence();

    var e = refused(() -> jobs.cancel("a", label("dup"), "a", f.now));

    assertThat(e.code()).isEqualTo(Code.AMBIGUOUS_LABEL);
    assertThat(e.getMessage()).contains(first + " (queued), " + second + " (queued)");
    assertThat(f.queueIds()).containsExactly(first, second);
    assertThat(f.state.lastEventSequence()).isEqualTo(events);
  }

  @Test
  void anEndedJobNoLongerAnswersToItsLabel() {
    String token = f.grant("a", "x", 1);
    f.release(token);
    assertThat(refused(() -> jobs.find(label("x"))).code()).isEqualTo(Code.UNKNOWN_LABEL);
  }

  @Test
  void cancelByLabelWithdrawsAWaitingJobAndRefusesARunningOne() {
    f.grant("a", "x", 1);
    String held = f.pool().holders().get(0).requestId();
    String waiting = f.queue("a", "y", 1);

    assertThat(jobs.cancel("a", label("y"), "a", f.now).state()).isEqualTo(TicketState.CANCELLED);
    var e = refused(() -> jobs.cancel("a", label("x"), "a", f.now));
    assertThat(e.code()).isEqualTo(Code.WRONG_STATE);
    assertThat(e.getMessage()).contains(held, "already holds its slot", "sluice kill " + held);
    assertThat(f.ticket(held).state()).isEqualTo(TicketState.HELD);
    assertThat(f.ticket(waiting).endReason()).startsWith("cancelled by a");
  }

  @Test
  void killOfAWaitingJobIsItsCancel() {
    f.grant("a", "x", 1);
    String waiting = f.queue("a", "y", 1);

    KillPlan plan = jobs.kill("a", new JobRef.ById(waiting), "a (pid 1)", "SIGTERM", f.now);

    assertThat(plan).isInstanceOf(KillPlan.Cancelled.class);
    assertThat(plan.ticket().state()).isEqualTo(TicketState.CANCELLED);
    assertThat(f.eventTypes(waiting)).endsWith("cancelled");
    assertThat(jobs.kill("a", new JobRef.ById(waiting), "a", "SIGTERM", f.now))
        .as("again: idempotent")
        .isInstanceOf(KillPlan.Cancelled.class);
  }

  @Test
  void killOfARunningTrackedJobRecordsWhoAndReturnsItsGroup() {
    String token = f.grant("a", "x", 1);
    // This JVM: a process that certainly runs, in this pid namespace.
    ProcessRef self = ProcessRef.lookup(ProcessHandle.current().pid()).orElseThrow();
    f.permits.start(token, self, f.now);
    String id = f.pool().holders().get(0).requestId();

    KillPlan plan = jobs.kill("a", label("x"), "a (pid 7)", "SIGINT", f.now);

    assertThat(plan).isInstanceOf(KillPlan.SignalGroup.class);
    assertThat(((KillPlan.SignalGroup) plan).group()).isEqualTo(self);
    assertThat(f.lastEvent().type()).isEqualTo("killed");
    assertThat(f.lastEvent().requestId()).isEqualTo(id);
    assertThat(f.lastEvent().detail())
        .isEqualTo("by a (pid 7): SIGINT to process group " + self.pgid());
    assertThat(f.ticket(id).state())
        .as("the run ends it, not the plan")
        .isEqualTo(TicketState.HELD);
  }

  @Test
  void killRefusesWhatItCannotSignalAndAnotherAgentsRun() {
    String claimed = f.grant("a", "x", 1);
    String id = f.pool().holders().get(0).requestId();
    long events = f.state.lastEventSequence();

    var notStarted = refused(() -> jobs.kill("a", label("x"), "a", "SIGTERM", f.now));
    assertThat(notStarted.code()).isEqualTo(Code.WRONG_STATE);
    assertThat(notStarted.getMessage()).contains("nothing to signal", "force-release " + id);
    f.permits.markStarted(claimed, f.now);
    assertThat(refused(() -> jobs.kill("a", label("x"), "a", "SIGTERM", f.now)).getMessage())
        .contains("untracked permit");
    var other = refused(() -> jobs.kill("b", label("x"), "b", "SIGTERM", f.now));
    assertThat(other.code()).isEqualTo(Code.NOT_OWNER);
    assertThat(other.getMessage()).contains("force-release --kill " + id);
    assertThat(f.state.lastEventSequence() - events).as("only mark-started's event").isEqualTo(1);

    f.release(claimed);
    var ended = refused(() -> jobs.kill("a", new JobRef.ById(id), "a", "SIGTERM", f.now));
    assertThat(ended.code()).isEqualTo(Code.WRONG_STATE);
    assertThat(ended.getMessage()).contains("is released", "kill does not apply");
  }

  @Test
  void askingAgainUnderAReleasedRequestsKeyAnswersThatRequest() {
    String token = f.grant("a", "job1", 1);
    String id = f.pool().holders().get(0).requestId();
    f.release(token);

    AcquireOutcome again = f.acquire("a", "job1", 1);

    assertThat(again).isInstanceOf(AcquireOutcome.Conflict.class);
    assertThat(again.ticket().requestId()).isEqualTo(id);
    assertThat(((AcquireOutcome.Conflict) again).detail())
        .contains("already named request " + id, "ended released", "another --op");
    assertThat(f.state.entries).hasSize(1);
  }

  @Test
  void aKeyWhoseRequestItsWaiterWithdrewStaysFree() {
    f.grant("a", "x", 1);
    String waiting = f.queue("a", "retry", 1);
    assertThat(f.machine.withdraw("a", waiting, "queue_timeout", f.now)).isTrue();

    AcquireOutcome again = f.acquire("a", "retry", 1);

    assertThat(again).isInstanceOf(AcquireOutcome.Queued.class);
    assertThat(again.ticket().requestId()).isNotEqualTo(waiting);
  }
}
