/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.gate.JobEnd;
import dev.sluice.gate.JobOutcome;
import dev.sluice.gate.PermitPhase;
import dev.sluice.gate.ProcessRef;
import dev.sluice.gate.Ticket;
import dev.sluice.gate.TicketState;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How a job whose request ended without its runner's word is settled. */
class JobSettleTest {
  private static final ProcessRef GROUP = new ProcessRef(42, 7, 42, "pid:[1]");

  private static Optional<Ticket> ended(TicketState state, String reason) {
    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    return Optional.of(
        new Ticket(
            "r1", "p", "a", "op", "", "", 1, state, null, 0, t, t, null, null, null, null, reason));
  }

  private static JobEnd settled(Optional<Ticket> t, boolean started, boolean runnerDead) {
    return JobSettle.settle(t, started, () -> runnerDead).orElseThrow();
  }

  @Test
  void aRequestThatNeverHeldSaysWhyTheCommandNeverRan() {
    assertThat(settled(ended(TicketState.CANCELLED, "queue_timeout"), false, false).outcome())
        .isEqualTo(JobOutcome.QUEUE_TIMEOUT);
    JobEnd cancelled =
        settled(
            ended(TicketState.CANCELLED, "cancelled by ann (pid 3) while queued"), false, false);
    assertThat(cancelled.outcome()).isEqualTo(JobOutcome.CANCELLED);
    assertThat(cancelled.reason()).isEqualTo("cancelled by ann (pid 3) while queued");
    JobEnd runnerGone = settled(ended(TicketState.CANCELLED, "owner_exited"), false, false);
    assertThat(runnerGone.outcome()).isEqualTo(JobOutcome.NOT_STARTED);
    assertThat(runnerGone.reason())
        .contains("runner ended before it started")
        .contains("owner_exited");
    JobEnd failed = settled(ended(TicketState.FAILED, "weight_exceeds_capacity"), false, false);
    assertThat(failed.outcome()).isEqualTo(JobOutcome.NOT_STARTED);
    assertThat(failed.reason()).isEqualTo("weight_exceeds_capacity");
    assertThat(settled(Optional.empty(), false, false).outcome()).isEqualTo(JobOutcome.NOT_STARTED);
    assertThat(failed.exitStatus()).isEmpty();
  }

  @Test
  void aStartedJobIsLostOnlyOnceItsRunnerIsProvenDead() {
    Optional<Ticket> forceReleased = ended(TicketState.RELEASED, "force_released by ops");
    assertThat(JobSettle.settle(forceReleased, true, () -> false)).isEmpty();
    JobEnd lost = settled(ended(TicketState.RELEASED, "process_exited"), true, true);
    assertThat(lost.outcome()).isEqualTo(JobOutcome.LOST);
    assertThat(lost.reason()).contains("exit status is unknown").contains("process_exited");
    assertThat(settled(Optional.empty(), true, true).outcome()).isEqualTo(JobOutcome.LOST);
  }

  @Test
  void aLiveRequestIsNotSettled() {
    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    Ticket held =
        new Ticket(
            "r1",
            "p",
            "a",
            "op",
            "",
            "",
            1,
            TicketState.HELD,
            PermitPhase.RUNNING_TRACKED,
            0,
            t,
            t,
            null,
            null,
            null,
            GROUP,
            "");
    assertThatThrownBy(() -> JobSettle.settle(Optional.of(held), true, () -> true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("r1 is live");
  }

  @Test
  void anEndCarriesAStatusExactlyWhenTheCommandExited() {
    assertThat(JobEnd.exited(3).reason()).isEqualTo("exited 3");
    assertThat(JobEnd.exited(143).reason()).isEqualTo("killed by signal 15");
    assertThat(JobEnd.exited(143).exitStatus()).hasValue(143);
    assertThatThrownBy(() -> JobEnd.exited(256))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("exitStatus must be between 0 and 255, was 256");
    assertThatThrownBy(() -> new JobEnd(JobOutcome.LOST, java.util.OptionalInt.of(1), "lost"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("exitStatus must be present exactly for EXITED");
  }
}
