/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.gate.ProcessRef;
import dev.sluice.gate.internal.ProcTable.Liveness;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ProcTable} against real processes, and against fake {@code /proc} trees for the states a
 * test cannot bring about on demand (an exited leader with running threads, a reused pid).
 *
 * <p>Commands are started with util-linux {@code setsid}: a freshly started child is never a
 * process group leader, so {@code setsid} calls {@code setsid()} in place instead of forking, and
 * the command keeps the pid Java started, which becomes its process group and session id. {@link
 * RealProcesses#setsidChildLeadsItsOwnGroupAndSession} checks that. Every wait is on the event
 * itself (a line from the child, {@link Process#waitFor}); the timeouts are only a safety net.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ProcTableTest {
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path tmp;

  @Nested
  class RealProcesses {
    private final List<Process> children = new ArrayList<>();

    /** Members we started; while one is still in its group, that group id is ours to kill. */
    private final List<ProcessRef> members = new ArrayList<>();

    private ProcessRef self;

    @BeforeAll
    static void linuxProc() {
      assumeTrue(Files.isReadable(Path.of("/proc/self/stat")), "needs Linux /proc");
      assumeTrue(!ProcTable.selfNamespace().isEmpty(), "needs /proc of this pid namespace");
    }

    @AfterEach
    void cleanUp() throws Exception {
      for (ProcessRef m : members) {
        Optional<ProcessRef> now = ProcTable.describe(m.pid());
        if (now.isPresent()
            && now.get().startTicks() == m.startTicks()
            && now.get().pgid() == m.pgid()
            && m.pgid() != jvm().pgid()) {
          kill(m.pgid());
        }
      }
      for (Process p : children) {
        p.destroyForcibly();
        p.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS);
      }
    }

    @Test
    void describesThisJvm() throws Exception {
      long pid = ProcessHandle.current().pid();
      ProcessRef ref = ProcTable.describe(pid).orElseThrow();

      assertThat(ref.pid()).isEqualTo(pid);
      assertThat(ref.pidNamespace())
          .matches("pid:\\[\\d+]")
          .isEqualTo(ProcTable.selfNamespace())
          .isEqualTo(Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString());
      assertThat(ref.pgid()).isEqualTo(Long.parseLong(rawFields(pid)[5 - 3]));
      assertThat(ProcTable.isAlive(ref)).isTrue();
      assertThat(ProcTable.groupAlive(ref.pgid())).isTrue();
      assertThat(ProcTable.liveness(ref)).isEqualTo(Liveness.ALIVE);
      assertThat(ProcessRef.lookup(pid)).contains(ref);

      // Field 22 is the start time: boot time plus the ticks is when the JDK says we started.
      Instant started = ProcessHandle.current().info().startInstant().orElseThrow();
      Instant fromTicks =
          Instant.ofEpochSecond(bootTime()).plusMillis(ref.startTicks() * 1000 / clockTicks());
      assertThat(Duration.between(fromTicks, started).abs()).isLessThan(Duration.ofSeconds(2));
    }

    @Test
    void setsidChildLeadsItsOwnGroupAndSession() throws Exception {
      Child c = startSetsid("sh", "-c", "echo $$; exec sleep 60");
      // The shell that ran setsid's command has the pid Java started: setsid did not fork.
      assertThat(Long.parseLong(c.readLine())).isEqualTo(c.pid());
      ProcessRef ref = track(ProcTable.describe(c.pid()).orElseThrow());

      assertThat(ref.pgid()).isEqualTo(c.pid()).isNotEqualTo(jvm().pgid());
      assertThat(Long.parseLong(rawFields(c.pid())[6 - 3])).as("session").isEqualTo(c.pid());
      assertThat(ref.pidNamespace()).isEqualTo(ProcTable.selfNamespace());
      assertThat(ref.startTicks()).isGreaterThanOrEqualTo(jvm().startTicks());
      assertThat(ProcTable.isAlive(ref)).isTrue();
      assertThat(ProcTable.groupAlive(ref.pgid())).isTrue();
      assertThat(ProcTable.liveness(ref)).isEqualTo(Liveness.ALIVE);
    }

    @Test
    void groupIsDeadOnceEveryMemberIsKilled() throws Exception {
      Child c = startSetsid("sh", "-c", "echo $$; exec sleep 60");
      c.readLine();
      ProcessRef ref = track(ProcTable.describe(c.pid()).orElseThrow());
      assertThat(ProcTable.groupAlive(ref.pgid())).isTrue();

      assertThat(kill(ref.pgid())).as("kill exit status").isZero();
      assertThat(c.process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();

      assertThat(ProcTable.groupAlive(ref.pgid())).isFalse();
      assertThat(ProcTable.isAlive(ref)).isFalse();
      assertThat(ProcTable.describe(ref.pid())).isEmpty();
      assertThat(ProcTable.liveness(ref)).isEqualTo(Liveness.DEAD);
    }

    @Test
    void groupOutlivesItsLeader() throws Exception {
      assumeTrue(onPath("perl"), "needs perl");
      // The leader stays until told, so that the member can join its group. The member is the
      // child of a keeper outside the group, which reaps it and says so: its end is an event.
      String leaderScript =
          String.join(
              "\n",
              "use strict; use warnings;",
              "$| = 1;",
              "my $leader = $$;",
              "print \"leader $leader\\n\";",
              "my $keeper = fork() // die \"fork: $!\";",
              "if ($keeper == 0) {",
              "  setpgrp(0, 0) or die \"setpgrp: $!\";",
              "  my $member = fork() // die \"fork: $!\";",
              "  if ($member == 0) {",
              "    setpgrp(0, $leader) or die \"setpgrp: $!\";",
              "    print \"member $$\\n\";",
              "    exec('sleep', '60') or die \"exec: $!\";",
              "  }",
              "  print \"keeper $$\\n\";",
              "  waitpid($member, 0);",
              "  print \"reaped\\n\";",
              "  exit 0;",
              "}",
              "my $line = <STDIN>;",
              "exit 0;");
      // Our child stays to reap the leader and say so, and keeps the output open: the JDK closes
      // a child's output pipe once that child has exited, whoever else still writes to it.
      assumeTrue(onPath("setsid"), "needs util-linux setsid");
      Child c =
          start(
              "sh",
              "-c",
              "setsid perl -e \"$1\"; echo leader gone; read x; exit 0",
              "sh",
              leaderScript);
      Map<String, Long> pids = new HashMap<>();
      for (int i = 0; i < 3; i++) {
        String[] line = c.readLine().split(" ");
        pids.put(line[0], Long.parseLong(line[1]));
      }
      ProcessRef leader = track(ProcTable.describe(pids.get("leader")).orElseThrow());
      ProcessRef member = track(ProcTable.describe(pids.get("member")).orElseThrow());
      ProcessRef keeper = track(ProcTable.describe(pids.get("keeper")).orElseThrow());
      assertThat(leader.pgid()).isEqualTo(leader.pid()).isNotEqualTo(jvm().pgid());
      assertThat(member.pgid()).isEqualTo(leader.pgid());
      assertThat(keeper.pgid()).isEqualTo(keeper.pid());

      c.stdin.write("go\n");
      c.stdin.flush();
      assertThat(c.readLine()).isEqualTo("leader gone");
      assertThat(ProcTable.isAlive(leader)).isFalse();
      assertThat(ProcTable.describe(leader.pid())).isEmpty();
      assertThat(ProcTable.groupAlive(leader.pgid())).isTrue();
      assertThat(ProcTable.liveness(leader)).isEqualTo(Liveness.ALIVE);

      assertThat(kill(leader.pgid())).as("kill exit status").isZero();
      assertThat(c.readLine()).isEqualTo("reaped");
      assertThat(ProcTable.isAlive(member)).isFalse();
      assertThat(ProcTable.groupAlive(leader.pgid())).isFalse();
      assertThat(ProcTable.liveness(leader)).isEqualTo(Liveness.DEAD);

      c.stdin.close();
      assertThat(c.process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
      assertThat(c.process.exitValue()).isZero();
    }

    @Test
    void zombieCountsAsEnded() throws Exception {
      assumeTrue(onPath("perl"), "needs perl");
      // The child leaves for a group of its own and exits; its parent never reaps it, and learns
      // from SIGCHLD, sent once the child is a zombie, when to tell us.
      String script =
          String.join(
              "\n",
              "use strict; use warnings; use POSIX ();",
              "$| = 1;",
              "POSIX::sigprocmask(POSIX::SIG_BLOCK(), POSIX::SigSet->new(POSIX::SIGCHLD()))",
              "  or die \"sigprocmask: $!\";",
              "$SIG{CHLD} = sub {};",
              "my $child = fork() // die \"fork: $!\";",
              "if ($child == 0) { setpgrp(0, 0) or die \"setpgrp: $!\"; POSIX::_exit(0); }",
              "POSIX::sigsuspend(POSIX::SigSet->new());",
              "print \"$child\\n\";",
              "my $line = <STDIN>;",
              "exit 0;");
      Child c = startSetsid("perl", "-e", script);
      long zombie = Long.parseLong(c.readLine());
      track(ProcTable.describe(c.pid()).orElseThrow());
      String[] raw = rawFields(zombie);
      assertThat(raw[3 - 3]).as("state").isEqualTo("Z");
      assertThat(Long.parseLong(raw[5 - 3])).as("pgrp").isEqualTo(zombie);
      ProcessRef ref =
          new ProcessRef(zombie, Long.parseLong(raw[22 - 3]), zombie, ProcTable.selfNamespace());

      assertThat(ProcTable.describe(zombie)).isEmpty();
      assertThat(ProcTable.isAlive(ref)).isFalse();
      assertThat(ProcTable.groupAlive(zombie)).isFalse();
      assertThat(ProcTable.liveness(ref)).isEqualTo(Liveness.DEAD);

      c.stdin.close();
      assertThat(c.process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void otherStartTimeIsAnotherProcess() throws Exception {
      Child c = startSetsid("sh", "-c", "echo $$; exec sleep 60");
      c.readLine();
      ProcessRef ref = track(ProcTable.describe(c.pid()).orElseThrow());
      ProcessRef earlier =
          new ProcessRef(ref.pid(), ref.startTicks() - 1, ref.pgid(), ref.pidNamespace());

      assertThat(ProcTable.isAlive(earlier)).isFalse();
      // It led its own group, and its pid now names another process: its group has ended.
      assertThat(ProcTable.groupAlive(earlier.pgid())).isTrue();
      assertThat(ProcTable.liveness(earlier)).isEqualTo(Liveness.DEAD);
      // A member of another group: that group still runs, so it is alive as far as we can tell.
      ProcessRef inOurGroup =
          new ProcessRef(ref.pid(), ref.startTicks() - 1, jvm().pgid(), ref.pidNamespace());
      assertThat(ProcTable.liveness(inOurGroup)).isEqualTo(Liveness.ALIVE);
    }

    @Test
    void noSuchProcess() {
      long none = Integer.MAX_VALUE; // above any pid_max
      assertThat(ProcTable.describe(none)).isEmpty();
      assertThat(ProcTable.describe(0)).isEmpty();
      assertThat(ProcTable.describe(-1)).isEmpty();
      ProcessRef ref = new ProcessRef(none, 1, none, ProcTable.selfNamespace());
      assertThat(ProcTable.isAlive(ref)).isFalse();
      assertThat(ProcTable.groupAlive(none)).isFalse();
      assertThat(ProcTable.liveness(ref)).isEqualTo(Liveness.DEAD);
      assertThatThrownBy(() -> ProcTable.groupAlive(0))
          .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void otherNamespaceIsUnverifiable() {
      ProcessRef ref = jvm();
      for (String ns : List.of("pid:[1]", "")) {
        assertThat(ProcTable.liveness(new ProcessRef(ref.pid(), ref.startTicks(), ref.pgid(), ns)))
            .as(ns)
            .isEqualTo(Liveness.UNVERIFIABLE);
      }
      assertThat(ProcTable.liveness(new ProcessRef(Integer.MAX_VALUE, 1, Integer.MAX_VALUE, "x")))
          .isEqualTo(Liveness.UNVERIFIABLE);
    }

    @Test
    void commandNameWithSpacesAndParentheses() throws Exception {
      // A shell under a name that, parsed from the first ')', would read as a zombie.
      String name = "a) Z 1 2 3 (c";
      Path shell = tmp.resolve(name);
      Files.copy(Path.of("/bin/sh").toRealPath(), shell, StandardCopyOption.COPY_ATTRIBUTES);
      assumeTrue(shell.toFile().setExecutable(true), "needs an executable temp directory");
      Child c = start(shell.toString(), "-c", "echo $$; read x");
      assertThat(Long.parseLong(c.readLine())).isEqualTo(c.pid());
      assertThat(Files.readString(Path.of("/proc/" + c.pid() + "/comm")).strip()).isEqualTo(name);

      ProcessRef ref = ProcTable.describe(c.pid()).orElseThrow();
      assertThat(ref.pgid()).isEqualTo(jvm().pgid());
      assertThat(ref.startTicks()).isGreaterThanOrEqualTo(jvm().startTicks());
      assertThat(ProcTable.isAlive(ref)).isTrue();
      assertThat(ProcTable.liveness(ref)).isEqualTo(Liveness.ALIVE);

      c.stdin.write("done\n");
      c.stdin.close();
      assertThat(c.process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
      assertThat(c.process.exitValue()).isZero();
    }

    private ProcessRef jvm() {
      if (self == null) {
        self = ProcTable.describe(ProcessHandle.current().pid()).orElseThrow();
      }
      return self;
    }

    private ProcessRef track(ProcessRef member) {
      members.add(member);
      return member;
    }

    private Child startSetsid(String... command) throws IOException {
      assumeTrue(onPath("setsid"), "needs util-linux setsid");
      List<String> all = new ArrayList<>(List.of("setsid"));
      all.addAll(List.of(command));
      return start(all.toArray(String[]::new));
    }

    private Child start(String... command) throws IOException {
      Path stderr = tmp.resolve("stderr-" + children.size());
      Process p = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
      children.add(p);
      return new Child(p, stderr);
    }

    /** {@code kill -KILL -- -pgid}; returns its exit status. */
    private int kill(long pgid) throws Exception {
      Process k =
          new ProcessBuilder("kill", "-KILL", "--", "-" + pgid)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      assertThat(k.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).as("kill finished").isTrue();
      return k.exitValue();
    }
  }

  @Nested
  class FakeProc {
    private static final String NS = "pid:[4026531836]";

    private Path proc;

    @Test
    void exitedLeaderWithARunningThreadStillRuns() throws Exception {
      proc = Files.createDirectories(tmp.resolve("proc"));
      process(100, 'Z', 100, 500);
      thread(100, 100, 'Z');
      thread(100, 101, 'S');
      process(200, 'Z', 200, 600);
      thread(200, 200, 'Z');

      ProcessRef leader = new ProcessRef(100, 500, 100, NS);
      assertThat(ProcTable.describe(proc, 100)).contains(leader);
      assertThat(ProcTable.isAlive(proc, leader)).isTrue();
      assertThat(ProcTable.groupAlive(proc, 100)).isTrue();
      assertThat(ProcTable.liveness(proc, NS, leader)).isEqualTo(Liveness.ALIVE);

      ProcessRef zombie = new ProcessRef(200, 600, 200, NS);
      assertThat(ProcTable.describe(proc, 200)).isEmpty();
      assertThat(ProcTable.isAlive(proc, zombie)).isFalse();
      assertThat(ProcTable.groupAlive(proc, 200)).isFalse();
      assertThat(ProcTable.liveness(proc, NS, zombie)).isEqualTo(Liveness.DEAD);
    }

    @Test
    void threadIdIsNotAProcess() throws Exception {
      proc = Files.createDirectories(tmp.resolve("proc"));
      process(100, 'S', 100, 500);
      // /proc/<tid> answers for a thread, though it is not listed.
      Path thread = process(101, 'S', 100, 520);
      Files.writeString(thread.resolve("status"), "Name:\tx\nTgid:\t100\nPid:\t101\n");

      assertThat(ProcTable.describe(proc, 100)).isPresent();
      assertThat(ProcTable.describe(proc, 101)).isEmpty();
    }

    @Test
    void groupScanSkipsWhatIsGoneOrForeign() throws Exception {
      proc = Files.createDirectories(tmp.resolve("proc"));
      Files.createDirectories(proc.resolve("300")); // ended between listing and reading
      Files.createDirectories(proc.resolve("self"));
      Files.writeString(Files.createDirectories(proc.resolve("sys")).resolve("stat"), "x");
      process(301, 'S', 77, 500);
      process(302, 'Z', 88, 500);
      thread(302, 302, 'Z');

      assertThat(ProcTable.groupAlive(proc, 77)).isTrue();
      assertThat(ProcTable.groupAlive(proc, 88)).isFalse();
      assertThat(ProcTable.groupAlive(proc, 300)).isFalse();
    }

    @Test
    void groupIdOfAReusedLeaderPidNamesANewGroup() throws Exception {
      proc = Files.createDirectories(tmp.resolve("proc"));
      process(100, 'S', 100, 900); // pid 100 now leads a new group 100

      assertThat(ProcTable.groupAlive(proc, 100)).isTrue();
      ProcessRef oldLeader = new ProcessRef(100, 500, 100, NS);
      assertThat(ProcTable.isAlive(proc, oldLeader)).isFalse();
      assertThat(ProcTable.liveness(proc, NS, oldLeader)).isEqualTo(Liveness.DEAD);
      // Of a member that did not lead its group, nothing says the group id was ever free.
      ProcessRef oldMember = new ProcessRef(150, 500, 100, NS);
      assertThat(ProcTable.liveness(proc, NS, oldMember)).isEqualTo(Liveness.ALIVE);
    }

    @Test
    void unreadableProcIsUnverifiable() throws Exception {
      proc = Files.createDirectories(tmp.resolve("proc"));
      Path dir = process(100, 'S', 100, 500);
      Files.writeString(dir.resolve("stat"), "100 no command name here");
      ProcessRef ref = new ProcessRef(100, 500, 100, NS);

      assertThat(ProcTable.describe(proc, 100)).isEmpty();
      assertThatThrownBy(() -> ProcTable.isAlive(proc, ref))
          .isInstanceOf(UncheckedIOException.class);
      assertThat(ProcTable.liveness(proc, NS, ref)).isEqualTo(Liveness.UNVERIFIABLE);
      assertThat(ProcTable.liveness(proc, "", ref)).isEqualTo(Liveness.UNVERIFIABLE);

      Path missing = tmp.resolve("no-proc");
      assertThatThrownBy(() -> ProcTable.groupAlive(missing, 100))
          .isInstanceOf(UncheckedIOException.class);
      assertThat(ProcTable.liveness(missing, NS, ref)).isEqualTo(Liveness.UNVERIFIABLE);
    }

    @Test
    void namespaceIsTheLinkTargetOrEmpty() throws Exception {
      proc = Files.createDirectories(tmp.resolve("proc"));
      process(100, 'S', 100, 500);
      Path noLink = process(101, 'S', 101, 500);
      Files.delete(noLink.resolve("ns").resolve("pid"));

      assertThat(ProcTable.describe(proc, 100).map(ProcessRef::pidNamespace)).contains(NS);
      assertThat(ProcTable.describe(proc, 101).map(ProcessRef::pidNamespace)).contains("");
    }

    @Test
    void statIsParsedAfterTheLastParenthesis() {
      String tail = " 1 77 77 0 -1 4194304 0 0 0 0 0 0 0 0 20 0 1 0 12345 0 0\n";
      assertThat(ProcTable.parseStat("42 (sleep) S" + tail))
          .isEqualTo(new ProcTable.Stat('S', 77, 12345));
      assertThat(ProcTable.parseStat("42 (a) Z 1 2 3 (c) R" + tail))
          .isEqualTo(new ProcTable.Stat('R', 77, 12345));
      assertThat(ProcTable.parseStat("42 (x\ny)) (z) Z" + tail))
          .isEqualTo(new ProcTable.Stat('Z', 77, 12345));
      assertThat(ProcTable.parseStat("42 () D" + tail))
          .isEqualTo(new ProcTable.Stat('D', 77, 12345));
      for (String bad :
          List.of("", "42 sleep S" + tail, "42 (sleep) S 1 77", "42 (s) S 1 x" + tail)) {
        assertThatThrownBy(() -> ProcTable.parseStat(bad))
            .as(bad)
            .isInstanceOf(IllegalArgumentException.class);
      }
      assertThat(new ProcTable.Stat('Z', 1, 1).exited()).isTrue();
      assertThat(new ProcTable.Stat('X', 1, 1).exited()).isTrue();
      assertThat(new ProcTable.Stat('S', 1, 1).exited()).isFalse();
      assertThat(new ProcTable.Stat('t', 1, 1).exited()).isFalse();
    }

    /** A process directory as Linux lays it out: stat, status, ns/pid and its leader task. */
    private Path process(long pid, char state, long pgrp, long ticks) throws IOException {
      Path dir = Files.createDirectories(proc.resolve(Long.toString(pid)));
      Files.writeString(dir.resolve("stat"), stat(pid, state, pgrp, ticks));
      Files.writeString(dir.resolve("status"), "Name:\tx\nTgid:\t" + pid + "\nPid:\t" + pid + "\n");
      Path ns = Files.createDirectories(dir.resolve("ns"));
      Files.createSymbolicLink(ns.resolve("pid"), Path.of(NS));
      Files.createDirectories(dir.resolve("task"));
      return dir;
    }

    private void thread(long pid, long tid, char state) throws IOException {
      Path dir = proc.resolve(Long.toString(pid));
      long pgrp = ProcTable.parseStat(Files.readString(dir.resolve("stat"))).pgrp();
      Path task = Files.createDirectories(dir.resolve("task").resolve(Long.toString(tid)));
      Files.writeString(task.resolve("stat"), stat(tid, state, pgrp, 500));
    }

    private String stat(long pid, char state, long pgrp, long ticks) {
      return pid
          + " (x) "
          + state
          + " 1 "
          + pgrp
          + " "
          + pgrp
          + " 0 -1 4194304 0 0 0 0 0 0 0 0 20 0 1 0 "
          + ticks
          + " 1000 10\n";
    }
  }

  /** A child with its output read line by line and its input open. */
  private static final class Child {
    final Process process;
    final Path stderr;
    final BufferedReader out;
    final Writer stdin;

    Child(Process process, Path stderr) {
      this.process = process;
      this.stderr = stderr;
      this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8));
      this.stdin = process.outputWriter(UTF_8);
    }

    long pid() {
      return process.pid();
    }

    /** The next line; blocks until the child writes it (the class timeout is the safety net). */
    String readLine() throws IOException, InterruptedException {
      String line = out.readLine();
      if (line == null) {
        process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS);
        throw new AssertionError(
            "pid " + pid() + " ended its output; its errors: " + Files.readString(stderr));
      }
      return line;
    }
  }

  /** The fields of {@code /proc/<pid>/stat} after the command name: field n is at n - 3. */
  private static String[] rawFields(long pid) throws IOException {
    String text = Files.readString(Path.of("/proc/" + pid + "/stat"));
    return text.substring(text.lastIndexOf(')') + 2).strip().split(" ");
  }

  private static long bootTime() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/stat"))) {
      if (line.startsWith("btime ")) {
        return Long.parseLong(line.substring("btime ".length()).strip());
      }
    }
    throw new IllegalStateException("no btime in /proc/stat");
  }

  private static long clockTicks() throws Exception {
    assumeTrue(onPath("getconf"), "needs getconf");
    Process p = new ProcessBuilder("getconf", "CLK_TCK").start();
    String out = new String(p.getInputStream().readAllBytes(), UTF_8).strip();
    assertThat(p.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    return Long.parseLong(out);
  }

  private static boolean onPath(String command) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
        return true;
      }
    }
    return false;
  }
}
