/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.cli.SluiceProcesses.Result;
import dev.sluice.gate.AcquireRequest;
import dev.sluice.gate.GateService;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The smaller things a new user met (issue 14, item 12): a command that is not found is named
 * without an internal path, {@code run --json} answers a queue timeout on stdout, and a named home
 * whose parent is missing is refused instead of created with its whole path.
 */
class SmallFixesProcessTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  @Test
  void aCommandThatIsNotFoundIsNamedWithoutTheStartFifosPath() throws Exception {
    try (SluiceProcesses sluice = new SluiceProcesses(tmp.resolve("home"))) {
      Result r = sluice.run("run", "--", "no-such-command-xyz", "arg");
      assertThat(r.exit()).as(r.toString()).isEqualTo(127);
      assertThat(r.err()).contains("no-such-command-xyz").doesNotContain("sluice-run-", "/go");
    }
  }

  @Test
  void runJsonAnswersAQueueTimeoutOnStdout() throws Exception {
    Path home = tmp.resolve("home");
    try (SluiceProcesses sluice = new SluiceProcesses(home);
        GateService gate = GateService.open(home)) {
      gate.setCapacity("p", 1, "test", "");
      gate.acquire(new AcquireRequest("holder", "h", "p", 1, "holder", ""));
      Result r = sluice.run("--json", "run", "--pool", "p", "--queue-timeout", "1s", "--", "true");
      assertThat(r.exit()).as(r.toString()).isEqualTo(124);
      JsonNode answer = JSON.readTree(r.out());
      assertThat(answer.get("error").asText()).isEqualTo("queue_timeout");
      assertThat(answer.get("message").asText()).contains("pool p", "did not run");
    }
  }

  @Test
  void aNamedHomeWhoseParentIsMissingIsRefusedAndNothingIsCreated() throws Exception {
    Path missing = tmp.resolve("no").resolve("such").resolve("home");
    try (SluiceProcesses sluice = new SluiceProcesses(missing)) {
      Result status = sluice.run("status");
      assertThat(status.exit()).as(status.toString()).isEqualTo(2);
      assertThat(status.err()).contains("--home " + missing, "mkdir -p " + missing.getParent());
      Result run = sluice.run("run", "--", "true");
      assertThat(run.exit()).as(run.toString()).isEqualTo(125);
      assertThat(run.err()).contains("--home " + missing);
    }
    assertThat(Files.exists(tmp.resolve("no"))).isFalse();
    // A missing home under an existing parent is made, as before.
    try (SluiceProcesses sluice = new SluiceProcesses(tmp.resolve("new-home"))) {
      assertThat(sluice.run("status").exit()).isZero();
    }
  }
}
