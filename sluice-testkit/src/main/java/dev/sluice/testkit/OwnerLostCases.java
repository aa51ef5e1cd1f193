/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterEvent;
import dev.sluice.LimiterOptions;
import dev.sluice.OwnerLostException;
import dev.sluice.PoolSnapshot;
import dev.sluice.ScheduleOptions;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * An owner that the store declares dead while its JVM lives (a server store whose heartbeat from
 * the JVM lapsed; here {@link FailingStore#loseOwners()}) loses what it held, as a dead owner does,
 * and its JVM learns it: requests that had not started fail with {@link OwnerLostException} (and an
 * {@link LimiterEvent.Kind#OWNER_LOST} event), a lease held across the loss no longer counts and
 * its release frees nothing of anyone else's, and the limiter goes on as a new owner.
 */
public abstract class OwnerLostCases extends ConformanceCase {
  protected OwnerLostCases(StoreFactory stores) {
    super(stores);
  }

  @Test
  void aLostOwnersWaitingRequestFailsAndItsLeaseGoesToTheOthers() throws Exception {
    Limiter other = open(cap(1));
    FailingStore losing = new FailingStore(store());
    EventRecorder events = new EventRecorder();
    Limiter limiter =
        track(Limiter.open(losing, cap(1), LimiterOptions.builder().listener(events).build()));
    Lease held = limiter.acquire(1);
    long lostToken = held.admission().fencingToken();
    CompletableFuture<String> waiting = limiter.schedule(admission -> "ran", defaults());
    settled(limiter);

    losing.loseOwners();

    assertThat(awaitFailure(waiting)).isInstanceOf(OwnerLostException.class);
    events.awaitCount(LimiterEvent.Kind.OWNER_LOST, 1);
    long token = await(other.schedule(admission -> admission.fencingToken(), defaults()));
    assertThat(token).as("the lost owner's unit went to the other owner").isGreaterThan(lostToken);
    held.close();
    PoolSnapshot s = other.inspect();
    assertThat(s.leases()).as("the lost lease's release freed nothing").isEmpty();
    assertThat(s.waiters()).isEmpty();
  }

  @Test
  void aLeaseHeldAcrossTheLossReleasesNothingOfAnotherOwner() throws Exception {
    Limiter other = open(cap(1));
    FailingStore losing = new FailingStore(store());
    Limiter limiter = track(Limiter.open(losing, cap(1)));
    Lease held = limiter.acquire(1);
    losing.loseOwners();
    Lease otherHolds = other.acquire(1);
    held.close();
    assertThat(other.inspect().activeWeight())
        .as("the other owner's lease still counts after the lost lease's release")
        .isEqualTo(1);
    otherHolds.close();
  }

  @Test
  void theLimiterGoesOnAsANewOwnerAfterTheLoss() throws Exception {
    Limiter other = open(cap(1));
    FailingStore losing = new FailingStore(store());
    Limiter limiter = track(Limiter.open(losing, cap(1)));
    Lease first = limiter.acquire(1);
    String lostOwner = other.inspect().leases().get(0).owner();
    losing.loseOwners();
    // The loss is learnt at the next command; the pool already took the unit back.
    String ran = await(other.schedule(admission -> "other", defaults()));
    assertThat(ran).isEqualTo("other");
    first.close();
    try (Lease again = limiter.acquire(1)) {
      PoolSnapshot s = other.inspect();
      assertThat(s.leases())
          .singleElement()
          .satisfies(l -> assertThat(l.owner()).isNotEqualTo(lostOwner));
      assertThat(again.admission().fencingToken()).isPositive();
    }
  }

  private static ScheduleOptions defaults() {
    return ScheduleOptions.builder().build();
  }
}
