/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow;

import dev.sluice.workflow.DurableStore;
import java.util.ArrayList;
import java.util.List;

/**
 * The document type of the durable store cases: a counter, a status, notes and an optional payment,
 * so that changes can touch one path and leave the others.
 *
 * @param count a counter
 * @param status a status word
 * @param notes appended notes
 * @param payment null until paid
 */
public record Tab(int count, String status, List<String> notes, Payment payment) {
  /** The durable store of tabs; a tab never written is open, with nothing in it. */
  public static final DurableStore<Tab> TABS =
      DurableStore.define("tab", Tab.class, () -> new Tab(0, "open", List.of(), null));

  /**
   * A payment.
   *
   * @param method how
   * @param cents how much
   */
  public record Payment(String method, int cents) {}

  /** This tab counted once more. */
  public Tab counted() {
    return new Tab(count + 1, status, notes, payment);
  }

  /** This tab with another status. */
  public Tab withStatus(String s) {
    return new Tab(count, s, notes, payment);
  }

  /** This tab with a note appended. */
  public Tab noted(String note) {
    List<String> more = new ArrayList<>(notes);
    more.add(note);
    return new Tab(count, status, more, payment);
  }

  /** This tab paid. */
  public Tab paid(Payment p) {
    return new Tab(count, status, notes, p);
  }
}
