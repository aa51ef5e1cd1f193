/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.serve;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.sluice.SluiceException;
import dev.sluice.cli.top.Feed;
import dev.sluice.gate.GateService;
import java.io.IOException;
import java.io.InputStream;
import java.net.BindException;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * {@code sluice serve}'s HTTP server (the JDK's {@code com.sun.net.httpserver}): the console page
 * and its files from the jar, {@code GET /api/status}, {@code GET /api/events} (server-sent events
 * fed by the same {@link Feed} as {@code sluice top}) and the actions {@code POST /api/cancel},
 * {@code /api/force-release} and {@code /api/capacity}, the limiter pools it was given ({@link
 * LimiterRoutes}), a workflow store ({@link WorkflowRoutes}), and {@code GET /metrics} ({@link
 * MetricsPage}). Who may do what is {@link Access}'s to say.
 *
 * <p>Thread-safe. Each request runs on a daemon thread of its own pool; an event stream holds its
 * thread until the client goes or the server closes. {@link #close} stops listening and ends every
 * stream.
 */
public final class ConsoleServer implements AutoCloseable {
  /** The files of the page, by path: resource name and content type. */
  private static final Map<String, String[]> FILES =
      Map.of(
          "/", new String[] {"index.html", "text/html"},
          "/console.css", new String[] {"console.css", "text/css"},
          "/console.js", new String[] {"console.js", "text/javascript"},
          "/limiters.js", new String[] {"limiters.js", "text/javascript"},
          "/workflows.js", new String[] {"workflows.js", "text/javascript"});

  private final HttpServer http;
  private final ExecutorService threads;
  private final Hub hub;
  private final Access access;
  private final Listen listen;
  private final GateService gate;
  private LimiterFeed limiters;
  private MetricsPage metrics;
  private WorkflowRoutes workflows;

  private ConsoleServer(
      HttpServer http,
      ExecutorService threads,
      Hub hub,
      Access access,
      Listen listen,
      GateService gate) {
    this.http = http;
    this.threads = threads;
    this.hub = hub;
    this.access = access;
    this.listen = listen;
    this.gate = gate;
  }

  /**
   * Starts serving {@code gate} on {@code listen}.
   *
   * @param actions what the buttons do
   * @throws SluiceException if the address cannot be bound, naming it and why
   */
  public static ConsoleServer start(
      GateService gate, Listen listen, ServeToken token, Actions actions) throws IOException {
    return start(gate, listen, token, actions, List.of(), null);
  }

  /**
   * Starts serving {@code gate}, the limiter pools {@code limiters} (SQLite or PostgreSQL) and,
   * when {@code workflows} is not null, the executions of that workflow store under {@code
   * /api/workflows} (see {@link WorkflowRoutes}) on {@code listen}.
   *
   * @param actions what the buttons do
   * @param limiters the limiter pools to show ({@link LimiterRoutes})
   * @param workflows a workflow store to show, or null
   * @throws SluiceException if the address cannot be bound, naming it and why
   */
  public static ConsoleServer start(
      GateService gate,
      Listen listen,
      ServeToken token,
      Actions actions,
      List<LimiterPool> limiters,
      dev.sluice.workflow.spi.WorkflowStore workflows)
      throws IOException {
    HttpServer http;
    try {
      http = HttpServer.create(listen.socket(), 0);
    } catch (BindException e) {
      throw new SluiceException(
          "cannot listen on " + listen.urlHost() + ":" + listen.port() + ": " + e.getMessage());
    }
    ExecutorService threads =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "sluice-serve-http");
              t.setDaemon(true);
              return t;
            });
    Hub hub = new Hub();
    Access access = new Access(listen, http.getAddress().getPort(), token);
    ConsoleServer server = new ConsoleServer(http, threads, hub, access, listen, gate);
    ActionRoutes act = new ActionRoutes(actions, access);
    http.setExecutor(threads);
    http.createContext("/", guarded(server::page));
    http.createContext("/api/status", guarded(server::status));
    http.createContext("/api/events", guarded(server::events));
    http.createContext("/api/cancel", guarded(act::cancel));
    http.createContext("/api/force-release", guarded(act::forceRelease));
    http.createContext("/api/capacity", guarded(act::capacity));
    server.limiters = new LimiterFeed(limiters);
    LimiterRoutes lim = new LimiterRoutes(server.limiters, access, act);
    http.createContext("/api/limiters", guarded(lim::list));
    http.createContext("/api/limiters/events", guarded(lim::events));
    http.createContext("/api/limiters/drain", guarded(lim::drain));
    http.createContext("/api/limiters/resume", guarded(lim::resume));
    server.limiters.start();
    server.metrics = new MetricsPage(limiters, access, gate.lastEventSequence());
    http.createContext("/metrics", guarded(server.metrics::scrape));
    if (workflows != null) {
      WorkflowRoutes routes = new WorkflowRoutes(workflows, access, act);
      server.metrics.bindWorkflows(routes.runtime());
      server.serveWorkflows(routes);
    }
    // The meters first: whoever sees a change on the stream then finds it in /metrics.
    new Feed(gate, Hub.KEPT, Clock.systemUTC(), server.metrics.andThen(hub)).start();
    http.start();
    return server;
  }

  private void serveWorkflows(WorkflowRoutes w) {
    workflows = w;
    http.createContext("/api/workflows", guarded(w::list));
    http.createContext("/api/workflows/execution", guarded(w::execution));
    http.createContext("/api/workflows/cancel", guarded(w::cancel));
    http.createContext("/api/workflows/events", guarded(w::events));
  }

  /** The console's address, as a browser opens it (loopback for a wildcard listen). */
  public URI uri() {
    String host = listen.wildcard() ? "127.0.0.1" : listen.urlHost();
    return URI.create("http://" + host + ":" + http.getAddress().getPort() + "/");
  }

  /** The port it listens on (the one picked, for port 0). */
  public int port() {
    return http.getAddress().getPort();
  }

  private void page(HttpExchange ex) throws IOException {
    String path = ex.getRequestURI().getPath();
    String[] file = FILES.get(path);
    if (file == null) {
      Exchanges.error(ex, 404, "not_found", "no page " + path);
      return;
    }
    if (!Routes.method(ex, "GET")) {
      return;
    }
    String query = ex.getRequestURI().getRawQuery();
    if (path.equals("/") && query != null && query.startsWith("token=")) {
      login(ex, query.substring("token=".length()));
      return;
    }
    if (Routes.refused(ex, access.checkRead(ex.getRequestHeaders()))) {
      return;
    }
    try (InputStream in = ConsoleServer.class.getResourceAsStream(file[0])) {
      Exchanges.send(ex, 200, file[1], in.readAllBytes());
    }
  }

  /**
   * Exchanges {@code ?token=} for the cookie and sends the browser on to the page without it, so
   * the token leaves the address bar and the history at once.
   */
  private void login(HttpExchange ex, String given) throws IOException {
    Optional<Access.Refusal> host = access.checkRead(ex.getRequestHeaders());
    if (host.isPresent() && host.get().status() == 421) {
      Routes.refused(ex, host);
      return;
    }
    String token = java.net.URLDecoder.decode(given, java.nio.charset.StandardCharsets.UTF_8);
    if (!access.isToken(token)) {
      Exchanges.error(ex, 401, "unauthorized", "the token in the address is not this console's");
      return;
    }
    String cookie = access.cookieName() + "=" + token + "; Path=/; HttpOnly; SameSite=Strict";
    Exchanges.seeOther(ex, "/", cookie);
  }

  private void status(HttpExchange ex) throws IOException {
    if (!Routes.method(ex, "GET") || Routes.refused(ex, access.checkRead(ex.getRequestHeaders()))) {
      return;
    }
    var o = ConsoleJson.snapshot(gate.status(), hub.recent(), Clock.systemUTC().instant(), true);
    o.put("home", gate.home().toString());
    o.put("canAct", access.hasToken(ex.getRequestHeaders()));
    Exchanges.json(ex, 200, o);
  }

  private void events(HttpExchange ex) throws IOException {
    if (!Routes.method(ex, "GET") || Routes.refused(ex, access.checkRead(ex.getRequestHeaders()))) {
      return;
    }
    EventStream.run(ex, hub);
  }

  /**
   * Runs {@code handler} and always ends the exchange. A failure nobody answered becomes a 500
   * naming it, and a line on stderr, so a broken request never ends in an empty reply.
   */
  private static HttpHandler guarded(HttpHandler handler) {
    return ex -> {
      try {
        handler.handle(ex);
      } catch (RuntimeException e) {
        System.err.println(
            "sluice serve: "
                + ex.getRequestMethod()
                + " "
                + ex.getRequestURI().getPath()
                + " failed: "
                + e);
        try {
          Exchanges.error(ex, 500, "internal", String.valueOf(e.getMessage()));
        } catch (IOException | RuntimeException answered) {
          // The answer had begun: the client sees the connection end.
        }
      } finally {
        ex.close();
      }
    };
  }

  /** Stops listening, ends every event stream and lets request threads finish. */
  @Override
  public void close() {
    hub.close();
    limiters.close();
    metrics.close();
    if (workflows != null) {
      workflows.close();
    }
    http.stop(0);
    threads.shutdown();
  }
}
