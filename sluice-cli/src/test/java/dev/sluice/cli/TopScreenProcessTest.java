/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.AcquireRequest;
import dev.sluice.gate.GateService;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live {@code sluice top} on a real 80×24 pseudo-terminal, its output replayed through a
 * terminal emulator: a running {@code sluice run} with a label too long for the screen, an offer
 * counting down and a queued {@code sluice run} each keep their state on their own row, the feed
 * fills the screen, no row wraps, colours appear only where the terminal has them, and a resize to
 * 60×20 lays the screen out again.
 */
class TopScreenProcessTest {
  static final String LONG_LABEL =
      "nightly integration suite of the whole payment platform with every module enabled";
  static final String FRAME_ROW =
      "(  \\S.*|watched  \\d+/2 used  .*|events|\\d\\d:\\d\\d:\\d\\d  \\S.*)";
  static final Pattern COUNTDOWN = Pattern.compile("offered +1  expires in (\\d+)s");

  @TempDir Path home;
  SluiceProcesses sluice;
  GateService gate;
  Process holder;
  Process top;

  @BeforeEach
  void aPoolWithHistory() {
    assumeTrue(PseudoTerminal.available(), "no pseudo-terminal: util-linux script is missing");
    sluice = new SluiceProcesses(home);
    gate = GateService.open(home);
    gate.setCapacity("watched", 2, "test", "");
    // More events than the screen has rows: the feed must fill every row left.
    for (int i = 0; i < 15; i++) {
      var granted = (AcquireOutcome.Granted) gate.acquire(request("warm-up", "op" + i, ""));
      gate.release(granted.permitToken(), "done");
    }
  }

  @AfterEach
  void killLeftovers() throws Exception {
    if (top != null) {
      top.destroyForcibly();
    }
    if (holder != null) {
      holder.getOutputStream().close();
      SluiceProcesses.finish(holder);
    }
    if (sluice != null) {
      sluice.close();
    }
    if (gate != null) {
      gate.close();
    }
  }

  static AcquireRequest request(String agent, String op, String label) {
    return new AcquireRequest(agent, op, "watched", 1, label, "");
  }

  /** Starts top on an 80×24 pseudo-terminal; {@code env} goes before the command. */
  LiveOutput startTop(String env, Path ttyName) throws Exception {
    String java = PseudoTerminal.shellLine(sluice.command("top"));
    String shell =
        "tty > "
            + PseudoTerminal.quote(ttyName.toString())
            + "; stty cols 80 rows 24; "
            + env
            + " "
            + java
            + "; echo \"top exited $?\"";
    top = PseudoTerminal.start(shell);
    LiveOutput screen = new LiveOutput(top.getInputStream());
    screen.await("q quits");
    return screen;
  }

  /** A holder, an offer (with the other unit) and a queued run behind it. */
  void holderOfferAndQueuedRun() throws Exception {
    holder =
        sluice.start(
            "run", "--pool", "watched", "--label", LONG_LABEL, "--", "sh", "-c", "cat >/dev/null");
    EventWait.await(gate, "started", "watched");
    var claimer = (AcquireOutcome.Granted) gate.acquire(request("claimer", "c", "short job"));
    assertThat(gate.acquire(request("offeree", "o", "offer-taker")))
        .isInstanceOf(AcquireOutcome.Queued.class);
    long before = gate.lastEventSequence();
    sluice.start("run", "--pool", "watched", "--label", "queued-run", "--", "true");
    EventWait.await(gate, "queued", "watched", before);
    gate.release(claimer.permitToken(), "done");
  }

  /** The whole 80×24 screen as expected: rows, labels, a countdown, a full feed. */
  static boolean complete(TerminalScreen s) {
    List<String> rows = s.rows();
    return rows.get(0).startsWith(" sluice top ")
        && s.rowWith("…  running") == s.rowWith("nightly integration suite")
        && s.rowWith("…  running") > 0
        && COUNTDOWN.matcher(rows.get(Math.max(0, s.rowWith("offer-taker")))).find()
        && rows.get(Math.max(0, s.rowWith("queued-run"))).contains("queued #1")
        // The feed is read apart from the pools, so the offer's event may reach it a frame later.
        && rows.get(rows.size() - 1).contains("offered")
        && rows.stream().noneMatch(String::isEmpty);
  }

  static int countdown(TerminalScreen s) {
    Matcher m = COUNTDOWN.matcher(s.rows().get(s.rowWith("offer-taker")));
    assertThat(m.find()).as(s.toString()).isTrue();
    return Integer.parseInt(m.group(1));
  }

  @Test
  void at80x24EveryRequestKeepsItsStateOnItsRowTheFeedFillsTheScreenAndOffersCountDown()
      throws Exception {
    Path tty = home.resolveSibling(home.getFileName() + ".tty");
    LiveOutput out = startTop("", tty);
    holderOfferAndQueuedRun();

    out.await(text -> complete(TerminalScreen.of(text, 80, 24)), "holder, offer, queue, feed");
    String shown = out.text();
    TerminalScreen screen = TerminalScreen.of(shown, 80, 24);
    assertNoWrappedRows(screen);
    List<String> rows = screen.rows();
    assertThat(rows).as(screen.toString()).hasSize(24);
    assertThat(rows.get(23))
        .as("the newest event is at the bottom")
        .matches("\\d\\d:\\d\\d:\\d\\d  \\S.*");
    assertThat(rows.get(rows.size() - 1)).contains("offered", "offer-taker");
    int offerRow = screen.rowWith("offer-taker");
    int stateColumn = rows.get(offerRow).indexOf("offered");
    assertThat(screen.coloured(offerRow, stateColumn)).as("offered is coloured").isTrue();
    assertThat(TerminalScreen.setsColours(shown)).isTrue();
    assertThat(rows.get(screen.rowWith("queued-run"))).doesNotMatch(".*\\br\\d+\\b.*");

    // The countdown moves with nothing else changing at the gate.
    int first = countdown(screen);
    out.await(
        text -> countdown(TerminalScreen.of(text, 80, 24)) < first,
        "the offer's countdown below " + first + "s");

    // SIGWINCH: the same screen laid out again in 60×20.
    String beforeResize = out.text();
    String name = Files.readString(tty).strip();
    Process stty = new ProcessBuilder("stty", "-F", name, "cols", "60", "rows", "20").start();
    assertThat(stty.waitFor(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(stty.exitValue()).isZero();
    out.await(
        text -> {
          TerminalScreen s =
              TerminalScreen.resized(
                  beforeResize, 80, 24, text.substring(beforeResize.length()), 60, 20);
          // The label column is 24 wide at 60 columns (44 at 80): the holder's label is cut sooner.
          return s.rows().get(0).startsWith(" sluice top ")
              && s.rows().get(0).endsWith("q quits")
              && s.rowWith("nightly integration sui…  running    1  since") == 3
              && s.rows().stream().noneMatch(String::isEmpty);
        },
        "the view re-laid out in 60 columns");
    String after = out.text().substring(beforeResize.length());
    assertNoWrappedRows(TerminalScreen.resized(beforeResize, 80, 24, after, 60, 20));

    quit(out);
  }

  @Test
  void withNoColorTheScreenHasNoColoursButTheSameLayout() throws Exception {
    assertNoColours("NO_COLOR=1");
  }

  @Test
  void onATerminalWithoutColoursTheScreenHasNone() throws Exception {
    assertNoColours("TERM=vt100");
  }

  void assertNoColours(String env) throws Exception {
    LiveOutput out = startTop("env " + env, home.resolveSibling(home.getFileName() + ".tty"));
    holderOfferAndQueuedRun();

    out.await(text -> complete(TerminalScreen.of(text, 80, 24)), "holder, offer, queue, feed");
    String shown = out.text();
    TerminalScreen screen = TerminalScreen.of(shown, 80, 24);
    assertThat(TerminalScreen.setsColours(shown)).as(out.toString()).isFalse();
    assertThat(screen.anyColour()).isFalse();
    assertNoWrappedRows(screen);
    quit(out);
  }

  /**
   * Nothing wrapped: every row below the title starts as a row of the frame does (a request, the
   * pool, the events heading, an event's time), never with the rest of a line too long for the
   * screen. (The raw output cannot show this: JLine's display writes across the right margin on
   * purpose, to reach the next row.)
   */
  static void assertNoWrappedRows(TerminalScreen s) {
    assertThat(s.rows().get(0)).as(s.toString()).startsWith(" sluice top ").endsWith("q quits");
    assertThat(s.rows().subList(1, s.rows().size()))
        .as(s.toString())
        .allSatisfy(r -> assertThat(r).matches(FRAME_ROW));
  }

  void quit(LiveOutput out) throws Exception {
    OutputStream keys = top.getOutputStream();
    keys.write('q');
    keys.flush();
    assertThat(top.waitFor(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS))
        .as("top quits on q: %s", out)
        .isTrue();
    out.drained();
    assertThat(out.text()).contains("top exited 0");
  }
}
