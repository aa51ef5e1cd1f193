/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The one group-commit coordinator: batching, order, failures, and a close that finishes. */
class GroupCommitterTest {
  /** An item: a number and its result. */
  private record Item(int n, CompletableFuture<Integer> result) {
    Item(int n) {
      this(n, new CompletableFuture<>());
    }
  }

  /** Records the batches; the first batch can be held on a latch, so others queue behind it. */
  private static final class Recorder implements GroupCommitter.Store<Item> {
    final List<List<Integer>> batches = new ArrayList<>();
    final CountDownLatch firstStarted = new CountDownLatch(1);
    final CountDownLatch releaseFirst = new CountDownLatch(1);
    final AtomicBoolean stopped = new AtomicBoolean();
    volatile boolean ranOnCoordinator;
    GroupCommitter<Item> owner;

    @Override
    public void run(List<Item> batch) {
      ranOnCoordinator = owner.onCoordinator();
      synchronized (batches) {
        batches.add(batch.stream().map(Item::n).toList());
      }
      firstStarted.countDown();
      try {
        releaseFirst.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      for (Item i : batch) {
        if (i.n() < 0) {
          throw new IllegalStateException("batch refused " + i.n());
        }
        i.result().complete(i.n() * 10);
      }
    }

    @Override
    public void fail(Item item, Throwable cause) {
      item.result().completeExceptionally(cause);
    }

    @Override
    public RuntimeException closed() {
      return new IllegalStateException("closed");
    }

    @Override
    public void stopped() {
      stopped.set(true);
    }
  }

  private static GroupCommitter<Item> start(Recorder r, int maxBatch) {
    GroupCommitter<Item> c = new GroupCommitter<>("test-group-commit", maxBatch, r);
    r.owner = c;
    return c;
  }

  @Test
  void workQueuedWhileABatchRunsGoesInTheNextBatchInOrder() throws Exception {
    Recorder r = new Recorder();
    GroupCommitter<Item> c = start(r, 64);
    Item first = new Item(1);
    c.submit(first);
    r.firstStarted.await(10, TimeUnit.SECONDS);
    List<Item> later = List.of(new Item(2), new Item(3), new Item(4));
    later.forEach(c::submit);
    r.releaseFirst.countDown();
    for (Item i : later) {
      assertThat(i.result().get(10, TimeUnit.SECONDS)).isEqualTo(i.n() * 10);
    }
    c.close();
    assertThat(r.batches).containsExactly(List.of(1), List.of(2, 3, 4));
    assertThat(r.ranOnCoordinator).isTrue();
    assertThat(c.onCoordinator()).isFalse();
  }

  @Test
  void aBatchIsNeverLargerThanTheLimit() throws Exception {
    Recorder r = new Recorder();
    GroupCommitter<Item> c = start(r, 2);
    c.submit(new Item(0));
    r.firstStarted.await(10, TimeUnit.SECONDS);
    List<Item> later = new ArrayList<>();
    for (int n = 1; n <= 5; n++) {
      later.add(new Item(n));
      c.submit(later.get(n - 1));
    }
    r.releaseFirst.countDown();
    CompletableFuture.allOf(later.stream().map(Item::result).toArray(CompletableFuture[]::new))
        .get(10, TimeUnit.SECONDS);
    c.close();
    assertThat(r.batches).allSatisfy(b -> assertThat(b).hasSizeLessThanOrEqualTo(2));
    assertThat(r.batches.stream().flatMap(List::stream).toList()).containsExactly(0, 1, 2, 3, 4, 5);
  }

  @Test
  void aBatchThatThrowsFailsEachOfItsItems() {
    Recorder r = new Recorder();
    r.releaseFirst.countDown();
    GroupCommitter<Item> c = start(r, 64);
    Item bad = new Item(-1);
    c.submit(bad);
    assertThatThrownBy(bad.result()::join)
        .isInstanceOf(CompletionException.class)
        .hasRootCauseMessage("batch refused -1");
    Item good = new Item(5);
    c.submit(good);
    assertThat(good.result().join()).isEqualTo(50);
    c.close();
  }

  @Test
  void closeRunsWhatWasQueuedThenStopsAndLaterWorkFails() throws Exception {
    Recorder r = new Recorder();
    GroupCommitter<Item> c = start(r, 64);
    c.submit(new Item(1));
    r.firstStarted.await(10, TimeUnit.SECONDS);
    Item queued = new Item(2);
    c.submit(queued);
    CompletableFuture<Void> closing = CompletableFuture.runAsync(c::close);
    r.releaseFirst.countDown();
    closing.get(10, TimeUnit.SECONDS);
    // close returned only after the coordinator ran the queued work and its stop action.
    assertThat(queued.result()).isCompletedWithValue(20);
    assertThat(r.stopped).isTrue();
    Item late = new Item(3);
    c.submit(late);
    assertThatThrownBy(late.result()::join).hasRootCauseMessage("closed");
    c.close();
  }

  @Test
  void aBatchLimitBelowOneIsRefused() {
    assertThatThrownBy(() -> new GroupCommitter<>("x", 0, new Recorder()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxBatch is 0");
  }
}
