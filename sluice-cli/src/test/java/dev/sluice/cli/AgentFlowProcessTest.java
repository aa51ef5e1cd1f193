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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An agent's whole conversation with the gate through the real command: offers that lapse into
 * pauses and rejoin at the tail, stale and forged tokens, {@code --wait}, capacity decreases, and
 * homes that cannot be used.
 */
class AgentFlowProcessTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;
  Path home;
  SluiceProcesses sluice;
  GateService gate;

  @BeforeEach
  void open() {
    home = tmp.resolve("home");
    // Made through the API only to shorten the offer TTL and the lease; everything after goes
    // through sluice.
    gate =
        GateService.open(
            home,
            GateSettings.builder()
                .defaultCapacity(1)
                .offerTtl(Duration.ofSeconds(6))
                .untrackedLease(Duration.ofSeconds(10))
                .build());
    gate.setCapacity("p", 1, "test", "the pool these tests share");
    sluice = new SluiceProcesses(home);
  }

  @AfterEach
  void close() {
    sluice.close();
    gate.close();
  }

  private JsonNode json(Result r, int exit) throws Exception {
    assertThat(r.exit()).as(r.toString()).isEqualTo(exit);
    return JSON.readTree(r.lines().get(r.lines().size() - 1));
  }

  private JsonNode agent(String agent, int exit, String... args) throws Exception {
    String[] all = new String[args.length + 3];
    all[0] = "--json";
    all[1] = "--agent";
    all[2] = agent;
    System.arraycopy(args, 0, all, 3, args.length);
    return json(sluice.run(all), exit);
  }

  @Test
  void aLapsedOfferPausesTheRequestUntilItRejoinsAndItsOldTokenIsStale() throws Exception {
    String permit =
        agent("a", 0, "acquire", "--pool", "p", "--op", "x").get("permitToken").asText();
    JsonNode queued = agent("b", 10, "acquire", "--pool", "p", "--op", "y");
    String id = queued.get("requestId").asText();
    assertThat(queued.get("position").asInt()).isEqualTo(1);

    agent("a", 0, "release", permit);
    JsonNode offered = agent("b", 11, "acquire", "--pool", "p", "--op", "y");
    String oldOffer = offered.get("offerToken").asText();
    assertThat(offered.get("offerExpiresAt").asText()).endsWith("Z");
    awaitEvent("offer_expired");

    JsonNode pending = agent("b", 0, "pending");
    assertThat(pending.get("paused")).hasSize(1);
    assertThat(pending.get("paused").get(0).get("requestId").asText()).isEqualTo(id);
    assertThat(agent("b", 12, "acquire", "--pool", "p", "--op", "y").get("state").asText())
        .isEqualTo("paused");
    Result late = sluice.run("--json", "claim", oldOffer);
    assertThat(late.exit()).as(late.toString()).isEqualTo(3);
    assertThat(late.err()).contains("offer_expired");

    JsonNode again = agent("b", 11, "rejoin", id);
    Result stale = sluice.run("--json", "claim", oldOffer);
    assertThat(stale.exit()).as(stale.toString()).isEqualTo(3);
    assertThat(stale.err()).contains("stale_token");
    JsonNode held = agent("b", 0, "claim", again.get("offerToken").asText());
    assertThat(held.get("state").asText()).isEqualTo("held");
    assertThat(held.get("requestId").asText()).isEqualTo(id);
  }

  @Test
  void aDeclinedOfferPassesCapacityToTheNextWaiterAndPausesTheRequest() throws Exception {
    String permit =
        agent("a", 0, "acquire", "--pool", "p", "--op", "x").get("permitToken").asText();
    String first = agent("b", 10, "acquire", "--pool", "p", "--op", "y").get("requestId").asText();
    String second = agent("c", 10, "acquire", "--pool", "p", "--op", "z").get("requestId").asText();
    agent("a", 0, "release", permit);
    String offer = agent("b", 11, "acquire", "--pool", "p", "--op", "y").get("offerToken").asText();

    Result declined = sluice.run("--json", "decline", offer);
    assertThat(declined.exit()).as(declined.toString()).isZero();
    assertThat(gate.ticket(first).orElseThrow().state().name()).isEqualTo("PAUSED");
    assertThat(gate.ticket(second).orElseThrow().state().name()).isEqualTo("OFFERED");
    assertThat(agent("b", 12, "acquire", "--pool", "p", "--op", "y").get("detail").asText())
        .isEqualTo("declined");
  }

  @Test
  void heartbeatsKeepAnUntrackedPermitAndItsLeaseLapsesWithoutThem() throws Exception {
    String permit =
        agent("a", 0, "acquire", "--pool", "p", "--op", "x").get("permitToken").asText();
    String id = gate.status().get(0).holders().get(0).requestId();
    Result started = sluice.run("--json", "mark-started", permit);
    assertThat(started.exit()).as(started.toString()).isZero();
    java.time.Instant lease = gate.ticket(id).orElseThrow().leaseDeadline();
    assertThat(lease).isNotNull();

    JsonNode beat = agent("a", 0, "heartbeat");
    assertThat(beat.get("extended").asInt()).isEqualTo(1);
    assertThat(gate.ticket(id).orElseThrow().leaseDeadline()).isAfter(lease);

    // No more heartbeats: the lease (10 s here) lapses and the permit is reclaimed; the
    // waiting acquire wakes at the lease's deadline by itself.
    JsonNode next =
        json(
            sluice.run(
                "--json", "--agent", "b", "acquire", "--pool", "p", "--op", "y", "--wait", "2m"),
            0);
    assertThat(next.get("state").asText()).isEqualTo("granted");
    assertThat(gate.ticket(id).orElseThrow().endReason()).isEqualTo("lease_expired");
  }

  @Test
  void aForgedTokenIsRefusedAndChangesNothing() throws Exception {
    agent("a", 0, "acquire", "--pool", "p", "--op", "x");
    Result forged = sluice.run("--json", "release", "0123456789abcdef0123456789abcdef");
    assertThat(forged.exit()).as(forged.toString()).isEqualTo(3);
    assertThat(forged.err()).contains("unknown_token");
    assertThat(JSON.readTree(forged.out()).get("error").asText()).isEqualTo("unknown_token");
    assertThat(gate.status().get(0).used()).isEqualTo(1);
  }

  @Test
  void waitBlocksUntilAnOfferArrivesAndClaimsIt() throws Exception {
    String permit =
        agent("a", 0, "acquire", "--pool", "p", "--op", "x").get("permitToken").asText();
    Process waiting =
        sluice.start(
            "--json", "--agent", "b", "acquire", "--pool", "p", "--op", "y", "--wait", "2m");
    awaitEvent("queued");
    assertThat(waiting.isAlive()).isTrue();
    agent("a", 0, "release", permit);
    JsonNode got = json(SluiceProcesses.finish(waiting), 0);
    assertThat(got.get("state").asText()).isEqualTo("granted");
    assertThat(got.get("permitToken").asText()).isNotEmpty();
  }

  @Test
  void aCapacityDecreaseKeepsHoldersAndFailsAWaiterThatNoLongerFits() throws Exception {
    assertThat(sluice.run("pool", "set", "p", "--capacity", "3").exit()).isZero();
    agent("a", 0, "acquire", "--pool", "p", "--op", "x", "--weight", "2");
    String heavy =
        agent("b", 10, "acquire", "--pool", "p", "--op", "y", "--weight", "3")
            .get("requestId")
            .asText();
    Result set = sluice.run("--agent", "ops", "pool", "set", "p", "--capacity", "2");
    assertThat(set.exit()).as(set.toString()).isZero();

    JsonNode pool = agent("ops", 0, "status").get("pools").get(0);
    assertThat(pool.get("capacity").asInt()).isEqualTo(2);
    assertThat(pool.get("used").asInt()).isEqualTo(2);
    assertThat(pool.get("holders")).hasSize(1);
    assertThat(pool.get("queued").asInt()).isZero();
    assertThat(gate.ticket(heavy).orElseThrow().endReason()).isEqualTo("weight_exceeds_capacity");
    assertThat(gate.history()).last().satisfies(c -> assertThat(c.actor()).isEqualTo("ops"));
  }

  @Test
  void aCorruptStoreIsReportedWithItsPathAndLeftAlone() throws Exception {
    Path broken = tmp.resolve("broken");
    Files.createDirectories(broken);
    Files.setPosixFilePermissions(
        broken, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
    byte[] garbage = "not a database ".repeat(500).getBytes();
    Files.write(broken.resolve("gate.db"), garbage);
    Result r = new SluiceProcesses(broken).run("status");
    assertThat(r.exit()).as(r.toString()).isEqualTo(4);
    assertThat(r.err()).contains(broken.toRealPath().toString()).contains("gate.db");
    assertThat(Files.readAllBytes(broken.resolve("gate.db"))).isEqualTo(garbage);
  }

  @Test
  void aSharedGroupHomeIsUsableAndKeepsItsFilesGroupWritable() throws Exception {
    Path shared = tmp.resolve("shared");
    Files.createDirectory(shared);
    assertThat(new ProcessBuilder("chmod", "2770", shared.toString()).start().waitFor()).isZero();
    Result r = new SluiceProcesses(shared).run("run", "--", "true");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(
            java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(shared.resolve("gate.db"))))
        .isEqualTo("rw-rw----");
  }

  private void awaitEvent(String type) throws InterruptedException {
    long since = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SluiceProcesses.TIMEOUT_SECONDS);
    while (System.nanoTime() < deadline) {
      for (GateEvent e : gate.awaitEvents(since, 100, Duration.ofSeconds(10))) {
        if (e.type().equals(type)) {
          return;
        }
        since = e.sequence();
      }
    }
    throw new AssertionError("no '" + type + "' event");
  }
}
