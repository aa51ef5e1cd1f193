/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.serve;

import com.sun.net.httpserver.HttpExchange;
import dev.sluice.cli.top.Feed;
import dev.sluice.cli.top.FeedEvent;
import dev.sluice.micrometer.GateMetrics;
import dev.sluice.micrometer.SluiceMetrics;
import dev.sluice.micrometer.WorkflowMetrics;
import dev.sluice.workflow.WorkflowRuntime;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code GET /metrics}: the gate's meters ({@link GateMetrics}, fed by the same {@link Feed} as the
 * console), those of each {@code --pool-dir} and {@code --postgres-pool} limiter pool ({@link
 * SluiceMetrics}, whose {@code pool} tag is the directory or the pool name) and, with a workflow
 * store, its executions by status ({@link WorkflowMetrics}), in Prometheus' text format through
 * Micrometer's Prometheus registry. A read like the rest of the API: open on loopback, the token
 * (as {@code Authorization: Bearer}) anywhere else. The gate's counters and wait timer count what
 * happened since the server started; a limiter pool's counters count the console's own limiter,
 * which admits nothing, so its gauges (shared by every process) are what to watch. Likewise the
 * workflow step meters count the console's own runtime, which never starts, so they stay absent;
 * the status gauges read the store.
 *
 * <p>Thread-safe: the feed's thread calls {@link #accept}; request threads scrape. A scrape reads
 * each limiter pool's store at most once a second.
 */
final class MetricsPage implements Consumer<Feed.Update>, AutoCloseable {
  /** The Prometheus text format's media type. */
  static final String TEXT_FORMAT = "text/plain; version=0.0.4";

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final GateMetrics gate = new GateMetrics();
  private final List<SluiceMetrics> limiters = new ArrayList<>();
  private final List<WorkflowMetrics> workflows = new ArrayList<>();
  private final Access access;
  private final long since;

  /**
   * Binds the gate's meters and each pool's.
   *
   * @param since the gate's last event sequence when the server started: events up to it are not
   *     counted
   */
  MetricsPage(List<LimiterPool> pools, Access access, long since) {
    this.access = access;
    this.since = since;
    gate.bindTo(registry);
    for (LimiterPool p : pools) {
      SluiceMetrics m = SluiceMetrics.of(p.limiter());
      m.bindTo(registry);
      limiters.add(m);
    }
  }

  /** Binds the meters of the workflow store {@code runtime} reads. */
  void bindWorkflows(WorkflowRuntime runtime) {
    WorkflowMetrics m = WorkflowMetrics.of(runtime);
    m.bindTo(registry);
    synchronized (workflows) {
      workflows.add(m);
    }
  }

  /** Takes the pools and counts the events that happened since the server started. */
  @Override
  public void accept(Feed.Update update) {
    if (update instanceof Feed.Snapshot s) {
      gate.update(
          s.pools(),
          s.events().stream().map(FeedEvent::event).filter(e -> e.sequence() > since).toList());
    }
  }

  void scrape(HttpExchange ex) throws IOException {
    if (!ex.getRequestURI().getPath().equals("/metrics")) {
      Exchanges.error(ex, 404, "not_found", "no page " + ex.getRequestURI().getPath());
      return;
    }
    if (!Routes.method(ex, "GET") || Routes.refused(ex, access.checkRead(ex.getRequestHeaders()))) {
      return;
    }
    Exchanges.send(ex, 200, TEXT_FORMAT, registry.scrape().getBytes(StandardCharsets.UTF_8));
  }

  /** Stops the limiters' and workflows' counting; the registry is dropped with the server. */
  @Override
  public void close() {
    limiters.forEach(SluiceMetrics::close);
    synchronized (workflows) {
      workflows.forEach(WorkflowMetrics::close);
    }
    registry.close();
  }
}
