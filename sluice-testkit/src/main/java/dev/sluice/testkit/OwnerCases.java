/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.PoolSnapshot;
import dev.sluice.TraceEvent;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * An owner that dies (its process exits, here: its session closes without retiring) loses what it
 * held: the store reclaims its leases and queue entries, wakes the live owners, and the pool goes
 * on with fencing tokens still rising. Every store implements reclaim, the memory store included.
 */
public abstract class OwnerCases extends ConformanceCase {
  protected OwnerCases(StoreFactory stores) {
    super(stores);
  }

  @Test
  void aDeadOwnersLeaseIsReclaimedAndAWaitingOwnerGetsTheCapacity() throws Exception {
    Limiter survivor = open(cap(1));
    FailingStore doomed = new FailingStore(store());
    Limiter victim = Limiter.open(doomed, cap(1));
    Lease held = victim.acquire(1);
    long deadToken = held.admission().fencingToken();
    CompletableFuture<Long> waiting =
        survivor.schedule(admission -> admission.fencingToken(), scheduleDefaults());
    doomed.killOwners();
    assertThat(await(waiting)).as("a newer token than the dead owner's").isGreaterThan(deadToken);
    PoolSnapshot after = survivor.inspect();
    assertThat(after.leases()).isEmpty();
    assertThat(after.trace())
        .filteredOn(e -> e.leaseId() == held.admission().leaseId())
        .extracting(TraceEvent::kind)
        .contains(TraceEvent.Kind.RECLAIMED);
    victim.closeAsync();
  }

  @Test
  void aDeadOwnersQueueEntryStopsBlockingTheQueue() throws Exception {
    Limiter survivor = open(cap(2));
    FailingStore doomed = new FailingStore(store());
    Limiter victim = Limiter.open(doomed, cap(2));
    Lease first = survivor.acquire(1);
    Lease second = survivor.acquire(1);
    CompletableFuture<String> heavyDead = victim.schedule(admission -> "dead", weight(2));
    settled(victim);
    assertThat(survivor.inspect().waiters()).hasSize(1);
    CompletableFuture<String> light = survivor.schedule(admission -> "light", weight(1));
    doomed.killOwners();
    first.close();
    assertThat(await(light)).as("the dead heavy head no longer holds the queue").isEqualTo("light");
    assertThat(survivor.inspect().waiters()).isEmpty();
    second.close();
    victim.closeAsync();
  }

  private static dev.sluice.ScheduleOptions scheduleDefaults() {
    return dev.sluice.ScheduleOptions.builder().build();
  }

  private static dev.sluice.ScheduleOptions weight(long w) {
    return dev.sluice.ScheduleOptions.builder().weight(w).build();
  }
}
