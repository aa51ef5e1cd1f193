/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.SluiceProcesses.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The completion script of the real {@code bin/sluice}, sourced into a real bash and asked what it
 * completes, as bash asks when the user presses Tab.
 */
class CompletionIT {
  @TempDir Path tmp;

  /** Runs bash with the script sourced, then the completion of {@code words}; prints COMPREPLY. */
  private Result complete(String... words) throws Exception {
    Result script =
        SluiceProcesses.finish(
            new ProcessBuilder(BinSluiceIT.SCRIPT.toString(), "completion", "bash").start());
    assertThat(script.exit()).as(script.toString()).isZero();
    Path file = tmp.resolve("sluice.bash");
    Files.writeString(file, script.out());
    String line = String.join(" ", words);
    String probe =
        "source "
            + file
            + "; COMP_WORDS=("
            + line
            + "); COMP_CWORD="
            + (words.length - 1)
            + "; COMP_LINE='"
            + line
            + "'; COMP_POINT="
            + line.length()
            + "; _complete_sluice 2>/dev/null; printf '%s\\n' \"${COMPREPLY[@]}\"";
    return SluiceProcesses.finish(new ProcessBuilder("bash", "-c", probe).start());
  }

  @Test
  void bashCompletesVerbsAndTheirOptions() throws Exception {
    assertThat(complete("sluice", "ru").out().lines()).containsExactly("run");
    assertThat(complete("sluice", "run", "--po").out().lines()).containsExactly("--pool");
    assertThat(complete("sluice", "comp").out().lines()).containsExactly("completion");
  }

  @Test
  void anUnknownShellIsAUsageErrorNamingTheAllowedOnes() throws Exception {
    Result r =
        SluiceProcesses.finish(
            new ProcessBuilder(BinSluiceIT.SCRIPT.toString(), "completion", "fish").start());
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("SHELL: 'fish' is not supported; allowed: bash, zsh");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void zshGetsTheScriptThatLoadsBashcompinit() throws Exception {
    Result r =
        SluiceProcesses.finish(
            new ProcessBuilder(BinSluiceIT.SCRIPT.toString(), "completion", "zsh").start());
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).contains("bashcompinit").contains("complete -F _complete_sluice");
  }
}
