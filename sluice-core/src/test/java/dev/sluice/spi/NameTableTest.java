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
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link NameTable} keeps what a {@code LinkedHashMap} by name keeps, in the same order, also when
 * names share a hash.
 */
class NameTableTest {
  private record Item(String name, int payload) {}

  @Test
  void randomAddsReplacesAndRemovesMatchALinkedHashMap() {
    Random random = new Random(20261206);
    for (int round = 0; round < 50; round++) {
      // Half the rounds mix random ids with names from small groups of strings that share a hash
      // ("Aa" and "BB" hash alike, and so does every string made of the same number of either;
      // each length is a group), so that runs of one hash sit beside entries of other homes, and
      // probes meet keys that match and names that do not.
      boolean colliding = round % 2 == 0;
      NameTable<Item> table = new NameTable<>(Item::name);
      Map<String, Item> model = new LinkedHashMap<>();
      int target = 1 + random.nextInt(200);
      for (int step = 0; step < 5_000; step++) {
        int action = random.nextInt(8);
        if (model.size() < target ? action < 5 : action < 2) {
          String name =
              colliding && random.nextBoolean() ? colliding(random) : UUID.randomUUID().toString();
          Item item = new Item(name, step);
          boolean absent = !model.containsKey(name);
          assertThat(table.addIfAbsent(item)).isEqualTo(absent);
          model.putIfAbsent(name, item);
        } else if (action == 5 && !model.isEmpty()) {
          String name = pick(model, random);
          // A copy of the name: found by its characters, not by identity.
          Item item = new Item(new String(name.toCharArray()), step);
          table.put(item);
          model.put(name, item);
        } else if (action == 6 && !model.isEmpty()) {
          // A look and a removal in one probe: removed only if the test holds for the record.
          String name = random.nextInt(4) == 0 ? UUID.randomUUID().toString() : pick(model, random);
          int parity = random.nextInt(2);
          Item present = model.get(name);
          Item expected = present != null && present.payload() % 2 == parity ? present : null;
          assertThat(
                  table.removeIf(
                      new String(name.toCharArray()), (i, p) -> i.payload() % 2 == p, parity))
              .isEqualTo(expected);
          if (expected != null) {
            model.remove(name);
          }
        } else if (!model.isEmpty()) {
          String name = pick(model, random);
          assertThat(table.remove(new String(name.toCharArray()))).isEqualTo(model.remove(name));
        }
        if (step % 997 == 0) {
          target = 1 + random.nextInt(200);
        }
        if (step % 1_499 == 1_498) {
          table.clear();
          model.clear();
        }
        if (step % 61 == 0) {
          assertSame(table, model);
        }
      }
      assertSame(table, model);
    }
  }

  @Test
  void namesThatShareAHashAreKeptApart() {
    assertThat("Aa".hashCode()).isEqualTo("BB".hashCode());
    NameTable<Item> table = new NameTable<>(Item::name);
    assertThat(table.addIfAbsent(new Item("Aa", 1))).isTrue();
    assertThat(table.addIfAbsent(new Item("BB", 2))).isTrue();
    assertThat(table.get("Aa")).isEqualTo(new Item("Aa", 1));
    assertThat(table.get("BB")).isEqualTo(new Item("BB", 2));
    assertThat(table.remove("Aa")).isEqualTo(new Item("Aa", 1));
    assertThat(table.get("Aa")).isNull();
    assertThat(table.get("BB")).isEqualTo(new Item("BB", 2));
  }

  @Test
  void aPutReplacesInPlaceAndAClearEmpties() {
    NameTable<Item> table = new NameTable<>(Item::name);
    table.put(new Item("a", 1));
    table.put(new Item("b", 2));
    table.put(new Item("c", 3));
    table.put(new Item("b", 20));
    assertThat(table).containsExactly(new Item("a", 1), new Item("b", 20), new Item("c", 3));
    assertThat(table.addIfAbsent(new Item("a", 10))).isFalse();
    table.clear();
    assertThat(table).isEmpty();
    assertThat(table.get("a")).isNull();
    table.put(new Item("c", 30));
    assertThat(table).containsExactly(new Item("c", 30));
  }

  @Test
  void theIteratorRemovesAndFailsFastOnOtherChanges() {
    NameTable<Item> table = new NameTable<>(Item::name);
    for (int i = 1; i <= 20; i++) {
      table.put(new Item("op-" + i, i));
    }
    for (Iterator<Item> it = table.iterator(); it.hasNext(); ) {
      if (it.next().payload() % 2 == 1) {
        it.remove();
      }
    }
    assertThat(table).extracting(Item::payload).containsExactly(2, 4, 6, 8, 10, 12, 14, 16, 18, 20);
    Iterator<Item> it = table.iterator();
    it.next();
    // Replacing a record in its place is no structural change, as in a LinkedHashMap.
    table.put(new Item("op-6", 60));
    assertThat(it.next()).isEqualTo(new Item("op-4", 4));
    assertThat(it.next()).isEqualTo(new Item("op-6", 60));
    table.remove("op-4");
    assertThatThrownBy(it::next).isInstanceOf(ConcurrentModificationException.class);
  }

  /** A name of 2 to 6 pairs, every one hashing as the others of its length do. */
  private static String colliding(Random random) {
    StringBuilder name = new StringBuilder();
    int pairs = 2 + random.nextInt(5);
    int bits = random.nextInt(1 << pairs);
    for (int i = 0; i < pairs; i++) {
      name.append((bits >> i & 1) == 0 ? "Aa" : "BB");
    }
    return name.toString();
  }

  private static String pick(Map<String, Item> model, Random random) {
    int skip = random.nextBoolean() ? 0 : random.nextInt(model.size());
    Iterator<String> names = model.keySet().iterator();
    for (int i = 0; i < skip; i++) {
      names.next();
    }
    return names.next();
  }

  private static void assertSame(NameTable<Item> table, Map<String, Item> model) {
    assertThat(table).hasSize(model.size());
    assertThat(new ArrayList<>(table)).containsExactlyElementsOf(model.values());
    List<Item> values = new ArrayList<>(model.values());
    assertThat(table.first()).isEqualTo(values.isEmpty() ? null : values.get(0));
    for (Item item : values) {
      assertThat(table.get(new String(item.name().toCharArray()))).isEqualTo(item);
    }
  }
}
