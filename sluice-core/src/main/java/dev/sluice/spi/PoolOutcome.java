/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What one command did, as data: its own answer, the leases it granted to waiters and the requests
 * it ended (of any owner), and what a store needs to notify: whether the pool's next deadline moved
 * and when it is. A store persists the state and wakes the {@linkplain #concernedOwners() owners
 * concerned} from this alone; it re-derives nothing.
 *
 * @param value the command's own answer
 * @param issuer the owner that sent the command
 * @param grants leases granted to waiters, any owner
 * @param ended queued requests ended without a usable lease, any owner
 * @param nextDeadline store time at which the queue's head could be admitted by time alone, or
 *     {@link PoolState#NEVER}
 * @param deadlineMoved whether {@code nextDeadline} differs from the one before the command, so
 *     owners that armed a timer for the old one must look again
 * @param sequence the command's {@linkplain PoolContext#sequence() place} in the store's order
 * @param concernsEveryone whether every owner of the pool must look, wherever it is: the command
 *     started or ended a drain, or work left a draining pool, or a lease in one may now expire
 *     sooner (its expiry may settle the drain), which a drain's waits watch for; or it began or
 *     moved a cooldown, or changed the circuit's phase or pause, which every owner's listeners
 *     report
 * @param atIssuersReading the context's {@link PoolContext#atIssuersReading()}: the command took
 *     effect at the issuer's own clock reading
 * @param <R> the answer's type
 */
public record PoolOutcome<R>(
    R value,
    String issuer,
    List<LeaseRecord> grants,
    List<EndedRequest> ended,
    long nextDeadline,
    boolean deadlineMoved,
    long sequence,
    boolean concernsEveryone,
    boolean atIssuersReading) {

  /**
   * An outcome whose time is not known to be the issuer's reading ({@link #atIssuersReading()}
   * false).
   *
   * @param value the command's own answer
   * @param issuer the owner that sent the command
   * @param grants leases granted to waiters, any owner
   * @param ended queued requests ended without a usable lease, any owner
   * @param nextDeadline store time at which the queue's head could be admitted by time alone
   * @param deadlineMoved whether {@code nextDeadline} differs from the one before the command
   * @param sequence the command's place in the store's order
   * @param concernsEveryone whether every owner of the pool must look
   */
  public PoolOutcome(
      R value,
      String issuer,
      List<LeaseRecord> grants,
      List<EndedRequest> ended,
      long nextDeadline,
      boolean deadlineMoved,
      long sequence,
      boolean concernsEveryone) {
    this(
        value,
        issuer,
        grants,
        ended,
        nextDeadline,
        deadlineMoved,
        sequence,
        concernsEveryone,
        false);
  }

  /** Whether the command granted or ended a request of an owner other than its issuer. */
  public boolean concernsOthers() {
    for (LeaseRecord l : grants) {
      if (!l.owner().equals(issuer)) {
        return true;
      }
    }
    for (EndedRequest e : ended) {
      if (!e.owner().equals(issuer)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The owners other than the issuer whose requests the command granted or ended: the ones a store
   * must wake. Empty (and allocation-free) for the common admission.
   */
  public Set<String> concernedOwners() {
    if (!concernsOthers()) {
      return Set.of();
    }
    Set<String> owners = new HashSet<>();
    for (LeaseRecord l : grants) {
      owners.add(l.owner());
    }
    for (EndedRequest e : ended) {
      owners.add(e.owner());
    }
    owners.remove(issuer);
    return owners;
  }
}
