/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.examples;

import dev.sluice.workflow.Execution;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowRuntime;
import dev.sluice.workflow.sqlite.SqliteWorkflowStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;

/**
 * The README's workflow quick start: a checkout that charges a card, waits out a durable cool-off
 * and ships, on a SQLite workflow store in {@code .tmp/workflows} under the working directory. The
 * first run executes every step; a later run finds execution {@code order-42} already finished and
 * prints its recorded receipt without running anything again. Kill it during the cool-off and run
 * it again: the charge is not repeated, and the cool-off ends when it was due.
 */
public final class WorkflowQuickStart {
  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

  private WorkflowQuickStart() {}

  /** An order to check out. */
  public record Order(String id, long cents) {}

  /** What a payment provider answered. */
  public record Payment(String reference, long cents) {}

  /** What the shop hands back. */
  public record Receipt(String order, String payment, String parcel) {}

  /**
   * Runs the example.
   *
   * @param args ignored
   * @throws Exception if the workflow fails
   */
  public static void main(String[] args) throws Exception {
    Workflow<Order, Receipt> checkout =
        Workflow.define(
            "checkout",
            Order.class,
            Receipt.class,
            (ctx, order) -> {
              Payment p =
                  ctx.step(
                      "charge",
                      Payment.class,
                      step -> {
                        // The idempotency key is the same on every attempt: a real provider
                        // would get it, so a retried charge is not a second charge.
                        say("charging " + order.cents() + " cents, key " + step.idempotencyKey());
                        return new Payment("pay-" + order.id(), order.cents());
                      });
              ctx.sleep("cool-off", Duration.ofSeconds(2));
              return ctx.step(
                  "ship",
                  Receipt.class,
                  () -> {
                    say("shipping order " + order.id());
                    return new Receipt(order.id(), p.reference(), "parcel-" + order.id());
                  });
            });
    Path dir = Path.of(".tmp", "workflows");
    try (WorkflowRuntime runtime =
        WorkflowRuntime.builder()
            .store(SqliteWorkflowStore.directory(dir))
            .register(checkout)
            .build()) {
      runtime.start();
      Execution<Receipt> run = runtime.submit(checkout, "order-42", new Order("42", 1999));
      say("execution " + run.id() + " is " + run.status());
      Receipt receipt = run.result(Duration.ofSeconds(30));
      say("receipt " + receipt);
    }
    System.out.println("store: " + dir.toAbsolutePath() + " (delete it to start over)");
  }

  private static void say(String line) {
    System.out.println(LocalTime.now().format(CLOCK) + "  " + line);
  }
}
