/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.AcquireRequest;
import dev.sluice.gate.GateService;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The line a waiting run logs off a terminal names who else holds the pool, read from the gate when
 * the queued report arrives: never the run itself, whose slot may be on its way by then.
 */
class WaitLogTest {
  @TempDir Path home;
  GateService gate;

  @BeforeEach
  void open() {
    gate = GateService.open(home);
    gate.setCapacity("p", 1, "test", "");
  }

  @AfterEach
  void close() {
    gate.close();
  }

  private AcquireOutcome acquire(String op, String label) {
    return gate.acquire(new AcquireRequest("agent", op, "p", 1, label, ""));
  }

  private String logged(AcquireOutcome.Queued queued) {
    StringWriter text = new StringWriter();
    new WaitLog(new PrintWriter(text), gate, "p", true).update(queued);
    return text.toString();
  }

  @Test
  void whileAnotherHoldsThePoolTheLineNamesItByLabel() {
    AcquireOutcome.Granted holder = (AcquireOutcome.Granted) acquire("a", "holder");
    AcquireOutcome.Queued waiter = (AcquireOutcome.Queued) acquire("b", "waiter");

    assertThat(logged(waiter))
        .isEqualTo(
            "sluice: waiting for pool p: queue position 1, held by \"holder\" ("
                + holder.ticket().requestId()
                + ") (1/1 used)"
                + System.lineSeparator());
  }

  @Test
  void onceTheSlotIsOnItsWayToTheRunItNamesNoHolder() {
    AcquireOutcome.Granted holder = (AcquireOutcome.Granted) acquire("a", "holder");
    AcquireOutcome.Queued waiter = (AcquireOutcome.Queued) acquire("b", "waiter");
    gate.release(holder.permitToken(), "done");

    assertThat(gate.ticket(waiter.ticket().requestId()).orElseThrow().state().name())
        .as("the waiter now takes the pool's only unit itself")
        .isIn("OFFERED", "HELD");
    assertThat(logged(waiter))
        .isEqualTo("sluice: waiting for pool p: queue position 1" + System.lineSeparator());
  }
}
