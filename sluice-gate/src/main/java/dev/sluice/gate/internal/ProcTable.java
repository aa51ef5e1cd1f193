/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import dev.sluice.gate.ProcessRef;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads Linux {@code /proc} to identify a process and to judge whether a process or a process group
 * still lives.
 *
 * <p>A process is identified by its pid and its start time in clock ticks since boot ({@code
 * /proc/<pid>/stat} field 22), so a reused pid is never mistaken for it. A zombie ({@code Z}) or
 * dead ({@code X}) process counts as ended, except a thread group leader that has exited while
 * other threads of its process still run: {@code /proc} shows such a leader as {@code Z}, but the
 * process lives. Liveness is only judged within this JVM's pid namespace: a pid from another
 * namespace names another process here, or none.
 *
 * <p>Known limits: a scan of {@code /proc} is not atomic, so a group whose only member forks a new
 * member at a lower (wrapped) pid and exits while the scan is between the two can be missed; and a
 * {@code /proc} mounted with {@code hidepid=invisible} hides other users' processes, which then
 * look ended.
 *
 * <p>Thread-safe: stateless apart from this JVM's namespace, read once. Every method is a handful
 * of reads of {@code /proc}, which the kernel answers from memory without waiting for a device;
 * {@link #groupAlive} and {@link #liveness} read one small file per process on the machine. No
 * method waits for a process, polls or sleeps.
 */
public final class ProcTable {
  /** What {@code /proc} can tell about a tracked process group. */
  public enum Liveness {
    /** The exact process, or some process of its group, still runs. */
    ALIVE,
    /** The process and every process of its group have ended (zombies count as ended). */
    DEAD,
    /**
     * This JVM cannot judge: the process is in another pid namespace, or {@code /proc} is missing,
     * unreadable or belongs to another pid namespace. Callers count it as alive.
     */
    UNVERIFIABLE
  }

  private static final Path PROC = Path.of("/proc");

  private ProcTable() {}

  /**
   * Describes the live process with this pid: its start time, process group and pid namespace (the
   * target of {@code /proc/<pid>/ns/pid}, for example {@code pid:[4026531836]}, or {@code ""} if
   * that link cannot be read, as for another user's process).
   *
   * @param pid a process id in this JVM's pid namespace
   * @return the process, or empty if there is no such live process: none, a zombie, a thread id
   *     rather than a process id, a kernel thread (process group 0), or {@code /proc} cannot be
   *     read
   */
  public static Optional<ProcessRef> describe(long pid) {
    return Self.USABLE ? describe(PROC, pid) : Optional.empty();
  }

  /** {@link #describe(long)} on the {@code /proc} tree at {@code proc}. */
  static Optional<ProcessRef> describe(Path proc, long pid) {
    if (pid < 1) {
      return Optional.empty();
    }
    try {
      Path dir = dir(proc, pid);
      Stat first = readStat(dir);
      if (first == null || !running(dir, first) || first.pgrp() < 1 || !isProcess(dir, pid)) {
        return Optional.empty();
      }
      String namespace = readNamespace(dir);
      // The link belongs to whoever has this pid now: make sure that is still the process read.
      Stat again = readStat(dir);
      if (again == null || again.startTicks() != first.startTicks() || !running(dir, again)) {
        return Optional.empty();
      }
      return Optional.of(new ProcessRef(pid, first.startTicks(), first.pgrp(), namespace));
    } catch (UncheckedIOException e) {
      return Optional.empty();
    }
  }

  /**
   * The pid namespace of this JVM, for example {@code pid:[4026531836]}, read once. Empty if it
   * cannot be read or if {@code /proc} belongs to another pid namespace (its {@code self} is not
   * this JVM's pid), so that nothing can be verified here.
   *
   * @return the namespace, or {@code ""}
   */
  public static String selfNamespace() {
    return Self.NAMESPACE;
  }

  /**
   * Whether this exact process (same pid and same start time) still exists and is not a zombie.
   *
   * @param p the process
   * @return true if it runs
   * @throws UncheckedIOException if {@code /proc} cannot be read or is not this JVM's
   */
  public static boolean isAlive(ProcessRef p) {
    requireUsable();
    return isAlive(PROC, p);
  }

  /** {@link #isAlive(ProcessRef)} on the {@code /proc} tree at {@code proc}. */
  static boolean isAlive(Path proc, ProcessRef p) {
    Objects.requireNonNull(p, "p");
    Path dir = dir(proc, p.pid());
    Stat s = readStat(dir);
    return s != null && s.startTicks() == p.startTicks() && running(dir, s);
  }

  /**
   * Whether some process that is not a zombie has this process group id. Scans every {@code
   * /proc/<pid>/stat}; a process that ends during the scan is skipped.
   *
   * @param pgid a process group id, positive
   * @return true if the group has a running member
   * @throws IllegalArgumentException if {@code pgid} is not positive (kernel threads have group 0)
   * @throws UncheckedIOException if {@code /proc} cannot be read or is not this JVM's
   */
  public static boolean groupAlive(long pgid) {
    requireUsable();
    return groupAlive(PROC, pgid);
  }

  /** {@link #groupAlive(long)} on the {@code /proc} tree at {@code proc}. */
  static boolean groupAlive(Path proc, long pgid) {
    if (pgid < 1) {
      throw new IllegalArgumentException("pgid must be positive, was " + pgid);
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(proc)) {
      for (Path dir : entries) {
        if (isNumber(dir.getFileName().toString())) {
          Stat s = readStat(dir);
          if (s != null && s.pgrp() == pgid && running(dir, s)) {
            return true;
          }
        }
      }
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + proc, e);
    } catch (DirectoryIteratorException e) {
      throw new UncheckedIOException("cannot list " + proc, e.getCause());
    }
  }

  /**
   * Judges a tracked process group: {@link Liveness#UNVERIFIABLE} if the process is in another pid
   * namespace than this JVM or {@code /proc} cannot tell; otherwise {@link Liveness#ALIVE} if the
   * exact process or some process of its group runs, else {@link Liveness#DEAD}.
   *
   * <p>A live group proves the group id still names the recorded group only while the id was never
   * free: Linux does not hand out a pid that is still some group's id, but once the group has
   * ended, a new process may get that pid and start a new group with the same id. So when the
   * recorded process led its own group ({@code pid == pgid}) and its pid now belongs to a process
   * with another start time, the recorded group has ended: {@link Liveness#DEAD}, whatever the new
   * group does.
   *
   * @param p the tracked process
   * @return what {@code /proc} says about it
   */
  public static Liveness liveness(ProcessRef p) {
    return liveness(PROC, selfNamespace(), p);
  }

  /**
   * {@link #liveness(ProcessRef)} on the {@code /proc} tree at {@code proc}, as seen from the pid
   * namespace {@code self} ({@code ""}: none can be verified).
   */
  static Liveness liveness(Path proc, String self, ProcessRef p) {
    Objects.requireNonNull(p, "p");
    if (self.isEmpty() || !self.equals(p.pidNamespace())) {
      return Liveness.UNVERIFIABLE;
    }
    try {
      Path dir = dir(proc, p.pid());
      Stat s = readStat(dir);
      if (s != null) {
        if (s.startTicks() == p.startTicks()) {
          if (running(dir, s)) {
            return Liveness.ALIVE;
          }
        } else if (p.pid() == p.pgid()) {
          return Liveness.DEAD;
        }
      }
      return groupAlive(proc, p.pgid()) ? Liveness.ALIVE : Liveness.DEAD;
    } catch (UncheckedIOException e) {
      return Liveness.UNVERIFIABLE;
    }
  }

  /** The fields of {@code /proc/<pid>/stat} that are used. */
  record Stat(char state, long pgrp, long startTicks) {
    /** Zombie or dead; {@code x} is the old spelling of {@code X}. */
    boolean exited() {
      return state == 'Z' || state == 'X' || state == 'x';
    }
  }

  /**
   * Parses the content of a {@code /proc/<pid>/stat}. The command name (field 2) is in parentheses
   * and may itself hold spaces and parentheses, so the fields are taken after the last {@code )}.
   *
   * @throws IllegalArgumentException if the text is not laid out as Linux does
   */
  static Stat parseStat(String text) {
    int close = text.lastIndexOf(')');
    if (close < 0) {
      throw new IllegalArgumentException("no command name in " + text);
    }
    // Field 3 (state) is the first after ") ", so field n is at index n - 3.
    String[] f = text.substring(close + 1).strip().split(" ");
    if (f.length < 20 || f[0].length() != 1) {
      throw new IllegalArgumentException("too few fields in " + text);
    }
    try {
      return new Stat(f[0].charAt(0), Long.parseLong(f[2]), Long.parseLong(f[19]));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a number in " + text, e);
    }
  }

  /** The stat of {@code dir}, or null if that process (or thread) is gone. */
  private static Stat readStat(Path dir) {
    Path file = dir.resolve("stat");
    String text = read(file);
    if (text == null || text.isEmpty()) {
      return null;
    }
    try {
      return parseStat(text);
    } catch (IllegalArgumentException e) {
      throw new UncheckedIOException(new IOException("unexpected format of " + file, e));
    }
  }

  /**
   * Whether a process with this stat still runs: not exited, or an exited thread group leader with
   * a thread that still runs.
   */
  private static boolean running(Path dir, Stat s) {
    if (!s.exited()) {
      return true;
    }
    String leader = dir.getFileName().toString();
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(dir.resolve("task"))) {
      for (Path task : tasks) {
        if (!task.getFileName().toString().equals(leader)) {
          Stat t = readStat(task);
          if (t != null && !t.exited()) {
            return true;
          }
        }
      }
      return false;
    } catch (IOException | DirectoryIteratorException e) {
      return false; // the task list vanished: the zombie has been reaped meanwhile
    }
  }

  /** Whether {@code pid} is a process (thread group) id rather than the id of a thread. */
  private static boolean isProcess(Path dir, long pid) {
    String status = read(dir.resolve("status"));
    if (status == null) {
      return false;
    }
    for (String line : status.split("\n")) {
      if (line.startsWith("Tgid:")) {
        return line.substring("Tgid:".length()).strip().equals(Long.toString(pid));
      }
    }
    return true;
  }

  /** The target of {@code dir/ns/pid}, or {@code ""} if it cannot be read. */
  private static String readNamespace(Path dir) {
    try {
      return Files.readSymbolicLink(dir.resolve("ns").resolve("pid")).toString();
    } catch (IOException | UnsupportedOperationException e) {
      return "";
    }
  }

  /**
   * The whole of a small {@code /proc} file, or null if its process is gone. A process that ends
   * while its file is read fails the read with {@code ESRCH}, which counts as gone too.
   *
   * @throws UncheckedIOException if the file may not be read
   */
  private static String read(Path file) {
    try {
      return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
    } catch (NoSuchFileException e) {
      return null;
    } catch (AccessDeniedException e) {
      throw new UncheckedIOException(e);
    } catch (IOException e) {
      return null;
    }
  }

  private static Path dir(Path proc, long pid) {
    return proc.resolve(Long.toString(pid));
  }

  private static boolean isNumber(String name) {
    if (name.isEmpty()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  private static void requireUsable() {
    if (!Self.USABLE) {
      throw new UncheckedIOException(
          new IOException(PROC + " is missing or does not belong to this JVM's pid namespace"));
    }
  }

  /** This JVM as {@code /proc} sees it, read on first use. */
  private static final class Self {
    /** Whether {@code /proc} is mounted and numbers processes as this JVM does. */
    static final boolean USABLE = procIsOurs();

    static final String NAMESPACE = USABLE ? readNamespace(PROC.resolve("self")) : "";

    private static boolean procIsOurs() {
      try {
        String self = Files.readSymbolicLink(PROC.resolve("self")).toString();
        return self.equals(Long.toString(ProcessHandle.current().pid()));
      } catch (IOException | UnsupportedOperationException e) {
        return false;
      }
    }
  }
}
