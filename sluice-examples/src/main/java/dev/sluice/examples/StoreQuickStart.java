/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.examples;

import dev.sluice.workflow.DurableStore;
import dev.sluice.workflow.Execution;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowRuntime;
import dev.sluice.workflow.sqlite.SqliteWorkflowStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * The README's durable store example: an expense workflow asks for approval and waits, holding no
 * worker, until a change of the approval's {@code /state} decides it; a webhook (here a thread of
 * the same program; any process that opens the store would do) records the decision. On a SQLite
 * workflow store in {@code .tmp/expenses} under the working directory. Run it again and the
 * finished execution's recorded result is printed; the webhook's idempotency key keeps its second
 * delivery from changing anything.
 */
public final class StoreQuickStart {
  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

  private StoreQuickStart() {}

  /** An expense to reimburse. */
  public record Expense(String id, String who, long cents) {}

  /** A manager's decision: {@code pending} until someone approves or rejects. */
  public record Approval(String state, String by) {}

  /** Approvals, one document per expense; a new one is pending. */
  static final DurableStore<Approval> APPROVALS =
      DurableStore.define("approval", Approval.class, () -> new Approval("pending", null));

  /**
   * Runs the example.
   *
   * @param args ignored
   * @throws Exception if the workflow fails
   */
  public static void main(String[] args) throws Exception {
    Workflow<Expense, String> reimburse =
        Workflow.define(
            "reimburse",
            Expense.class,
            String.class,
            (ctx, e) -> {
              ctx.step(
                  "ask",
                  String.class,
                  () -> {
                    say("asking a manager to approve " + e.id());
                    return "asked";
                  });
              Approval a =
                  ctx.store(APPROVALS, e.id())
                      .awaitCondition(
                          "decision", List.of("/state"), d -> !d.state().equals("pending"))
                      .state();
              if (!a.state().equals("approved")) {
                return e.id() + " " + a.state() + " by " + a.by();
              }
              return ctx.step(
                  "pay",
                  String.class,
                  () -> {
                    say("paying " + e.who());
                    return "paid " + e.cents() + " cents to " + e.who() + ", approved by " + a.by();
                  });
            });
    Path dir = Path.of(".tmp", "expenses");
    try (WorkflowRuntime runtime =
        WorkflowRuntime.builder()
            .store(SqliteWorkflowStore.directory(dir))
            .register(reimburse)
            .build()) {
      runtime.start();
      Execution<String> run = runtime.submit(reimburse, "exp-7", new Expense("exp-7", "ana", 4200));
      Thread webhook =
          new Thread(
              () -> {
                try {
                  Thread.sleep(1000); // a manager takes a moment
                } catch (InterruptedException stop) {
                  return;
                }
                for (int delivery = 1; delivery <= 2; delivery++) {
                  long version =
                      runtime
                          .store(APPROVALS, "exp-7")
                          .update("decision-1", d -> new Approval("approved", "dana"))
                          .version();
                  say("webhook delivery " + delivery + ": approval at version " + version);
                }
              });
      webhook.start();
      say("execution " + run.id() + " is " + run.status());
      say("result: " + run.result(Duration.ofSeconds(30)));
      webhook.join();
    }
    System.out.println("store: " + dir.toAbsolutePath() + " (delete it to start over)");
  }

  private static void say(String line) {
    System.out.println(LocalTime.now().format(CLOCK) + "  " + line);
  }
}
