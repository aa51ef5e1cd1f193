/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.serve;

import com.sun.net.httpserver.HttpExchange;
import dev.sluice.StaleDrainException;
import dev.sluice.cli.JsonObject;
import dev.sluice.gate.AcquireRequest;
import dev.sluice.gate.GateException;
import java.io.IOException;
import java.util.Locale;

/**
 * The console's changes, each a {@code POST} of a small JSON object that {@link Access} has let
 * through (token and same origin): {@code /api/cancel {"requestId"}}, {@code /api/force-release
 * {"requestId", "kill", "reason"}} and {@code /api/capacity {"pool", "capacity", "reason"}}. The
 * answer is the matching verb's {@code --json} answer, or {@code {"error", "message"}} with 400 for
 * bad input, 404 for an unknown request or pool, 409 for a refusal of the gate.
 *
 * <p>Thread-safe; each call blocks for the gate (and, for a kill, while the group stops).
 */
final class ActionRoutes {
  /** The body's media type: a form post from another site cannot send it without a preflight. */
  private static final String JSON = "application/json";

  /** One action. */
  @FunctionalInterface
  interface Action {
    JsonObject apply(JsonBody body) throws InterruptedException;
  }

  private final Actions actions;
  private final Access access;

  ActionRoutes(Actions actions, Access access) {
    this.actions = actions;
    this.access = access;
  }

  void cancel(HttpExchange ex) throws IOException {
    handle(ex, b -> actions.cancel(b.text("requestId")));
  }

  void forceRelease(HttpExchange ex) throws IOException {
    handle(
        ex,
        b ->
            actions.forceRelease(b.text("requestId"), b.flag("kill", false), b.text("reason", "")));
  }

  void capacity(HttpExchange ex) throws IOException {
    handle(
        ex,
        b ->
            actions.setCapacity(
                b.text("pool"),
                b.whole("capacity", 1, AcquireRequest.MAX_WEIGHT),
                b.text("reason", "")));
  }

  /** Checks method, token, origin and media type, then answers {@code action}'s result. */
  void handle(HttpExchange ex, Action action) throws IOException {
    if (!Routes.method(ex, "POST")
        || Routes.refused(ex, access.checkChange(ex.getRequestHeaders()))) {
      return;
    }
    String type = ex.getRequestHeaders().getFirst("Content-Type");
    if (type == null || !type.toLowerCase(Locale.ROOT).startsWith(JSON)) {
      Exchanges.error(ex, 415, "usage", "Content-Type must be " + JSON + ", was '" + type + "'");
      return;
    }
    answer(ex, action);
  }

  private static void answer(HttpExchange ex, Action action) throws IOException {
    try {
      Exchanges.json(ex, 200, action.apply(JsonBody.parse(Exchanges.body(ex))));
    } catch (GateException e) {
      String code = e.code().wireName();
      int status = code.startsWith("unknown_") ? 404 : 409;
      Exchanges.error(ex, status, code, e.getMessage());
    } catch (LimiterRoutes.UnknownPoolException e) {
      Exchanges.error(ex, 404, "unknown_pool", e.getMessage());
    } catch (StaleDrainException e) {
      Exchanges.error(ex, 409, "stale_drain", e.getMessage());
    } catch (java.util.NoSuchElementException e) {
      Exchanges.error(ex, 404, "not_found", e.getMessage());
    } catch (IllegalArgumentException e) {
      Exchanges.error(ex, 400, "usage", e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      Exchanges.error(ex, 503, "interrupted", "the server is stopping");
    }
  }
}
