/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.PermitPhase;
import dev.sluice.gate.ProcessRef;
import dev.sluice.gate.TicketState;
import org.junit.jupiter.api.Test;

/** What the death of a request's owner (a {@code sluice run} process) ends, and what it keeps. */
class OwnerTest {
  private final GateFixture f = new GateFixture(2);

  private AcquireOutcome owned(String agent, String owner, int weight) {
    f.state.pool(GateFixture.POOL);
    return f.machine.acquire(
        GateFixture.request(agent, "op", GateFixture.POOL, weight), owner, f.now);
  }

  @Test
  void waitingAndUnstartedRequestsOfADeadOwnerEndAndTheQueueMoves() {
    AcquireOutcome held = owned("run-1", "o1", 2);
    AcquireOutcome queued = owned("run-2", "o1", 1);
    AcquireOutcome other = owned("run-3", "o2", 1);
    assertThat(held).isInstanceOf(AcquireOutcome.Granted.class);
    assertThat(f.state.owners()).containsExactly("o1", "o2");

    assertThat(f.permits.ownerGone("o1", f.now)).isTrue();

    assertThat(f.ticket(held.ticket().requestId()).state()).isEqualTo(TicketState.RELEASED);
    assertThat(f.ticket(held.ticket().requestId()).endReason()).isEqualTo("owner_exited");
    assertThat(f.ticket(queued.ticket().requestId()).state()).isEqualTo(TicketState.CANCELLED);
    assertThat(f.ticket(other.ticket().requestId()).state()).isEqualTo(TicketState.OFFERED);
    assertThat(f.state.owners()).containsExactly("o2");
    assertThat(f.permits.ownerGone("o1", f.now)).isFalse();
  }

  @Test
  void aTrackedPermitOutlivesItsLauncherUntilItsGroupEnds() {
    String token = f.grant("agent", "op", 1);
    ProcessRef group = GateFixture.process(4242, 99);
    String id = f.ticket("r1").requestId();
    f.permits.start(token, group, "launcher", f.now);

    assertThat(f.state.orphanedGroups()).isEmpty();
    assertThat(f.permits.ownerGone("launcher", f.now)).isTrue();

    assertThat(f.ticket(id).state()).isEqualTo(TicketState.HELD);
    assertThat(f.ticket(id).phase()).isEqualTo(PermitPhase.RUNNING_TRACKED);
    assertThat(f.state.orphanedGroups()).extracting(t -> t.requestId()).containsExactly(id);
    assertThat(f.state.owners()).isEmpty();
    assertThat(f.eventTypes(id)).endsWith("launcher_gone");

    assertThat(f.permits.processEnded(id, GateFixture.process(4242, 100), f.now)).isFalse();
    assertThat(f.permits.processEnded(id, group, f.now)).isTrue();
    assertThat(f.ticket(id).endReason()).isEqualTo("process_exited");
    assertThat(f.state.orphanedGroups()).isEmpty();
  }
}
