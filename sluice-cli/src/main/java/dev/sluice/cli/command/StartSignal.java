/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Holds a spawned command back until its permit is bound to it, so that a {@code sluice run} killed
 * between the spawn and the bind never leaves a command running outside the gate.
 *
 * <p>The command starts as {@code sh -c 'exec 3<>FIFO 4<FIFO 3>&-; read go <&4 && [ "$go" = go ] ||
 * exit 125; exec CMD'}. The shell's first open, read and write, never blocks on Linux; its second,
 * read only, finds that first one as a writer and does not block either; then it drops the first.
 * From there the only writer is this process, which holds the FIFO open for reading and writing
 * from before the spawn (the JDK closes every other descriptor in the processes it spawns, so no
 * child holds it). The shell's read therefore ends in one of three ways: {@code go} from {@link
 * #fire} after the bind, {@code stop} from {@link #abort}, or end-of-file once this process is
 * gone, even by SIGKILL, and whether it died before or after the shell's opens (a lone {@code go}
 * written just before a death is lost with the FIFO's last open end). Only {@code go} runs the
 * command; otherwise the shell exits 125. So a held-back group outlives its launcher only for the
 * moment the shell takes to see the end, and a permit bound to it is freed with it: the gate needs
 * no record of whether the command was let go.
 *
 * <p>The FIFO's name does not outlive {@link #create}: once this process holds it open, the FIFO
 * and its private temporary directory are removed, and the shell opens it as {@code /proc/<this
 * pid>/fd/<n>}, which reaches the same pipe for as long as this process holds it. So a {@code
 * sluice run} killed by SIGKILL, even while it waits hours in the queue, leaves no {@code
 * /tmp/sluice-run-*} behind; and if it is gone before the shell's open, that open fails and the
 * shell exits 125 as it does at end-of-file. Only where {@code /proc} cannot name the descriptor
 * does the FIFO keep its name until {@link #close}.
 *
 * <p>Not thread-safe: used once by {@link Launch}. {@link #create} blocks while {@code mkfifo}
 * runs.
 */
final class StartSignal implements AutoCloseable {
  // "command exec": a failed redirection of a plain exec would end the shell with status 2, which
  // the caller could not tell from the command's own.
  private static final String WAIT_THEN_EXEC =
      "command exec 3<>\"$1\" 4<\"$1\" 3>&- || exit 125;"
          + " read go <&4 && [ \"$go\" = go ] || exit 125; shift; exec \"$@\" 4<&-";

  /**
   * The shell's {@code $0}, which it names in its own messages ("sluice: 1: exec: mkae: not
   * found"): never the FIFO's path, which means nothing to the user.
   */
  private static final String SHELL_NAME = "sluice";

  /**
   * Test-only: with the system property {@code sluice.test.holdShell} naming a FIFO, the shell
   * first reads one line from it, so a test decides when the shell opens its own FIFO (for example
   * only after this process is dead). Without the property nothing changes.
   */
  private static final String HOLD = System.getProperty("sluice.test.holdShell", "");

  private final Path dir;
  private final Path fifo;
  private final Path shellPath;
  private final FileChannel channel;
  private boolean closed;

  private StartSignal(Path dir, Path fifo, Path shellPath, FileChannel channel) {
    this.dir = dir;
    this.fifo = fifo;
    this.shellPath = shellPath;
    this.channel = channel;
  }

  /** Makes a private FIFO, holds it open, and removes its name where {@code /proc} allows. */
  static StartSignal create() throws IOException {
    Path dir = Files.createTempDirectory("sluice-run-");
    Path fifo = dir.resolve("go");
    try {
      Process mkfifo = new ProcessBuilder("mkfifo", "-m", "600", fifo.toString()).start();
      if (mkfifo.waitFor() != 0) {
        throw new IOException("mkfifo " + fifo + " failed with status " + mkfifo.exitValue());
      }
      // Read and write: on Linux this open of a FIFO returns at once and keeps a writer alive.
      FileChannel ch = FileChannel.open(fifo, StandardOpenOption.READ, StandardOpenOption.WRITE);
      Optional<Path> held = OpenDescriptors.pathOf(fifo);
      if (held.isEmpty()) {
        return new StartSignal(dir, fifo, fifo, ch);
      }
      removeQuietly(fifo, dir);
      // Nothing named is left to remove at close.
      return new StartSignal(null, null, held.get(), ch);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      removeQuietly(fifo, dir);
      throw new IOException("interrupted while making " + fifo, e);
    } catch (IOException | RuntimeException e) {
      removeQuietly(fifo, dir);
      throw e;
    }
  }

  /** Starts {@link #create} on another thread, so that it overlaps the wait for a permit. */
  static CompletableFuture<StartSignal> prepare() {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return create();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  /**
   * The signal {@link #prepare} made, waiting for it if needed.
   *
   * @throws IOException if it could not be made
   */
  static StartSignal await(CompletableFuture<StartSignal> prepared) throws IOException {
    try {
      return prepared.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof UncheckedIOException u) {
        throw u.getCause();
      }
      throw new IOException("cannot prepare the command's start: " + e.getCause(), e);
    }
  }

  /** Closes a prepared signal that will not be used (no permit came). */
  static void discard(CompletableFuture<StartSignal> prepared) {
    prepared.thenAccept(StartSignal::close);
  }

  /** What goes between {@code setsid} and the command. */
  List<String> waitingPrefix() {
    if (HOLD.isEmpty()) {
      return List.of("/bin/sh", "-c", WAIT_THEN_EXEC, SHELL_NAME, shellPath.toString());
    }
    if (HOLD.contains("'")) {
      throw new IllegalArgumentException(
          "sluice.test.holdShell must be a path without a single quote, was " + HOLD);
    }
    return List.of(
        "/bin/sh",
        "-c",
        "read _ < '" + HOLD + "'; " + WAIT_THEN_EXEC,
        SHELL_NAME,
        shellPath.toString());
  }

  /** Lets the command start. */
  void fire() throws IOException {
    channel.write(ByteBuffer.wrap("go\n".getBytes(StandardCharsets.US_ASCII)));
  }

  /** Makes the shell exit 125 without running the command. */
  void abort() {
    try {
      channel.write(ByteBuffer.wrap("stop\n".getBytes(StandardCharsets.US_ASCII)));
    } catch (IOException e) {
      // The shell is gone already.
    }
  }

  /**
   * Drops this process's end of the FIFO and removes it; call once the command has exited, since a
   * line written but not yet read is lost with the last open end.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      channel.close();
    } catch (IOException e) {
      // Closing is best effort; the process exit closes it too.
    }
    if (fifo != null) {
      removeQuietly(fifo, dir);
    }
  }

  private static void removeQuietly(Path fifo, Path dir) {
    try {
      Files.deleteIfExists(fifo);
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      // A leftover empty FIFO in the temporary directory is harmless.
    }
  }
}
