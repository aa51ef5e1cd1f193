/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.cli.SluiceProcesses.Result;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which pools a request may use, through the real command: one set up with {@code pool set}, or the
 * default pool; a mistyped name is refused instead of becoming a new pool with nobody in it.
 */
class PoolRuleProcessTest {
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;
  @TempDir Path work;
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
  void onAFreshHomeARunWithoutAPoolUsesTheDefaultPool() throws Exception {
    Result r = sluice.run("run", "--", "echo", "hello");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).isEqualTo("hello\n");
    assertThat(poolNames()).containsExactly("default");
  }

  @Test
  void aMistypedPoolIsRefusedWithTheKnownPoolsAndHowToCreateItAndRunsNothing() throws Exception {
    assertThat(sluice.run("pool", "set", "build", "--capacity", "1").exit()).isZero();
    Path touched = work.resolve("touched");

    Result r = sluice.run("run", "--pool", "biuld", "--", "touch", touched.toString());

    assertThat(r.exit()).as(r.toString()).isEqualTo(125);
    assertThat(r.err())
        .contains("error: unknown_pool: no pool 'biuld' (known pools: build)")
        .contains("sluice pool set biuld --capacity N");
    assertThat(touched).doesNotExist();
    Result acquire =
        sluice.run("--json", "--agent", "a", "acquire", "--pool", "biuld", "--op", "k");
    assertThat(acquire.exit()).as(acquire.toString()).isEqualTo(3);
    assertThat(JSON.readTree(acquire.out()).get("error").asText()).isEqualTo("unknown_pool");
    assertThat(poolNames()).containsExactly("build");
  }

  @Test
  void anOptionLookingPoolIsRefusedAsAValue() throws Exception {
    Path touched = work.resolve("touched");
    Result run = sluice.run("run", "--pool", "-x", "--", "touch", touched.toString());
    assertThat(run.exit()).as(run.toString()).isEqualTo(125);
    assertThat(run.err()).startsWith("error: usage: ").contains("-x");
    Result acquire = sluice.run("--agent", "a", "acquire", "--pool", "-x", "--op", "k");
    assertThat(acquire.exit()).as(acquire.toString()).isEqualTo(2);
    assertThat(touched).doesNotExist();
    assertThat(poolNames()).isEmpty();
  }

  @Test
  void poolRmIsRefusedWhileThePoolHoldsAndThenRemovesIt() throws Exception {
    assertThat(sluice.run("pool", "set", "b", "--capacity", "1").exit()).isZero();
    Result held = sluice.run("--json", "--agent", "a", "acquire", "--pool", "b", "--op", "k");
    assertThat(held.exit()).as(held.toString()).isZero();

    Result busy = sluice.run("pool", "rm", "b");
    assertThat(busy.exit()).as(busy.toString()).isEqualTo(3);
    assertThat(busy.err()).contains("error: pool_busy: pool b still has 1 live request");
    assertThat(poolNames()).containsExactly("b");

    String token = JSON.readTree(held.out()).get("permitToken").asText();
    assertThat(sluice.run("release", token).exit()).isZero();
    Result rm = sluice.run("--json", "pool", "rm", "b", "--reason", "unused");
    assertThat(rm.exit()).as(rm.toString()).isZero();
    assertThat(JSON.readTree(rm.out()).get("removed").asBoolean()).isTrue();
    assertThat(poolNames()).isEmpty();
    assertThat(sluice.run("run", "--pool", "b", "--", "true").exit()).isEqualTo(125);
    assertThat(sluice.run("pool", "rm", "b").exit()).isEqualTo(3);
  }

  private java.util.List<String> poolNames() throws Exception {
    Result r = sluice.run("--json", "status");
    assertThat(r.exit()).as(r.toString()).isZero();
    java.util.List<String> names = new java.util.ArrayList<>();
    for (JsonNode p : JSON.readTree(r.out()).get("pools")) {
      names.add(p.get("name").asText());
    }
    return names;
  }
}
