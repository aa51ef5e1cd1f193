/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import static dev.sluice.gate.internal.GateFixture.START_DEADLINE;
import static dev.sluice.gate.internal.GateFixture.process;
import static dev.sluice.gate.internal.GateFixture.refused;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import dev.sluice.gate.GateException.Code;
import dev.sluice.gate.PermitPhase;
import dev.sluice.gate.ProcessRef;
import dev.sluice.gate.ReleaseOutcome;
import dev.sluice.gate.Ticket;
import dev.sluice.gate.TicketState;
import org.junit.jupiter.api.Test;

/** Held permits: start, the start deadline, process ends, release and force-release. */
class PermitTest {
  private final GateFixture f = new GateFixture(2);

  @Test
  void startBindsTheProcessAndLiftsTheStartDeadline() {
    String permit = f.grant("a", "op", 1);
    ProcessRef p = process(4242, 777);

    Ticket t = f.permits.start(permit, p, f.now);

    assertThat(t.phase()).isEqualTo(PermitPhase.RUNNING_TRACKED);
    assertThat(t.trackedProcess()).contains(p);
    assertThat(t.startDeadline()).isNull();
    assertThat(t.leaseDeadline()).isNull();
    assertThat(f.lastEvent().type()).isEqualTo("started");
    assertThat(f.lastEvent().detail()).contains("4242");
  }

  @Test
  void startingTheSameProcessAgainIsANoOpAndAnotherIsRefused() {
    String permit = f.grant("a", "op", 1);
    ProcessRef p = process(4242, 777);
    f.permits.start(permit, p, f.now);
    long events = f.state.lastEventSequence();

    assertThat(f.permits.start(permit, p, f.now).process()).isEqualTo(p);
    assertThat(f.state.lastEventSequence()).isEqualTo(events);

    // The same pid with another start time is another process (pid reuse).
    var e = refused(() -> f.permits.start(permit, process(4242, 778), f.now));
    assertThat(e.code()).isEqualTo(Code.ALREADY_STARTED);
    assertThat(e.getMessage()).contains("4242");
    assertThat(refused(() -> f.permits.start(permit, process(99, 777), f.now)).code())
        .isEqualTo(Code.ALREADY_STARTED);
    assertThat(f.ticket("r1").process()).isEqualTo(p);
  }

  @Test
  void aPermitNotStartedByItsDeadlineIsReclaimedAndCannotStartLater() {
    String permit = f.grant("a", "op", 1);

    assertThat(f.elapse(START_DEADLINE - 1)).isFalse();
    assertThat(f.ticket("r1").state()).isEqualTo(TicketState.HELD);
    assertThat(f.elapse(1)).isTrue();

    assertThat(f.ticket("r1").state()).isEqualTo(TicketState.RELEASED);
    assertThat(f.ticket("r1").endReason()).isEqualTo("start_deadline_passed");
    assertThat(f.lastEvent().detail()).isEqualTo("start_deadline_passed");
    var e = refused(() -> f.permits.start(permit, process(5, 5), f.now));
    assertThat(e.code()).isEqualTo(Code.START_DEADLINE_PASSED);
    assertThat(e.code().wireName()).isEqualTo("start_deadline_passed");
    assertThat(refused(() -> f.permits.markStarted(permit, f.now)).code())
        .isEqualTo(Code.START_DEADLINE_PASSED);
    assertThat(f.release(permit).reason()).isEqualTo("start_deadline_passed");
    assertThat(f.pool().used()).isZero();
  }

  @Test
  void startWithoutAProcessIsRefusedAndLeavesThePermitAsItWas() {
    String permit = f.grant("a", "op", 1);
    Ticket before = f.ticket("r1");

    assertThatNullPointerException()
        .isThrownBy(() -> f.permits.start(permit, null, f.now))
        .withMessage("process");

    assertThat(f.ticket("r1")).isEqualTo(before);
    assertThat(f.ticket("r1").phase()).isEqualTo(PermitPhase.CLAIMED);
  }

  @Test
  void aTrackedPermitIsNeverReclaimedForTakingLong() {
    String tracked = f.grant("a", "op", 1);
    f.permits.start(tracked, process(10, 1), f.now);
    String switched = f.grant("b", "op", 1);
    f.permits.markStarted(switched, f.now);
    f.permits.start(switched, process(11, 1), f.now);

    assertThat(f.ticket("r2").leaseDeadline()).isNull();
    long events = f.state.lastEventSequence();
    f.elapse(400L * 24 * 3600 * 1000);

    assertThat(f.pool().holders()).extracting(Ticket::state).containsOnly(TicketState.HELD);
    assertThat(f.pool().used()).isEqualTo(2);
    assertThat(f.state.lastEventSequence()).isEqualTo(events);
    assertThat(f.sweeper.nextDeadline()).as("nothing left to expire").isEmpty();
  }

  @Test
  void aProcessEndReleasesOnlyThePermitOfThatVeryProcess() {
    String permit = f.grant("a", "op", 2);
    ProcessRef p = process(10, 1000);
    f.permits.start(permit, p, f.now);
    String waiting = f.queue("b", "op", 1);

    assertThat(f.permits.processEnded("r1", process(10, 1001), f.now)).isFalse();
    assertThat(f.permits.processEnded("r1", new ProcessRef(10, 1000, 11, p.pidNamespace()), f.now))
        .isFalse();
    assertThat(f.permits.processEnded("r99", p, f.now)).isFalse();
    assertThat(f.ticket("r1").state()).isEqualTo(TicketState.HELD);

    assertThat(f.permits.processEnded("r1", p, f.now)).isTrue();
    assertThat(f.ticket("r1").state()).isEqualTo(TicketState.RELEASED);
    assertThat(f.ticket("r1").endReason()).isEqualTo("process_exited");
    assertThat(f.offerIds()).containsExactly(waiting);
    assertThat(f.permits.processEnded("r1", p, f.now)).isFalse();
  }

  @Test
  void aProcessEndDoesNotReleaseAnUntrackedPermit() {
    String permit = f.grant("a", "op", 1);
    f.permits.markStarted(permit, f.now);

    assertThat(f.permits.processEnded("r1", process(10, 1), f.now)).isFalse();
    assertThat(f.ticket("r1").state()).isEqualTo(TicketState.HELD);
  }

  @Test
  void releaseIsIdempotentAndFreesTheWeightOnce() {
    String permit = f.grant("a", "op", 2);
    f.queue("b", "op", 1);
    f.queue("c", "op", 1);
    f.queue("d", "op", 1);
    f.advance(1_000);

    ReleaseOutcome first = f.permits.release(permit, "done", f.now);
    f.advance(1_000);
    ReleaseOutcome again = f.permits.release(permit, "other", f.now);

    assertThat(first.alreadyReleased()).isFalse();
    assertThat(first.reason()).isEqualTo("done");
    assertThat(first.ticket().state()).isEqualTo(TicketState.RELEASED);
    assertThat(again.alreadyReleased()).isTrue();
    assertThat(again.reason()).isEqualTo("done");
    assertThat(again.ticket().since()).isEqualTo(first.ticket().since());
    assertThat(f.offerIds()).containsExactly("r2", "r3");
    assertThat(f.queueIds()).containsExactly("r4");
    assertThat(f.eventTypes("r1")).containsOnlyOnce("released");
  }

  @Test
  void aBlankReasonIsRecordedAsReleased() {
    String permit = f.grant("a", "op", 1);

    assertThat(f.permits.release(permit, " ", f.now).reason()).isEqualTo("released");
    assertThat(f.ticket("r1").endReason()).isEqualTo("released");
  }

  @Test
  void anOperatorForceReleasesAHeldPermit() {
    String permit = f.grant("a", "op", 2);
    f.permits.start(permit, process(10, 1), f.now);
    String waiting = f.queue("b", "op", 2);

    ReleaseOutcome forced = f.permits.forceRelease("r1", "ops", f.now);

    assertThat(forced.alreadyReleased()).isFalse();
    assertThat(forced.reason()).isEqualTo("force_released by ops");
    assertThat(f.ticket("r1").state()).isEqualTo(TicketState.RELEASED);
    assertThat(f.lastEvent().type()).isEqualTo("offered");
    assertThat(f.eventTypes("r1")).endsWith("force_released");
    assertThat(f.offerIds()).containsExactly(waiting);
    assertThat(f.permits.forceRelease("r1", "ops", f.now).alreadyReleased()).isTrue();
    ReleaseOutcome owner = f.release(permit);
    assertThat(owner.alreadyReleased()).isTrue();
    assertThat(owner.reason()).isEqualTo("force_released by ops");
  }

  @Test
  void forceReleaseRefusesWhatHoldsNothing() {
    f.grant("a", "op", 2);
    String queued = f.queue("b", "op", 1);

    assertThat(refused(() -> f.permits.forceRelease(queued, "ops", f.now)).code())
        .isEqualTo(Code.WRONG_STATE);
    assertThat(refused(() -> f.permits.forceRelease("r99", "ops", f.now)).code())
        .isEqualTo(Code.UNKNOWN_REQUEST);
    f.machine.cancel("b", queued, f.now);
    assertThat(refused(() -> f.permits.forceRelease(queued, "ops", f.now)).code())
        .isEqualTo(Code.CANCELLED);
    assertThat(f.ticket(queued).state()).isEqualTo(TicketState.CANCELLED);
  }
}
