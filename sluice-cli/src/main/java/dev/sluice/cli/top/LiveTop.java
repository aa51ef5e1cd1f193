/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.top;

import dev.sluice.gate.GateService;
import dev.sluice.gate.PoolStatus;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jline.terminal.Size;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * {@code sluice top}'s live view: draws a {@link TopFrame} on the {@link Screen} whenever the
 * {@link Feed} brings a change, the window is resized, or a countdown on screen reaches its next
 * second, until {@code q}, Ctrl-C, SIGTERM or the end of the terminal's input; then it gives the
 * terminal back as it found it. With no countdown on screen it draws only when something happens.
 *
 * <p>Three threads, none of them polling: the calling thread draws, blocked between frames on an
 * inbox (with a timeout only while a countdown is shown: until its next change); a key thread
 * blocks in the terminal's read; the feed blocks in the gate's event wait. Signal handlers only
 * post to the inbox. Not thread-safe: one call of {@link #show}, which blocks until the user quits.
 *
 * <p>This package is the only code that uses JLine; {@code sluice top} reaches it only on a
 * terminal, so no other verb loads a JLine class.
 */
public final class LiveTop {
  /** The most events kept for the feed: more than any screen has rows. */
  public static final int MOST_EVENTS = 1000;

  /** What wakes the drawing thread, besides {@link Feed.Update}s and countdowns. */
  private enum Wake {
    RESIZE,
    QUIT
  }

  private final BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
  private final GateService gate;
  private final int eventCount;
  private final Clock clock;
  private final Deque<FeedEvent> recent = new ArrayDeque<>();
  private List<PoolStatus> pools;
  private Instant readAt;

  private LiveTop(GateService gate, int eventCount, Clock clock) {
    this.gate = gate;
    this.eventCount = eventCount;
    this.clock = clock;
  }

  /**
   * Runs the live view on this process's terminal until the user quits.
   *
   * @param gate the gate to show
   * @param eventCount the most events to keep for the feed (it shows as many as fit), at most
   *     {@link #MOST_EVENTS}
   * @param noColour the value of {@code NO_COLOR}, or null: any non-empty value turns colours off
   * @return false, having drawn nothing, if the terminal cannot show a live view (a dumb one)
   * @throws IOException if the terminal fails
   * @throws RuntimeException what the gate threw, after the terminal was restored
   */
  public static boolean show(GateService gate, int eventCount, String noColour) throws IOException {
    Optional<Screen> screen = Screen.open();
    if (screen.isEmpty()) {
      return false;
    }
    try (Screen s = screen.get()) {
      TopStyles styles = TopStyles.forTerminal(s.maxColours(), noColour);
      int kept = Math.max(0, Math.min(eventCount, MOST_EVENTS));
      new LiveTop(gate, kept, Clock.systemDefaultZone()).run(s, styles);
    }
    return true;
  }

  private void run(Screen screen, TopStyles styles) {
    screen.onResize(() -> inbox.add(Wake.RESIZE));
    // Ctrl-C is a key here; SIGINT still comes from kill, or from a terminal that sends it anyway.
    screen.onInterrupt(() -> inbox.add(Wake.QUIT));
    // JLine knows no SIGTERM; without this handler `kill` would leave the terminal raw.
    Signal term = new Signal("TERM");
    SignalHandler before = Signal.handle(term, s -> inbox.add(Wake.QUIT));
    try {
      startKeys(screen);
      new Feed(gate, eventCount, clock, inbox::add).start();
      Optional<Instant> redrawAt = Optional.empty();
      List<Object> woken = new ArrayList<>();
      while (true) {
        woken.clear();
        if (!take(woken, redrawAt)) {
          return;
        }
        if (pools != null) {
          Size size = screen.size();
          TopState state = new TopState(gate.home(), pools, List.copyOf(recent), readAt);
          TopFrame.Frame frame =
              TopFrame.render(state, clock, size.getColumns(), size.getRows(), styles);
          screen.draw(frame.lines(), size);
          redrawAt = frame.redrawAt();
        }
      }
    } finally {
      // Once the view has ended, SIGTERM ends the process again.
      Signal.handle(term, before);
    }
  }

  /**
   * Waits for something to happen, or until {@code redrawAt} when a countdown is shown, then takes
   * everything that is waiting (a burst of events makes one frame, not one each).
   *
   * @return false to quit
   */
  private boolean take(List<Object> woken, Optional<Instant> redrawAt) {
    try {
      Object first;
      if (redrawAt.isEmpty()) {
        first = inbox.take();
      } else {
        long millis = Duration.between(clock.instant(), redrawAt.get()).toMillis();
        // +1: wake just after the countdown's second turns, never just before it.
        first = millis < 0 ? inbox.poll() : inbox.poll(millis + 1, TimeUnit.MILLISECONDS);
      }
      if (first != null) {
        woken.add(first);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
    inbox.drainTo(woken);
    for (Object w : woken) {
      if (w == Wake.QUIT) {
        return false;
      } else if (w instanceof Feed.Failed f) {
        throw f.cause();
      } else if (w instanceof Feed.Snapshot s) {
        pools = s.pools();
        readAt = s.readAt();
        for (FeedEvent e : s.events()) {
          recent.addLast(e);
          if (recent.size() > eventCount) {
            recent.removeFirst();
          }
        }
      }
      // RESIZE needs nothing more: every frame is laid out in the size the terminal has now.
    }
    return true;
  }

  /** Starts the thread that turns {@code q}, Ctrl-C (as a key) and end of input into a quit. */
  private void startKeys(Screen screen) {
    Thread keys =
        new Thread(
            () -> {
              try {
                while (true) {
                  int key = screen.readKey();
                  // 3 is Ctrl-C: the screen turns the terminal's signal keys into plain keys.
                  if (key < 0 || key == 'q' || key == 'Q' || key == 3) {
                    break;
                  }
                }
              } catch (IOException e) {
                // The terminal went away: nothing more to show it.
              }
              inbox.add(Wake.QUIT);
            },
            "sluice-top-keys");
    // Blocked in read() when the view ends; the JVM must not wait for it.
    keys.setDaemon(true);
    keys.start();
  }
}
