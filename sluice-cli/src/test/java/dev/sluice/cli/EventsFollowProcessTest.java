/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.cli.SluiceProcesses.Result;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice events --since N --follow} through the real command: started before the activity,
 * it prints each event of later {@code sluice run}s while it happens, in order and nothing up to N,
 * and ends with status 0 on SIGTERM or SIGINT; with {@code --json} every line is one object with
 * the documented fields.
 */
class EventsFollowProcessTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String INSTANT = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z";
  private static final String POOL = "feed";

  @TempDir Path home;
  SluiceProcesses sluice;

  @BeforeEach
  void processes() {
    sluice = new SluiceProcesses(home);
  }

  @AfterEach
  void killLeftovers() {
    sluice.close();
  }

  @Test
  void followPrintsLaterRunsEventsAsTheyHappenAndEndsWithStatus0OnSigterm() throws Exception {
    followTwoRunsAndStop(new Text(), "TERM");
  }

  @Test
  void followWithJsonPrintsOneObjectPerEventWithTheDocumentedFieldsAndEndsWithStatus0OnSigint()
      throws Exception {
    assumeFalse(sigintIgnored(), "SIGINT is ignored in this environment; it cannot be trapped");
    followTwoRunsAndStop(new JsonLines(), "INT");
  }

  /** One printed event, as either form shows it. */
  record Event(long sequence, String type, String pool, String requestId) {}

  /** How one form prints an event, and how to read it back. */
  interface Form {
    /** The flags before the verb. */
    List<String> flags();

    /** Text that only lines of events of this type in this pool show. */
    String needle(String type, String pool);

    /** Text that only the line of this request's event of this type shows. */
    String needle(String type, String pool, String requestId);

    /** Reads one printed line, checking that it is well formed. */
    Event parse(String line) throws Exception;
  }

  /** {@code "%6d %s %-12s %-12s %s %s detail"}: sequence, time, type, pool, request, agent. */
  static final class Text implements Form {
    @Override
    public List<String> flags() {
      return List.of();
    }

    @Override
    public String needle(String type, String pool) {
      return String.format(" %-12s %-12s ", type, pool);
    }

    @Override
    public String needle(String type, String pool, String requestId) {
      return needle(type, pool) + requestId + " ";
    }

    @Override
    public Event parse(String line) {
      String[] f = line.strip().split("\\s+");
      assertThat(f.length).as(line).isGreaterThanOrEqualTo(6);
      assertThat(f[1]).as(line).matches(INSTANT);
      return new Event(Long.parseLong(f[0]), f[2], f[3], f[4]);
    }
  }

  /** One object per line with the fields {@code sluice events --help} names, in that order. */
  static final class JsonLines implements Form {
    @Override
    public List<String> flags() {
      return List.of("--json");
    }

    @Override
    public String needle(String type, String pool) {
      return "\"type\":\"" + type + "\",\"pool\":\"" + pool + "\",";
    }

    @Override
    public String needle(String type, String pool, String requestId) {
      return needle(type, pool) + "\"requestId\":\"" + requestId + "\",";
    }

    @Override
    public Event parse(String line) throws Exception {
      JsonNode o = JSON.readTree(line);
      List<String> fields = new ArrayList<>();
      o.fieldNames().forEachRemaining(fields::add);
      assertThat(fields)
          .as(line)
          .containsExactly("sequence", "at", "type", "pool", "requestId", "agentId", "detail");
      assertThat(o.get("sequence").isIntegralNumber()).as(line).isTrue();
      assertThat(o.get("at").asText()).as(line).matches(INSTANT);
      return new Event(
          o.get("sequence").asLong(),
          o.get("type").asText(),
          o.get("pool").asText(),
          o.get("requestId").asText());
    }
  }

  /**
   * Follows from the last event so far, then: a holder run fills the pool (capacity 1), a second
   * run queues behind it and runs once the holder ends. The follower must show each step while the
   * runs are still in it (the holder's start while it holds, the waiter's queueing while it waits,
   * the waiter's start while its command still runs), then end with status 0 on {@code signal},
   * having printed exactly these runs' events, in order, each line whole.
   */
  private void followTwoRunsAndStop(Form form, String signal) throws Exception {
    long since = capacityOneAndLastSequence();
    List<String> args = new ArrayList<>(form.flags());
    args.addAll(List.of("events", "--since", Long.toString(since), "--follow"));
    Process follow = sluice.start(args.toArray(String[]::new));
    LiveOutput printed = new LiveOutput(follow.getInputStream());

    Process holder = runUntilStdinCloses("feed-holder");
    awaitLine(holder, "running");
    String h = requestWithLabel("holders", "feed-holder");
    printed.await(form.needle("started", POOL, h));

    Process waiter = runUntilStdinCloses("feed-waiter");
    printed.await(form.needle("queued", POOL));
    String w = requestWithLabel("queue", "feed-waiter");
    assertThat(printed.text()).contains(form.needle("queued", POOL, w));

    finishWell(holder);
    awaitLine(waiter, "running");
    printed.await(form.needle("started", POOL, w));
    assertThat(printed.text())
        .as("the waiter's command still runs")
        .doesNotContain(form.needle("released", POOL, w));
    finishWell(waiter);
    printed.await(form.needle("released", POOL, w));

    assertThat(
            new ProcessBuilder("kill", "-" + signal, Long.toString(follow.pid())).start().waitFor())
        .isZero();
    assertThat(follow.waitFor(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS))
        .as("events --follow ends on SIG%s: %s", signal, printed)
        .isTrue();
    printed.drained();
    String err = new String(follow.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(follow.exitValue()).as("exit status on SIG%s; stderr: %s", signal, err).isZero();
    assertThat(err).isEmpty();
    assertThat(printed.text()).as("whole lines only").endsWith("\n");

    List<Event> events = new ArrayList<>();
    for (String line : printed.text().lines().toList()) {
      events.add(form.parse(line));
    }
    assertThat(events).allSatisfy(e -> assertThat(e.pool()).isEqualTo(POOL));
    for (int i = 0; i < events.size(); i++) {
      assertThat(events.get(i).sequence())
          .as("in order, none missed: %s", events)
          .isEqualTo(since + 1 + i);
    }
    assertThat(events.stream().filter(e -> e.requestId().equals(h)).map(Event::type))
        .containsExactly("granted", "started", "released");
    assertThat(events.stream().filter(e -> e.requestId().equals(w)).map(Event::type))
        .containsExactly("queued", "offered", "claimed", "started", "released");
    assertThat(events.stream().map(Event::requestId)).containsOnly(h, w);
    assertThat(indexOf(events, "released", h))
        .as("the waiter is offered the slot the holder released")
        .isLessThan(indexOf(events, "offered", w));
  }

  private static int indexOf(List<Event> events, String type, String requestId) {
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i).type().equals(type) && events.get(i).requestId().equals(requestId)) {
        return i;
      }
    }
    throw new AssertionError("no " + type + " of " + requestId + " in " + events);
  }

  /** Makes the pool capacity 1; returns the last event's sequence number (that change's). */
  private long capacityOneAndLastSequence() throws Exception {
    Result set = sluice.run("pool", "set", POOL, "--capacity", "1");
    assertThat(set.exit()).as(set.toString()).isZero();
    Result all = sluice.run("--json", "events", "--since", "0");
    assertThat(all.exit()).as(all.toString()).isZero();
    List<String> lines = all.lines();
    assertThat(lines).as(all.toString()).isNotEmpty();
    return JSON.readTree(lines.get(lines.size() - 1)).get("sequence").asLong();
  }

  /** A run in the pool whose command prints "running", then lasts until its stdin closes. */
  private Process runUntilStdinCloses(String label) throws Exception {
    return sluice.start(
        "run", "--pool", POOL, "--label", label, "--", "sh", "-c", "echo running; cat");
  }

  private static void awaitLine(Process p, String line) throws Exception {
    BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    assertThat(out.readLine()).isEqualTo(line);
  }

  /** Closes the run's stdin, which ends its command, and checks that the run exits 0. */
  private static void finishWell(Process run) throws Exception {
    Result r = SluiceProcesses.finish(run);
    assertThat(r.exit()).as(r.toString()).isZero();
  }

  /** The request id of the ticket with {@code label} in the pool's {@code list} of the status. */
  private String requestWithLabel(String list, String label) throws Exception {
    Result r = sluice.run("--json", "status");
    assertThat(r.exit()).as(r.toString()).isZero();
    for (JsonNode p : JSON.readTree(r.out()).get("pools")) {
      if (p.get("name").asText().equals(POOL)) {
        for (JsonNode t : p.get(list)) {
          if (t.get("label").asText().equals(label)) {
            return t.get("requestId").asText();
          }
        }
      }
    }
    throw new AssertionError("no " + label + " among the " + list + " of pool " + POOL + ": " + r);
  }

  /** Whether this JVM (and so every process it starts) ignores SIGINT. */
  private static boolean sigintIgnored() throws Exception {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("SigIgn:")) {
        return (Long.parseLong(line.substring(7).strip(), 16) & 0x2) != 0;
      }
    }
    return false;
  }
}
