/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.serve;

import dev.sluice.cli.GateJson;
import dev.sluice.cli.top.Feed;
import dev.sluice.cli.top.FeedEvent;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.Consumer;

/**
 * Hands what the {@link Feed} reads (the same source as {@code sluice top}) to every open event
 * stream as server-sent events: a subscriber first gets the whole current view ({@code reset}),
 * then each change as the feed brings it, with the new events only. The latest events are kept for
 * new subscribers and for {@code /api/status}.
 *
 * <p>Thread-safe: the feed's thread calls {@link #accept}; request threads subscribe, take from
 * their own queue and unsubscribe. Nothing here blocks except a subscriber's own take. A subscriber
 * that falls {@value #BACKLOG} messages behind is dropped (its stream ends; the page reconnects and
 * starts again from a whole view).
 */
final class Hub implements Consumer<Feed.Update> {
  /** The message that ends a stream: the server closes, or the subscriber fell behind. */
  static final String END = "";

  /** How many events a whole view carries. */
  static final int KEPT = 200;

  private static final int BACKLOG = 256;

  private final Object lock = new Object();
  private final Deque<FeedEvent> recent = new ArrayDeque<>();
  private final Set<BlockingQueue<String>> subscribers = new HashSet<>();
  private Feed.Snapshot latest;
  private String failure;

  @Override
  public void accept(Feed.Update update) {
    synchronized (lock) {
      if (update instanceof Feed.Snapshot s) {
        boolean first = latest == null;
        latest = s;
        for (FeedEvent e : s.events()) {
          recent.addLast(e);
          if (recent.size() > KEPT) {
            recent.removeFirst();
          }
        }
        List<FeedEvent> events = first ? List.copyOf(recent) : s.events();
        broadcast(message("snapshot", ConsoleJson.snapshot(s.pools(), events, s.readAt(), first)));
      } else if (update instanceof Feed.Failed f) {
        failure =
            message("failure", GateJson.error("store", String.valueOf(f.cause().getMessage())));
        broadcast(failure);
      }
    }
  }

  /** A new stream's queue, holding the whole current view when there is one. */
  BlockingQueue<String> subscribe() {
    BlockingQueue<String> q = new ArrayBlockingQueue<>(BACKLOG);
    synchronized (lock) {
      if (latest != null) {
        q.add(
            message(
                "snapshot",
                ConsoleJson.snapshot(latest.pools(), List.copyOf(recent), latest.readAt(), true)));
      }
      if (failure != null) {
        q.add(failure);
      }
      subscribers.add(q);
    }
    return q;
  }

  /** Forgets a stream. */
  void unsubscribe(BlockingQueue<String> q) {
    synchronized (lock) {
      subscribers.remove(q);
    }
  }

  /** The latest events, oldest first. */
  List<FeedEvent> recent() {
    synchronized (lock) {
      return List.copyOf(recent);
    }
  }

  /** Ends every stream. */
  void close() {
    synchronized (lock) {
      for (BlockingQueue<String> q : subscribers) {
        q.clear();
        q.offer(END);
      }
      subscribers.clear();
    }
  }

  private void broadcast(String message) {
    subscribers.removeIf(
        q -> {
          if (q.offer(message)) {
            return false;
          }
          q.clear();
          q.offer(END);
          return true;
        });
  }

  /** One server-sent event; the JSON is on one line, so it is one {@code data} field. */
  private static String message(String name, Object json) {
    return "event: " + name + "\ndata: " + json + "\n\n";
  }
}
