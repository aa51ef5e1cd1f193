/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Every exit status of the {@code sluice} command, so that scripts and agents can branch without
 * parsing output.
 *
 * <table>
 *   <caption>Exit statuses</caption>
 *   <tr><th>Status</th><th>Verbs</th><th>Meaning</th></tr>
 *   <tr><td>0</td><td>all</td><td>success; {@code acquire} and {@code rejoin}: granted</td></tr>
 *   <tr><td>1</td><td>all</td><td>an unexpected internal error (a bug)</td></tr>
 *   <tr><td>2</td><td>all but run, wait</td><td>usage: unknown verb or flag, bad or missing value</td></tr>
 *   <tr><td>3</td><td>all but run, wait</td><td>the gate refused: {@code error: <code>: <message>}
 *       on stderr, and {@code {"error": code, "message": ...}} on stdout with {@code --json}</td></tr>
 *   <tr><td>4</td><td>all but run, wait</td><td>the home, its store or its configuration file cannot be
 *       used ({@code error: config: ...} names the file, line, key and value), or I/O failed</td></tr>
 *   <tr><td>10</td><td>acquire, rejoin</td><td>queued</td></tr>
 *   <tr><td>11</td><td>acquire, rejoin</td><td>offered (claim it with the offer token)</td></tr>
 *   <tr><td>12</td><td>acquire, rejoin</td><td>paused (rejoin to queue again)</td></tr>
 *   <tr><td>13</td><td>acquire, rejoin</td><td>conflict with the agent's request under this key</td></tr>
 *   <tr><td>14</td><td>acquire, rejoin, claim</td><td>the request was cancelled (by {@code cancel});
 *       ask again with another {@code --op}</td></tr>
 *   <tr><td>15</td><td>start, mark-started, heartbeat, release</td><td>the permit was lost: its
 *       lease lapsed, its start deadline passed, it was force-released or its owner died ({@code
 *       reason} in the answer); stop the work it guarded</td></tr>
 *   <tr><td>16</td><td>cancel, kill, rejoin, force-release, logs</td><td>no such job: no request has the
 *       id (or it ended over the retention ago), or no queued or running job has the label</td></tr>
 *   <tr><td>17</td><td>cancel, kill</td><td>the label names several jobs (their ids are in the
 *       message); give an id</td></tr>
 *   <tr><td>18</td><td>pool await</td><td>the drain did not settle within {@code --timeout}
 *       (it goes on)</td></tr>
 *   <tr><td>19</td><td>pool await, resume, acknowledge</td><td>{@code --generation} is not the
 *       running drain of the limiter pool; nothing changed</td></tr>
 *   <tr><td>20</td><td>pool status, drain, await, resume, acknowledge</td><td>no limiter pool in
 *       {@code --pool-dir}; nothing was created</td></tr>
 *   <tr><td>122</td><td>wait</td><td>the job ran, but its exit status is unknown: its runner was
 *       killed before the command ended</td></tr>
 *   <tr><td>124</td><td>run, wait</td><td>no capacity within {@code --queue-timeout}; CMD (the
 *       job) did not run</td></tr>
 *   <tr><td>125</td><td>run, wait</td><td>a usage error of run or wait, the gate refused or
 *       cancelled the request, the job's runner ended before it started it, or the store or {@code
 *       bin/sluice}'s build failed; CMD (the job) did not run (or was stopped at once because its
 *       permit could not be bound)</td></tr>
 *   <tr><td>126, 127</td><td>run</td><td>CMD could not be executed, or was not found</td></tr>
 *   <tr><td>128+N</td><td>run</td><td>CMD died of signal N (130 SIGINT, 143 SIGTERM)</td></tr>
 *   <tr><td>other</td><td>run, wait</td><td>CMD's (the job's) own exit status</td></tr>
 * </table>
 *
 * <p>Immutable and thread-safe.
 */
public enum ExitCode {
  /** Success; for {@code acquire} and {@code rejoin}: granted. */
  OK(0, "all", "success; acquire and rejoin: granted"),
  /** An unexpected internal error: a bug. */
  INTERNAL(1, "all", "unexpected internal error (a bug)"),
  /** A bad verb, flag or value (for {@code run}: {@link #RUN_FAILED}). */
  USAGE(2, "all but run, wait", "usage: unknown verb or flag, bad or missing value"),
  /** The gate refused the operation ({@link dev.sluice.gate.GateException}). */
  REFUSED(3, "all but run, wait", "the gate refused: error code on stderr (and JSON)"),
  /** The home, store or configuration file cannot be used, or I/O failed. */
  STORE(
      4,
      "all but run, wait",
      "the home, its store or its config file cannot be used, or I/O failed"),
  /** {@code acquire}/{@code rejoin}: queued. */
  QUEUED(10, "acquire, rejoin", "queued"),
  /** {@code acquire}/{@code rejoin}: offered. */
  OFFERED(11, "acquire, rejoin", "offered: claim it with the offer token"),
  /** {@code acquire}/{@code rejoin}: paused. */
  PAUSED(12, "acquire, rejoin", "paused: rejoin to queue again"),
  /** {@code acquire}/{@code rejoin}: conflict with the agent's request under the same key. */
  CONFLICT(13, "acquire, rejoin", "conflict with the agent's request under this --op"),
  /** The request was withdrawn by {@code cancel}; its key stays spent. */
  CANCELLED(14, "acquire, rejoin, claim", "the request was cancelled; ask with another --op"),
  /** The permit was taken back (lapsed or reclaimed) before this call: stop its work. */
  PERMIT_LOST(
      15,
      "start, mark-started, heartbeat, release",
      "the permit was lost (lease_expired, start_deadline_passed, force_released, owner_exited:"
          + " the reason is in the answer); stop its work"),
  /** No request has the id, or no live job has the label. */
  NO_SUCH_JOB(
      16,
      "cancel, kill, rejoin, force-release, logs",
      "no such job: unknown request id, or no queued or running job has the --label"),
  /** The label names several live jobs. */
  AMBIGUOUS_JOB(17, "cancel, kill", "the --label names several jobs (listed); give an id"),
  /** {@code pool await}: the drain did not settle within the timeout; it goes on. */
  NOT_SETTLED(18, "pool await", "the drain did not settle within --timeout (it goes on)"),
  /** A drain verb named a generation that is not the running drain; nothing changed. */
  STALE_DRAIN(
      19,
      "pool await, resume, acknowledge",
      "--generation is not the running drain (resumed, or a newer one began); nothing changed"),
  /** A drain verb's {@code --pool-dir} holds no limiter pool; nothing was created. */
  NO_SUCH_POOL(
      20,
      "pool status, drain, await, resume, acknowledge",
      "no limiter pool in --pool-dir (missing directory or state.db); nothing was created"),
  /** {@code wait}: the job ran, but its runner died before it could record the exit status. */
  JOB_LOST(122, "wait", "the job ran, but its exit status is unknown: its runner was killed"),
  /** {@code run}, {@code wait}: no capacity within the queue timeout. */
  QUEUE_TIMEOUT(124, "run, wait", "no capacity within --queue-timeout; CMD (the job) did not run"),
  /**
   * {@code run}, {@code wait}: a usage error, the gate refused (or cancelled the request), the
   * job's runner ended before it started it, or the store or {@code bin/sluice}'s build failed; CMD
   * (the job) did not run.
   */
  RUN_FAILED(
      125,
      "run, wait",
      "usage error, refused, cancelled, store or build failed: CMD (the job) did not run");

  private final int code;
  private final String verbs;
  private final String meaning;

  ExitCode(int code, String verbs, String meaning) {
    this.code = code;
    this.verbs = verbs;
    this.meaning = meaning;
  }

  /** The process exit status. */
  public int code() {
    return code;
  }

  /** The help footer: every status, one per line, plus what {@code run} passes through. */
  public static String helpFooter() {
    String rows =
        Arrays.stream(values())
            .map(c -> row(Integer.toString(c.code), c.verbs, c.meaning))
            .collect(Collectors.joining());
    return "%nExit status:"
        + rows
        + row("126/127", "run, wait", "CMD could not be executed / was not found")
        + row("128+N", "run, wait", "CMD died of signal N (130 SIGINT, 143 SIGTERM)")
        + row("other", "run, wait", "CMD's own exit status (wait: the first non-zero job's)")
        + "%n%nEnvironment:"
        + "%n  SLUICE_HOME       default for --home"
        + "%n  SLUICE_AGENT_ID   default for --agent%n";
  }

  private static String row(String code, String verbs, String meaning) {
    return String.format("%%n  %-7s %-16s %s", code, verbs, meaning);
  }
}
