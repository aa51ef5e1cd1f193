/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.serve;

import com.sun.net.httpserver.HttpExchange;
import dev.sluice.Maintenance;
import dev.sluice.cli.JsonObject;
import dev.sluice.cli.LimiterJson;
import java.io.IOException;

/**
 * The console's limiter pools ({@code sluice serve --pool-dir DIR}, {@code --postgres-pool NAME}):
 * {@code GET /api/limiters} (every pool, as {@link LimiterFeed} last read it, and {@code canAct}),
 * {@code GET /api/limiters/events} (server-sent events {@code limiters}, the whole list on every
 * change), and the actions {@code POST /api/limiters/drain {"pool"}} and {@code
 * /api/limiters/resume {"pool", "generation"}}, where {@code pool} is the pool's {@code key} in the
 * view (a directory's absolute path, or {@code postgres:SCHEMA.PREFIX:NAME}). The actions answer as
 * {@code sluice pool drain|resume} print, 404 for a pool the console was not given, 409 for a stale
 * generation; {@link Access} checks them as every other change.
 *
 * <p>Thread-safe; an action blocks for the pool's store.
 */
final class LimiterRoutes {
  private final LimiterFeed feed;
  private final Access access;
  private final ActionRoutes actions;

  LimiterRoutes(LimiterFeed feed, Access access, ActionRoutes actions) {
    this.feed = feed;
    this.access = access;
    this.actions = actions;
  }

  void list(HttpExchange ex) throws IOException {
    if (!ex.getRequestURI().getPath().equals("/api/limiters")) {
      Exchanges.error(ex, 404, "not_found", "no page " + ex.getRequestURI().getPath());
      return;
    }
    if (!Routes.method(ex, "GET") || Routes.refused(ex, access.checkRead(ex.getRequestHeaders()))) {
      return;
    }
    Exchanges.json(ex, 200, feed.view().put("canAct", access.hasToken(ex.getRequestHeaders())));
  }

  void events(HttpExchange ex) throws IOException {
    if (!Routes.method(ex, "GET") || Routes.refused(ex, access.checkRead(ex.getRequestHeaders()))) {
      return;
    }
    EventStream.run(ex, feed::subscribe, feed::unsubscribe);
  }

  void drain(HttpExchange ex) throws IOException {
    actions.handle(
        ex,
        b -> {
          LimiterPool p = find(b.text("pool"));
          return answer(p, acted(p.limiter().maintenance().drain()));
        });
  }

  void resume(HttpExchange ex) throws IOException {
    actions.handle(
        ex,
        b -> {
          LimiterPool p = find(b.text("pool"));
          Maintenance m = p.limiter().maintenance();
          return answer(p, acted(m.resume(b.whole("generation", 1, Integer.MAX_VALUE))));
        });
  }

  private static JsonObject answer(LimiterPool p, dev.sluice.ControlStatus s) {
    return LimiterJson.control(LimiterJson.pool(p.describe(), p.limiter().config()), s);
  }

  /** The console's own change shows at once, whether or not its store announces it here. */
  private dev.sluice.ControlStatus acted(dev.sluice.ControlStatus s) {
    feed.wake();
    return s;
  }

  private LimiterPool find(String key) {
    for (LimiterPool p : feed.pools()) {
      if (p.key().equals(key)) {
        return p;
      }
    }
    throw new UnknownPoolException(
        "pool '" + key + "' is not one of this console's --pool-dir directories");
  }

  /** A pool the console was not given: answered with 404. */
  static final class UnknownPoolException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    UnknownPoolException(String message) {
      super(message);
    }
  }
}
