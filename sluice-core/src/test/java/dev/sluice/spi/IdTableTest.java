/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link IdTable} keeps what a {@code LinkedHashMap} by id keeps, in the same order. */
class IdTableTest {
  private record Item(long id, int payload) {}

  @Test
  void randomAddsAndRemovesMatchALinkedHashMap() {
    Random random = new Random(20261206);
    for (int round = 0; round < 50; round++) {
      IdTable<Item> table = new IdTable<>(Item::id);
      Map<Long, Item> model = new LinkedHashMap<>();
      long nextId = random.nextInt(1000);
      // Sizes that grow, hold steady and shrink, so that both compaction and growth happen.
      int target = 1 + random.nextInt(200);
      for (int step = 0; step < 5_000; step++) {
        if (model.size() < target ? random.nextInt(4) != 0 : random.nextInt(4) == 0) {
          Item item = new Item(nextId, step);
          nextId += 1 + random.nextInt(3);
          assertThat(table.addIfAbsent(item)).isTrue();
          model.put(item.id(), item);
        } else if (!model.isEmpty() && random.nextBoolean()) {
          long id = pick(model, random);
          assertThat(table.remove(id)).isEqualTo(model.remove(id));
        } else if (!model.isEmpty()) {
          // Removed only if the test holds for the record; a refusal changes nothing.
          long id = pick(model, random);
          int parity = random.nextInt(2);
          Item expected = model.get(id).payload() % 2 == parity ? model.get(id) : null;
          assertThat(table.removeIf(id, (i, p) -> i.payload() % 2 == p, parity))
              .isEqualTo(expected);
          if (expected != null) {
            model.remove(id);
          }
        }
        if (step % 997 == 0) {
          target = 1 + random.nextInt(200);
        }
        if (step % 61 == 0) {
          assertSame(table, model);
        }
      }
      assertSame(table, model);
    }
  }

  @Test
  void anIdPresentIsNotAddedAgain() {
    IdTable<Item> table = new IdTable<>(Item::id);
    assertThat(table.addIfAbsent(new Item(7, 1))).isTrue();
    assertThat(table.addIfAbsent(new Item(7, 2))).isFalse();
    assertThat(table.get(7)).isEqualTo(new Item(7, 1));
    assertThat(table.remove(8)).isNull();
    assertThat(table).hasSize(1);
  }

  @Test
  void theIteratorRemovesAndFailsFastOnOtherChanges() {
    IdTable<Item> table = new IdTable<>(Item::id);
    for (long id = 1; id <= 20; id++) {
      table.addIfAbsent(new Item(id, 0));
    }
    for (Iterator<Item> it = table.iterator(); it.hasNext(); ) {
      if (it.next().id() % 2 == 1) {
        it.remove();
      }
    }
    assertThat(table)
        .extracting(Item::id)
        .containsExactly(2L, 4L, 6L, 8L, 10L, 12L, 14L, 16L, 18L, 20L);
    assertThat(table.first()).isEqualTo(new Item(2, 0));

    Iterator<Item> it = table.iterator();
    it.next();
    table.addIfAbsent(new Item(99, 0));
    assertThatThrownBy(it::next).isInstanceOf(ConcurrentModificationException.class);
  }

  private static long pick(Map<Long, Item> model, Random random) {
    int skip = random.nextInt(model.size());
    // Mostly the oldest, as leases and waiters mostly leave in order.
    if (random.nextBoolean()) {
      skip = 0;
    }
    Iterator<Long> ids = model.keySet().iterator();
    for (int i = 0; i < skip; i++) {
      ids.next();
    }
    return ids.next();
  }

  private static void assertSame(IdTable<Item> table, Map<Long, Item> model) {
    assertThat(table).hasSize(model.size());
    assertThat(new ArrayList<>(table)).containsExactlyElementsOf(model.values());
    List<Item> values = new ArrayList<>(model.values());
    assertThat(table.first()).isEqualTo(values.isEmpty() ? null : values.get(0));
    for (Item item : values) {
      assertThat(table.get(item.id())).isEqualTo(item);
    }
  }
}
