/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.top;

import dev.sluice.cli.Dashboard;
import dev.sluice.gate.GateEvent;
import dev.sluice.gate.GateService;
import dev.sluice.gate.PoolStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

/**
 * Follows the gate for the live view ({@code sluice top}) and the web console ({@code sluice
 * serve}) on a daemon thread of its own: reads the pools and the latest events once, then blocks in
 * {@link GateService#awaitEvents} (woken by the gate's pulse, never by a timer of its own) and,
 * whenever events arrive, reads the pools again and hands both on, each event with its request's
 * label ({@link EventLabels}). Only this thread touches the gate while the view runs, so the
 * drawing thread never waits on the store.
 *
 * <p>Thread-safe: {@link #start} once; the consumer is called on the feed's thread. The thread is
 * never interrupted (an interrupt inside a gate transaction would close the gate's lock file); it
 * ends with the JVM, or after the gate is closed under it, which it reports as a {@link Failed}.
 */
public final class Feed {
  /** How many new events one read takes; more simply arrive on the next read. */
  private static final int BATCH = 1000;

  /**
   * The longest wait without a read. Everything that changes a pool writes an event, so this only
   * bounds how stale the view could get if that ever stopped being true.
   */
  private static final Duration SAFETY_REFRESH = Duration.ofMinutes(1);

  /** What the feed hands on. */
  public sealed interface Update permits Snapshot, Failed {}

  /**
   * The pools as they are now and the events since the previous snapshot.
   *
   * @param pools every pool
   * @param events new events, oldest first, with their requests' labels
   * @param readAt when the pools were read
   */
  public record Snapshot(List<PoolStatus> pools, List<FeedEvent> events, Instant readAt)
      implements Update {}

  /**
   * The gate could not be read; the feed has stopped.
   *
   * @param cause why
   */
  public record Failed(RuntimeException cause) implements Update {}

  private final GateService gate;
  private final int tail;
  private final Clock clock;
  private final Consumer<Update> sink;
  private final EventLabels labels;

  /**
   * A feed that starts with the {@code tail} latest events.
   *
   * @param gate the gate to follow
   * @param tail how many past events the first snapshot carries
   * @param clock when a snapshot was read
   * @param sink where snapshots go
   */
  public Feed(GateService gate, int tail, Clock clock, Consumer<Update> sink) {
    this.gate = gate;
    this.tail = tail;
    this.clock = clock;
    this.sink = sink;
    this.labels = new EventLabels(gate);
  }

  /** Starts the feed's thread. */
  public void start() {
    Thread t = new Thread(this::follow, "sluice-top-feed");
    t.setDaemon(true);
    t.start();
  }

  private void follow() {
    try {
      long newest = gate.lastEventSequence();
      List<GateEvent> first = Dashboard.latestEvents(gate, newest, tail);
      long last =
          first.isEmpty() ? newest : Math.max(newest, first.get(first.size() - 1).sequence());
      sink.accept(snapshot(first));
      while (true) {
        List<GateEvent> events = gate.awaitEvents(last, BATCH, SAFETY_REFRESH);
        if (!events.isEmpty()) {
          last = events.get(events.size() - 1).sequence();
        }
        sink.accept(snapshot(events));
      }
    } catch (InterruptedException e) {
      // Nobody interrupts this thread; if someone did, the view simply stops updating.
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      sink.accept(new Failed(e));
    }
  }

  private Snapshot snapshot(List<GateEvent> events) {
    List<PoolStatus> pools = gate.status();
    Instant readAt = clock.instant();
    return new Snapshot(pools, labels.label(events, pools), readAt);
  }
}
