/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.cli.SluiceProcesses.Result;
import dev.sluice.gate.GateService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gate's configuration file through the real command: {@code config get|set|unset|history}, the
 * values in force for every verb, refusals that change nothing, a hand-edited file that stops the
 * gate, and two processes setting keys at once.
 */
class ConfigProcessTest {
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;
  @TempDir Path work;
  SluiceProcesses sluice;
  Path file;
  final List<Process> stopped = new ArrayList<>();

  @BeforeEach
  void processes() {
    sluice = new SluiceProcesses(home).env("USER", "tester");
    file = home.resolve("config.properties");
  }

  @AfterEach
  void killLeftovers() {
    sluice.close();
    stopped.forEach(Process::destroyForcibly);
  }

  private Result ok(String... args) throws Exception {
    Result r = sluice.run(args);
    assertThat(r.exit()).as(r.toString()).isZero();
    return r;
  }

  /** Runs {@code sluice --json args}, which must succeed, and reads its answer. */
  private JsonNode json(String... args) throws Exception {
    String[] all = new String[args.length + 1];
    all[0] = "--json";
    System.arraycopy(args, 0, all, 1, args.length);
    return JSON.readTree(ok(all).out());
  }

  private static JsonNode entry(JsonNode view, String key) {
    for (JsonNode e : view.get("entries")) {
      if (e.get("key").asText().equals(key)) {
        return e;
      }
    }
    throw new AssertionError("no entry " + key + " in " + view);
  }

  @Test
  void setGetUnsetAndHistoryRoundTrip() throws Exception {
    JsonNode set = json("config", "set", "offer.ttl", "PT2M", "--reason", "slow agents");
    assertThat(set.get("oldValue").asText()).isEqualTo("30s");
    assertThat(set.get("oldSource").asText()).isEqualTo("default");
    assertThat(set.get("newValue").asText()).isEqualTo("2m");
    assertThat(set.get("changed").asBoolean()).isTrue();
    assertThat(Files.readString(file)).endsWith("\noffer.ttl = 2m\n");

    JsonNode view = json("config", "get");
    assertThat(view.get("file").asText()).isEqualTo(file.toRealPath().toString());
    assertThat(entry(view, "offer.ttl").get("value").asText()).isEqualTo("2m");
    assertThat(entry(view, "offer.ttl").get("source").asText()).isEqualTo("file");
    assertThat(entry(view, "offer.ttl").get("line").asInt()).isEqualTo(3);
    assertThat(entry(view, "start.deadline").get("source").asText()).isEqualTo("default");
    assertThat(entry(view, "start.deadline").get("value").asText()).isEqualTo("1m");
    assertThat(view.get("problems")).isEmpty();
    Result text = sluice.run("config", "get", "offer.ttl");
    assertThat(text.out()).endsWith("\noffer.ttl = 2m  # from the file, line 3\n");

    JsonNode unset = json("config", "unset", "offer.ttl");
    assertThat(unset.get("newValue").asText()).isEqualTo("30s");
    assertThat(unset.get("newSource").asText()).isEqualTo("default");
    assertThat(entry(json("config", "get"), "offer.ttl").get("source").asText())
        .isEqualTo("default");

    JsonNode history = json("config", "history", "offer.ttl").get("history");
    assertThat(history).hasSize(2);
    assertThat(history.get(0).get("via").asText()).isEqualTo("set");
    assertThat(history.get(0).get("actor").asText()).isEqualTo("tester");
    assertThat(history.get(0).get("reason").asText()).isEqualTo("slow agents");
    assertThat(history.get(1).get("via").asText()).isEqualTo("unset");
    assertThat(history.get(1).get("oldValue").asText()).isEqualTo("2m");
    Result lines = sluice.run("config", "history");
    assertThat(lines.out())
        .contains("offer.ttl 30s (default) -> 2m by tester (config set)  (slow agents)")
        .contains("offer.ttl 2m -> 30s (default) by tester (config unset)");
  }

  @Test
  void setValuesAreInForceForEveryVerbAndForAGateAlreadyOpen() throws Exception {
    try (GateService gate = GateService.open(home)) {
      assertThat(gate.settings().offerTtl()).isEqualTo(Duration.ofSeconds(30));
      ok("config", "set", "offer.ttl", "2h");
      ok("config", "set", "default.capacity", "3");
      // A gate opened before the change (a waiting run, say) follows it at once.
      assertThat(gate.settings().offerTtl()).isEqualTo(Duration.ofHours(2));
    }

    // The default pool is made with the configured capacity: weight 3 fits only so.
    JsonNode a = json("--agent", "a", "acquire", "--op", "k", "--weight", "3");
    assertThat(a.get("state").asText()).isEqualTo("granted");
    JsonNode pool = json("status").get("pools").get(0);
    assertThat(pool.get("name").asText()).isEqualTo("default");
    assertThat(pool.get("capacity").asInt()).isEqualTo(3);

    Result queued = sluice.run("--json", "--agent", "b", "acquire", "--op", "k");
    assertThat(queued.exit()).as(queued.toString()).isEqualTo(10);
    ok("release", a.get("permitToken").asText());

    // The offer made by that release lives as long as offer.ttl says.
    JsonNode offer = json("--agent", "b", "pending").get("offers").get(0);
    Instant expires = Instant.parse(offer.get("offerExpiresAt").asText());
    Instant offered = null;
    for (String line : sluice.run("--json", "events").lines()) {
      JsonNode e = JSON.readTree(line);
      if (e.get("type").asText().equals("offered")) {
        offered = Instant.parse(e.get("at").asText());
      }
    }
    assertThat(offered).isNotNull();
    assertThat(Duration.between(offered, expires)).isEqualTo(Duration.ofHours(2));
  }

  @Test
  void theDefaultPoolIsCheckedWhenSetAndWhenUsed() throws Exception {
    Result unknown = sluice.run("config", "set", "default.pool", "build");
    assertThat(unknown.exit()).as(unknown.toString()).isEqualTo(3);
    assertThat(unknown.err())
        .contains("error: unknown_pool: default.pool = 'build': no pool 'build'")
        .contains("sluice pool set build --capacity N");
    assertThat(file).doesNotExist();

    ok("pool", "set", "build", "--capacity", "2");
    ok("config", "set", "default.pool", "build");
    ok("run", "--", "true");
    JsonNode held = json("--agent", "a", "acquire", "--op", "k");
    assertThat(held.get("pool").asText()).isEqualTo("build");
    JsonNode pools = json("status").get("pools");
    assertThat(pools).hasSize(1);
    assertThat(pools.get(0).get("name").asText()).isEqualTo("build");
    assertThat(pools.get(0).get("used").asInt()).isEqualTo(1);

    ok("release", held.get("permitToken").asText());
    ok("pool", "rm", "build");
    Path touched = work.resolve("touched");
    Result gone = sluice.run("run", "--", "touch", touched.toString());
    assertThat(gone.exit()).as(gone.toString()).isEqualTo(125);
    assertThat(gone.err())
        .contains("error: unknown_pool: no pool 'build'")
        .contains("default.pool in the gate's configuration names it")
        .contains("sluice config set default.pool P");
    assertThat(touched).doesNotExist();
    // Naming a pool still works: --pool default is the default pool, not the configured one.
    ok("run", "--pool", "default", "--", "true");
  }

  @Test
  void badValuesAndKeysAreRefusedAndChangeNothing() throws Exception {
    ok("config", "set", "offer.ttl", "5m");
    byte[] before = Files.readAllBytes(file);

    Result zero = sluice.run("config", "set", "offer.ttl", "0s");
    assertThat(zero.exit()).as(zero.toString()).isEqualTo(2);
    assertThat(zero.err())
        .contains("error: usage: offer.ttl = '0s': not a duration from 1s to 1d (such as 500ms");
    Result typo = sluice.run("--json", "config", "set", "ofer.ttl", "5m");
    assertThat(typo.exit()).as(typo.toString()).isEqualTo(2);
    assertThat(JSON.readTree(typo.out()).get("message").asText())
        .startsWith("unknown key 'ofer.ttl' (did you mean offer.ttl?); the keys are default.pool");
    Result kept = sluice.run("config", "set", "events.kept", "12x");
    assertThat(kept.exit()).as(kept.toString()).isEqualTo(2);
    assertThat(kept.err()).contains("events.kept = '12x': not a whole number from 100 to 1000000");
    Result noKey = sluice.run("config", "unset", "colour");
    assertThat(noKey.exit()).as(noKey.toString()).isEqualTo(2);

    assertThat(Files.readAllBytes(file)).isEqualTo(before);
    assertThat(json("config", "history").get("history")).hasSize(1);
  }

  @Test
  void aHandEditedBadFileStopsEveryVerbButConfigUntilItIsFixed() throws Exception {
    ok("status");
    Files.writeString(file, "# by hand\noffer.ttl = 5m\nevents.kept = lots\nofer.ttl = 1m\n");
    Path touched = work.resolve("touched");

    Result run = sluice.run("run", "--", "touch", touched.toString());
    assertThat(run.exit()).as(run.toString()).isEqualTo(125);
    assertThat(run.err())
        .contains("error: config: " + file.toRealPath() + " line 3: events.kept = 'lots':")
        .contains("line 4: ofer.ttl = '1m': unknown key (did you mean offer.ttl?)")
        .contains("sluice config set KEY VALUE or sluice config unset KEY");
    assertThat(touched).doesNotExist();
    Result status = sluice.run("--json", "status");
    assertThat(status.exit()).as(status.toString()).isEqualTo(4);
    assertThat(JSON.readTree(status.out()).get("error").asText()).isEqualTo("config");

    Result get = sluice.run("--json", "config", "get");
    assertThat(get.exit()).as(get.toString()).isEqualTo(4);
    JsonNode view = JSON.readTree(get.out());
    assertThat(view.get("problems")).hasSize(2);
    assertThat(entry(view, "events.kept").get("problem").asText()).startsWith("not a whole");
    assertThat(get.err()).contains("line 3: events.kept = 'lots'");

    // Each fix works while another line is still bad, and says what is left.
    Result unset = sluice.run("config", "unset", "ofer.ttl");
    assertThat(unset.exit()).as(unset.toString()).isZero();
    assertThat(unset.err()).contains("line 3: events.kept = 'lots'").doesNotContain("ofer.ttl");
    assertThat(sluice.run("run", "--", "true").exit()).isEqualTo(125);
    ok("config", "set", "events.kept", "500", "--reason", "fix the typo");
    ok("run", "--", "touch", touched.toString());
    assertThat(touched).exists();
    JsonNode history = json("config", "history").get("history");
    List<String> changes = new ArrayList<>();
    history.forEach(c -> changes.add(c.get("via").asText() + " " + c.get("key").asText()));
    assertThat(changes).containsExactly("file_edit offer.ttl", "set events.kept");
    assertThat(Files.readString(file)).isEqualTo("# by hand\noffer.ttl = 5m\nevents.kept = 500\n");
  }

  @Test
  void twoProcessesSettingKeysAtOnceBothKeepTheirChange() throws Exception {
    ok("status");
    // A holder of the home's gate stops while it holds it; both setters then find it taken.
    Process holder = start("gate-held", "status");
    assertThat(firstLine(holder)).isEqualTo("STOPPING gate-held");
    Process first = start("gate-contended", "config", "set", "offer.ttl", "2m");
    Process second = start("gate-contended", "config", "set", "start.deadline", "3m");
    assertThat(firstLine(first)).isEqualTo("STOPPING gate-contended");
    assertThat(firstLine(second)).isEqualTo("STOPPING gate-contended");

    // Both wait for the gate now; let them go, then let the holder go.
    for (Process p : List.of(first, second, holder)) {
      p.getOutputStream().write('\n');
      p.getOutputStream().flush();
    }
    for (Process p : List.of(first, second, holder)) {
      Result r = SluiceProcesses.finish(p);
      assertThat(r.exit()).as(r.toString()).isZero();
    }

    assertThat(Files.readString(file)).contains("\noffer.ttl = 2m\n", "\nstart.deadline = 3m\n");
    JsonNode history = json("config", "history").get("history");
    List<String> keys = new ArrayList<>();
    history.forEach(c -> keys.add(c.get("key").asText()));
    assertThat(keys).containsExactlyInAnyOrder("offer.ttl", "start.deadline");
  }

  private Process start(String stopAt, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(sluice.command(args));
    cmd.add(1, "-Dsluice.test.stopAt=" + stopAt);
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().remove("SLUICE_HOME");
    pb.environment().put("USER", "tester");
    Process p = pb.start();
    stopped.add(p);
    return p;
  }

  /** The first line {@code p} prints; the rest is left for {@link SluiceProcesses#finish}. */
  private static String firstLine(Process p) throws Exception {
    return CompletableFuture.supplyAsync(() -> readLine(p))
        .get(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }

  private static String readLine(Process p) {
    // Byte by byte, so nothing after the line is taken from the stream.
    StringBuilder b = new StringBuilder();
    try {
      for (int c = p.getInputStream().read(); c != -1 && c != '\n'; c = p.getInputStream().read()) {
        b.append((char) c);
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return b.toString();
  }
}
