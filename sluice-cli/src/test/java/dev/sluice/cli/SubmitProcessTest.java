/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.cli.SluiceProcesses.Result;
import dev.sluice.gate.GateEvent;
import dev.sluice.gate.GateService;
import dev.sluice.gate.GateSettings;
import dev.sluice.gate.Job;
import dev.sluice.gate.TicketState;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice submit}, {@code logs} and {@code wait} through the real command: jobs queue FIFO,
 * run detached into their logs, and answer their exit status; bad input queues nothing; old logs go
 * after the retention.
 */
class SubmitProcessTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;
  @TempDir Path work;
  SluiceProcesses sluice;
  GateService gate;

  @BeforeEach
  void open() throws Exception {
    sluice = new SluiceProcesses(home);
    assertThat(sluice.run("pool", "set", "p", "--capacity", "1").exit()).isZero();
    gate = GateService.open(home);
  }

  @AfterEach
  void close() {
    sluice.close();
    gate.close();
  }

  /** Submits into pool p; returns the job's id, which submit prints alone on stdout. */
  private String submit(String... command) throws Exception {
    List<String> args = new ArrayList<>(List.of("submit", "--pool", "p", "--"));
    args.addAll(List.of(command));
    Result r = sluice.run(args.toArray(String[]::new));
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.lines()).as(r.toString()).hasSize(1);
    return r.out().strip();
  }

  private Result logs(String id) throws Exception {
    return sluice.run("logs", id);
  }

  private static List<JsonNode> json(Result r) throws Exception {
    List<JsonNode> out = new ArrayList<>();
    for (String line : r.lines()) {
      out.add(JSON.readTree(line));
    }
    return out;
  }

  @Test
  void twoJobsInAOneSlotPoolRunOneAfterTheOtherInTheirOrderIntoTheirLogs() throws Exception {
    Fifo go = Fifo.make(work.resolve("go"));
    String first =
        submit("sh", "-c", "echo first runs; read x < \"$0\"; echo first got $x", go.path());
    String second = submit("sh", "-c", "echo second runs; echo second errs >&2");
    // Both are at the gate at once: the first holds the slot, the second waits behind it.
    assertThat(gate.ticket(first).orElseThrow().state()).isEqualTo(TicketState.HELD);
    assertThat(gate.ticket(second).orElseThrow().state()).isEqualTo(TicketState.QUEUED);
    assertThat(gate.ticket(second).orElseThrow().position()).isEqualTo(1);

    go.send("go");
    Result waited = sluice.run("--json", "wait", first, second);
    assertThat(waited.exit()).as(waited.toString()).isZero();
    assertThat(json(waited))
        .extracting(j -> j.get("requestId").asText())
        .containsExactly(first, second);
    assertThat(json(waited)).allSatisfy(j -> assertThat(j.get("exitStatus").asInt()).isZero());
    assertThat(logs(first).out()).isEqualTo("first runs\nfirst got go\n");
    assertThat(logs(second).out()).isEqualTo("second runs\nsecond errs\n");
    Job a = gate.submittedJobs().job(first).orElseThrow();
    Job b = gate.submittedJobs().job(second).orElseThrow();
    assertThat(b.startedAt()).isAfterOrEqualTo(a.endedAt());
    assertThat(a.log()).isEqualTo(home.toRealPath().resolve("logs").resolve(first + ".log"));
  }

  @Test
  void waitExitsWithTheJobsStatusAndWithTheFirstNonZeroOfSeveral() throws Exception {
    String three = submit("sh", "-c", "exit 3");
    String five = submit("sh", "-c", "exit 5");
    String zero = submit("true");

    Result one = sluice.run("--json", "wait", three);
    assertThat(one.exit()).as(one.toString()).isEqualTo(3);
    JsonNode answer = json(one).get(0);
    assertThat(answer.get("state").asText()).isEqualTo("exited");
    assertThat(answer.get("exitStatus").asInt()).isEqualTo(3);
    assertThat(sluice.run("wait", zero, five, three).exit()).isEqualTo(5);
    Result ok = sluice.run("wait", zero);
    assertThat(ok.exit()).as(ok.toString()).isZero();
    assertThat(ok.out()).isEqualTo(zero + " exited 0\n");

    // jobs lists them with how they ended while they are kept.
    List<JsonNode> listed = new ArrayList<>();
    json(sluice.run("--json", "jobs")).get(0).get("jobs").forEach(listed::add);
    assertThat(listed)
        .filteredOn(j -> j.get("requestId").asText().equals(three))
        .singleElement()
        .satisfies(j -> assertThat(j.get("exitStatus").asInt()).isEqualTo(3));
    assertThat(sluice.run("jobs").out()).contains(three).contains("exit 3").contains("exit 5");

    Result unknown = sluice.run("wait", zero, "r999");
    assertThat(unknown.exit()).as(unknown.toString()).isEqualTo(125);
    assertThat(unknown.err()).contains("unknown_request").contains("r999");
    assertThat(unknown.out()).isEmpty();
    Result usage = sluice.run("wait");
    assertThat(usage.exit()).as(usage.toString()).isEqualTo(125);
    assertThat(usage.err()).startsWith("error: usage: ");
  }

  @Test
  void aJobThatTimesOutOrIsCancelledNeverRunsAndWaitSaysWhy() throws Exception {
    Fifo go = Fifo.make(work.resolve("go"));
    String holder = submit("sh", "-c", "read x < \"$0\"", go.path());
    Path never = work.resolve("never");
    Result timed =
        sluice.run(
            "submit", "--pool", "p", "--queue-timeout", "1ms", "--", "touch", never.toString());
    assertThat(timed.exit()).as(timed.toString()).isZero();
    String late = timed.out().strip();
    String cancelled = submit("touch", never.toString());
    assertThat(sluice.run("cancel", cancelled).exit()).isZero();

    Result lateWait = sluice.run("wait", late);
    assertThat(lateWait.exit()).as(lateWait.toString()).isEqualTo(124);
    assertThat(lateWait.out()).contains("did not run: no slot came within its --queue-timeout");
    assertThat(logs(late).out())
        .startsWith("sluice: no capacity in pool p within")
        .contains("did not run");
    Result cancelWait = sluice.run("--json", "wait", cancelled);
    assertThat(cancelWait.exit()).as(cancelWait.toString()).isEqualTo(125);
    JsonNode answer = json(cancelWait).get(0);
    assertThat(answer.get("state").asText()).isEqualTo("cancelled");
    assertThat(answer.get("reason").asText()).startsWith("cancelled by ");
    go.send("go");
    assertThat(sluice.run("wait", holder).exit()).isZero();
    assertThat(never).doesNotExist();
  }

  @Test
  void logsFollowPrintsWhatIsAppendedAfterItStartedAndEndsWithTheJob() throws Exception {
    Fifo go = Fifo.make(work.resolve("go"));
    String id = submit("sh", "-c", "echo before; read x < \"$0\"; echo after $x", go.path());
    Process follow = sluice.start("logs", "--follow", id);
    BufferedReader lines =
        new BufferedReader(new InputStreamReader(follow.getInputStream(), StandardCharsets.UTF_8));
    assertThat(lines.readLine()).isEqualTo("before");
    // The job writes its next line only now, while logs --follow is running.
    go.send("now");
    assertThat(lines.readLine()).isEqualTo("after now");
    assertThat(lines.readLine()).as("the follow ends with the job").isNull();
    assertThat(SluiceProcesses.finish(follow).exit()).isZero();
  }

  @Test
  void badInputIsRefusedBeforeAnythingIsQueuedOrStarted() throws Exception {
    Result unknownPool = sluice.run("--json", "submit", "--pool", "nope", "--", "true");
    assertThat(unknownPool.exit()).as(unknownPool.toString()).isEqualTo(3);
    assertThat(unknownPool.err()).contains("unknown_pool").contains("'nope'");
    assertThat(json(unknownPool).get(0).get("error").asText()).isEqualTo("unknown_pool");
    Result heavy = sluice.run("submit", "--pool", "p", "--weight", "2", "--", "true");
    assertThat(heavy.exit()).as(heavy.toString()).isEqualTo(3);
    assertThat(heavy.err()).contains("weight_exceeds_capacity").contains("weight 2");
    Result zero = sluice.run("submit", "--pool", "p", "--weight", "0", "--", "true");
    assertThat(zero.exit()).as(zero.toString()).isEqualTo(2);
    assertThat(zero.err()).contains("weight").contains("0");
    Result timeout = sluice.run("submit", "--pool", "p", "--queue-timeout", "soon", "--", "true");
    assertThat(timeout.exit()).as(timeout.toString()).isEqualTo(2);
    assertThat(timeout.err()).contains("'soon'");
    Result noCommand = sluice.run("submit", "--pool", "p");
    assertThat(noCommand.exit()).as(noCommand.toString()).isEqualTo(2);
    assertThat(noCommand.err()).contains("CMD");

    assertThat(gate.events(0, 1000))
        .extracting(GateEvent::type)
        .doesNotContain("queued", "granted");
    assertThat(gate.submittedJobs().list()).isEmpty();
    // A runner makes its job's log first of all: none was ever started.
    assertThat(home.resolve("logs")).doesNotExist();
  }

  @Test
  void anEndedJobsLogGoesAfterTheRetentionAndARunningJobsNever() throws Exception {
    String old = submit("sh", "-c", "echo old");
    assertThat(sluice.run("wait", old).exit()).isZero();
    Fifo go = Fifo.make(work.resolve("go"));
    String running = submit("sh", "-c", "echo running; read x < \"$0\"", go.path());
    EventWait.awaitOf(gate, "started", running);
    Path oldLog = gate.submittedJobs().job(old).orElseThrow().log();
    Path runningLog = gate.submittedJobs().job(running).orElseThrow().log();
    assertThat(oldLog).exists();

    // Eight days on, any transaction's sweep removes what ended more than seven days before.
    Clock later = Clock.offset(Clock.systemUTC(), Duration.ofDays(8));
    try (GateService gateLater = GateService.open(home, GateSettings.defaults(), later)) {
      assertThat(gateLater.submittedJobs().job(old)).isEmpty();
    }
    assertThat(oldLog).doesNotExist();
    assertThat(runningLog).exists();
    Result gone = logs(old);
    assertThat(gone.exit()).as(gone.toString()).isEqualTo(ExitCode.NO_SUCH_JOB.code());
    assertThat(gone.err())
        .contains("unknown_request")
        .contains("never submitted, or ended over 7 days ago");
    assertThat(sluice.run("wait", old).exit()).isEqualTo(125);

    go.send("done");
    assertThat(sluice.run("wait", running).exit()).isZero();
    assertThat(Files.readString(runningLog)).isEqualTo("running\n");
  }
}
