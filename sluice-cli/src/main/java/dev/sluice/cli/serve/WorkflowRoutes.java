/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.serve;

import com.sun.net.httpserver.HttpExchange;
import dev.sluice.cli.JsonObject;
import dev.sluice.workflow.ExecutionDetails;
import dev.sluice.workflow.ExecutionPage;
import dev.sluice.workflow.ExecutionQuery;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.WorkflowInspector;
import dev.sluice.workflow.WorkflowRuntime;
import dev.sluice.workflow.spi.WorkflowStore;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * The console's workflow routes, on a runtime that registers no workflow and never starts (it only
 * reads, and cancels): {@code GET /api/workflows?status=a,b&q=PREFIX&limit=N&cursor=C} lists
 * executions newest first with counts by status; {@code GET /api/workflows/execution?id=ID} shows
 * one with its steps, timer and wait; {@code POST /api/workflows/cancel {"id"}} cancels one (token
 * and same origin, as every action); {@code GET /api/workflows/events} is a stream of server-sent
 * {@code workflows} events, one with the counts after each change the store reports, for the page
 * to re-read what it shows.
 *
 * <p>Thread-safe; each call blocks on the store, a stream on its change signal.
 */
final class WorkflowRoutes implements AutoCloseable {
  private final WorkflowRuntime runtime;
  private final WorkflowInspector inspector;
  private final Access access;
  private final ActionRoutes actions;
  private final String storeName;
  private final WorkflowChanges changes = new WorkflowChanges();
  private final AutoCloseable subscription;

  /** Joins {@code store} (opening its session, which may block on it). */
  WorkflowRoutes(WorkflowStore store, Access access, ActionRoutes actions) {
    this.runtime = WorkflowRuntime.builder().store(store).build();
    this.inspector = runtime.inspector();
    this.storeName = "workflow store " + store.name();
    this.access = access;
    this.actions = actions;
    this.subscription = inspector.onChange(changes::changed);
  }

  /** The console's runtime on the store, which never starts (for the store's meters). */
  WorkflowRuntime runtime() {
    return runtime;
  }

  void list(HttpExchange ex) throws IOException {
    if (!readable(ex)) {
      return;
    }
    Map<String, String> q = query(ex);
    ExecutionQuery query;
    try {
      ExecutionQuery.Builder b = ExecutionQuery.builder().idPrefix(q.getOrDefault("q", "").strip());
      for (String s : q.getOrDefault("status", "").split(",")) {
        if (!s.isBlank()) {
          b.status(ExecutionStatus.ofCode(s.strip()));
        }
      }
      if (q.containsKey("limit")) {
        b.limit(whole("limit", q.get("limit")));
      }
      Optional.ofNullable(q.get("cursor")).filter(c -> !c.isEmpty()).ifPresent(b::cursor);
      query = b.build();
    } catch (IllegalArgumentException e) {
      Exchanges.error(ex, 400, "usage", e.getMessage());
      return;
    }
    ExecutionPage page;
    try {
      page = inspector.executions(query);
    } catch (IllegalArgumentException e) {
      Exchanges.error(ex, 400, "usage", e.getMessage());
      return;
    }
    JsonObject o =
        new JsonObject()
            .put("store", storeName)
            .put("canAct", access.hasToken(ex.getRequestHeaders()))
            .set("counts", WorkflowJson.counts(inspector.counts()))
            .set("executions", page.executions().stream().map(WorkflowJson::summary).toList());
    page.nextCursor().ifPresent(c -> o.put("nextCursor", c));
    Exchanges.json(ex, 200, o);
  }

  void execution(HttpExchange ex) throws IOException {
    if (!readable(ex)) {
      return;
    }
    String id = query(ex).getOrDefault("id", "");
    if (id.isEmpty()) {
      Exchanges.error(ex, 400, "usage", "the query parameter 'id' is required (an execution id)");
      return;
    }
    Optional<ExecutionDetails> d = inspector.details(id);
    if (d.isEmpty()) {
      Exchanges.error(ex, 404, "not_found", "no execution '" + id + "' in " + storeName);
      return;
    }
    Exchanges.json(ex, 200, WorkflowJson.details(d.get()));
  }

  void cancel(HttpExchange ex) throws IOException {
    actions.handle(
        ex,
        body -> {
          String id = body.text("id");
          boolean cancelled = runtime.cancel(id);
          ExecutionStatus now =
              inspector
                  .details(id)
                  .orElseThrow(
                      () -> new NoSuchElementException("no execution '" + id + "' in " + storeName))
                  .execution()
                  .status();
          return new JsonObject()
              .put("id", id)
              .put("cancelled", cancelled)
              .put("status", now.code());
        });
  }

  void events(HttpExchange ex) throws IOException {
    if (!readable(ex)) {
      return;
    }
    Exchanges.common(ex);
    ex.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
    ex.sendResponseHeaders(200, 0);
    try (OutputStream out = ex.getResponseBody()) {
      write(out, "retry: 2000\n\n");
      long seen = changes.count();
      write(out, message());
      while (true) {
        long now = changes.awaitAfter(seen, EventStream.KEEPALIVE_SECONDS * 1000);
        if (now < 0) {
          return;
        }
        write(out, now == seen ? ": keepalive\n\n" : message());
        seen = now;
      }
    } catch (IOException e) {
      // The client went away: nothing to tell it.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private String message() {
    return "event: workflows\ndata: "
        + new JsonObject().set("counts", WorkflowJson.counts(inspector.counts()))
        + "\n\n";
  }

  private boolean readable(HttpExchange ex) throws IOException {
    return Routes.method(ex, "GET")
        && !Routes.refused(ex, access.checkRead(ex.getRequestHeaders()));
  }

  private static void write(OutputStream out, String text) throws IOException {
    out.write(text.getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  private static int whole(String name, String value) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a whole number, was '" + value + "'");
    }
  }

  private static Map<String, String> query(HttpExchange ex) {
    Map<String, String> out = new HashMap<>();
    String raw = ex.getRequestURI().getRawQuery();
    if (raw == null) {
      return out;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      out.put(
          URLDecoder.decode(k, StandardCharsets.UTF_8),
          URLDecoder.decode(v, StandardCharsets.UTF_8));
    }
    return out;
  }

  /** Ends every stream and closes the runtime (and with it its session on the store). */
  @Override
  public void close() {
    changes.close();
    try {
      subscription.close();
    } catch (Exception e) {
      // Removing a listener from a list cannot fail.
    }
    runtime.close();
  }
}
