/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WaitingRequestsTest {
  private static final class Plain extends Ticket {
    Plain(long ref) {
      super(null, ref, 1, 0, 0, 0);
    }

    @Override
    void onWithdrawn(WithdrawReason why) {}

    @Override
    void onGranted() {}
  }

  private final WaitingRequests waiting = new WaitingRequests();

  @Test
  void findsEachRequestByItsReference() {
    Plain a = new Plain(1);
    Plain b = new Plain(2);
    waiting.add(a);
    waiting.add(b);

    assertThat(waiting.take(2)).isSameAs(b);
    assertThat(waiting.take(2)).isNull();
    assertThat(waiting.isEmpty()).isFalse();
    assertThat(waiting.take(1)).isSameAs(a);
    assertThat(waiting.isEmpty()).isTrue();
  }

  @Test
  void aRequestWhoseSlotIsTakenWaitsInTheOverflow() {
    Plain old = new Plain(7);
    Plain sameSlot = new Plain(7 + 256);
    Plain thirdInSlot = new Plain(7 + 512);
    waiting.add(old);
    waiting.add(sameSlot);
    waiting.add(thirdInSlot);

    assertThat(waiting.snapshot()).containsExactlyInAnyOrder(old, sameSlot, thirdInSlot);
    assertThat(waiting.take(7 + 512)).isSameAs(thirdInSlot);
    assertThat(waiting.take(7)).isSameAs(old);
    assertThat(waiting.take(7 + 256)).isSameAs(sameSlot);
    assertThat(waiting.isEmpty()).isTrue();
  }

  @Test
  void removeForgetsOnlyThatVeryRequest() {
    Plain ringed = new Plain(3);
    Plain overflowed = new Plain(3 + 256);
    waiting.add(ringed);
    waiting.add(overflowed);

    waiting.remove(new Plain(3));
    waiting.remove(overflowed);

    assertThat(waiting.snapshot()).containsExactly(ringed);
    waiting.remove(ringed);
    assertThat(waiting.isEmpty()).isTrue();
  }

  @Test
  void concurrentCallersNeitherLoseNorDuplicateARequest() throws Exception {
    int threads = 8;
    int perThread = 20_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    ConcurrentHashMap<Long, Boolean> taken = new ConcurrentHashMap<>();
    List<Future<Integer>> results = new ArrayList<>();
    try {
      for (int n = 0; n < threads; n++) {
        int thread = n;
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  int found = 0;
                  for (int i = 0; i < perThread; i++) {
                    // Interleaved references, as concurrent callers draw them from one counter.
                    long ref = (long) i * threads + thread;
                    Plain t = new Plain(ref);
                    waiting.add(t);
                    if (i % 3 == 0) {
                      waiting.remove(t);
                      continue;
                    }
                    Ticket back = waiting.take(ref);
                    if (back == t && taken.putIfAbsent(ref, true) == null) {
                      found++;
                    }
                  }
                  return found;
                }));
      }
      start.countDown();
      int found = 0;
      for (Future<Integer> f : results) {
        found += f.get(60, TimeUnit.SECONDS);
      }
      int expectedPerThread = perThread - (perThread + 2) / 3;
      assertThat(found).isEqualTo(threads * expectedPerThread);
      assertThat(waiting.isEmpty()).isTrue();
    } finally {
      pool.shutdownNow();
    }
  }
}
