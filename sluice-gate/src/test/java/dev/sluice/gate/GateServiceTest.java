/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.sluice.StoreFormatException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gate service on a real SQLite home: persistence, waiting, events, bad homes. */
class GateServiceTest {
  /** The safety net for waits on events that must happen. */
  private static final Duration SAFETY = Duration.ofSeconds(30);

  /** How long a waiter must read nothing while nothing changes. */
  private static final Duration QUIET = Duration.ofSeconds(3);

  @TempDir Path tmp;

  private static AcquireRequest request(String agent, String op, String pool, int weight) {
    return new AcquireRequest(agent, op, pool, weight, "label " + op, "");
  }

  private GateSettings settings() {
    return GateSettings.builder().defaultCapacity(2).build();
  }

  @Test
  void stateSurvivesReopening() {
    Path home = tmp.resolve("home");
    String token;
    try (GateService gate = GateService.open(home, settings())) {
      AcquireOutcome a = gate.acquire(request("a", "op1", "default", 2));
      assertThat(a).isInstanceOf(AcquireOutcome.Granted.class);
      token = ((AcquireOutcome.Granted) a).permitToken();
      assertThat(gate.acquire(request("b", "op1", "default", 1)))
          .isInstanceOf(AcquireOutcome.Queued.class);
    }
    try (GateService gate = GateService.open(home)) {
      assertThat(gate.settings().defaultCapacity()).isEqualTo(2);
      PoolStatus build = gate.status().get(0);
      assertThat(build.used()).isEqualTo(2);
      assertThat(build.queued()).extracting(Ticket::agentId).containsExactly("b");
      ReleaseOutcome r = gate.release(token, "done");
      assertThat(r.alreadyReleased()).isFalse();
      assertThat(gate.pending("b").offers()).hasSize(1);
      assertThat(gate.release(token, "again").alreadyReleased()).isTrue();
    }
  }

  @Test
  void ticketsReadsLiveAndEndedRequestsInOneCallLeavingUnknownIdsOut() {
    try (GateService gate = GateService.open(tmp.resolve("home"), settings())) {
      String held = gate.acquire(request("a", "op1", "default", 2)).ticket().requestId();
      AcquireOutcome waiting = gate.acquire(request("b", "op1", "default", 1));
      String cancelled = gate.cancel("b", waiting.ticket().requestId()).requestId();

      List<Ticket> found = gate.tickets(List.of(cancelled, "r999999", held));

      assertThat(found).extracting(Ticket::requestId).containsExactly(cancelled, held);
      assertThat(found)
          .extracting(Ticket::label, Ticket::state)
          .containsExactly(
              tuple("label op1", TicketState.CANCELLED), tuple("label op1", TicketState.HELD));
      assertThat(gate.tickets(List.of())).isEmpty();
    }
  }

  @Test
  void waitingAcquireIsWokenByAReleaseFromAnotherService() throws Exception {
    Path home = tmp.resolve("home");
    try (GateService first = GateService.open(home, settings());
        GateService second = GateService.open(home)) {
      String token =
          ((AcquireOutcome.Granted) first.acquire(request("a", "op", "default", 2))).permitToken();
      CompletableFuture<AcquireOutcome> waiting =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return second.acquire(request("b", "op", "default", 1), Duration.ofMinutes(1));
                } catch (InterruptedException e) {
                  throw new IllegalStateException(e);
                }
              });
      awaitEvent(first, "queued");
      assertThat(waiting).isNotDone();
      first.release(token, "");
      AcquireOutcome got = waiting.get(30, TimeUnit.SECONDS);
      assertThat(got).isInstanceOf(AcquireOutcome.Granted.class);
      assertThat(got.ticket().state()).isEqualTo(TicketState.HELD);
      assertThat(got.ticket().agentId()).isEqualTo("b");
    }
  }

  @Test
  void ownedAcquireTimesOutAndWithdrawsItsRequest() throws Exception {
    try (GateService gate = GateService.open(tmp.resolve("home"), settings())) {
      gate.acquire(request("a", "op", "default", 2));
      Optional<Permit> permit =
          gate.acquireOwned(request("run", "x", "default", 1), Duration.ofMillis(200), o -> {});
      assertThat(permit).isEmpty();
      assertThat(gate.status().get(0).queued()).isEmpty();
      List<GateEvent> events = gate.events(0, 100);
      assertThat(events).extracting(GateEvent::type).containsSubsequence("queued", "withdrawn");
      assertThat(events.get(events.size() - 1).detail()).isEqualTo("queue_timeout, was queued");
      assertThat(events).extracting(GateEvent::type).doesNotContain("cancelled");
    }
  }

  /** Starts {@code body} on a thread of its own, known before it runs, completing the future. */
  private static <T> Thread thread(String name, CompletableFuture<T> result, Callable<T> body) {
    return new Thread(
        () -> {
          try {
            result.complete(body.call());
          } catch (Throwable e) {
            result.completeExceptionally(e);
          }
        },
        name);
  }

  @Test
  void eventsAreNumberedAndAwaitedWithoutPolling() throws Exception {
    try (GateService gate = GateService.open(tmp.resolve("home"), settings())) {
      // A fresh home has pulsed nothing yet, so nothing written before the waiter starts can wake
      // it: every read it runs after its first is one too many, until the change it waits for.
      CompletableFuture<List<GateEvent>> first = new CompletableFuture<>();
      Thread waiter =
          thread("events-waiter", first, () -> gate.awaitEvents(0, 10, Duration.ofMinutes(1)));
      try (GateReads reads = GateReads.of(gate.home(), waiter)) {
        waiter.start();
        assertThat(reads.awaitAbove(0, SAFETY)).as("the waiter read the events once").isTrue();
        // The measured quiet interval: a waiter that re-reads on a timer rather than on a pulse
        // reads again within it.
        assertThat(reads.awaitAbove(1, QUIET))
            .as("a read by the waiter while nothing changed, within %s", QUIET)
            .isFalse();
        gate.acquire(request("a", "op", "default", 1));
        assertThat(first.get(30, TimeUnit.SECONDS))
            .extracting(GateEvent::type)
            .containsExactly("granted");
        assertThat(reads.count()).as("woken by the grant's pulse: one read after it").isEqualTo(2);
      }
      List<GateEvent> all = gate.events(0, 100);
      assertThat(all).extracting(GateEvent::type).containsExactly("granted");
      long last = all.get(all.size() - 1).sequence();
      CompletableFuture<List<GateEvent>> next =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return gate.awaitEvents(last, 10, Duration.ofMinutes(1));
                } catch (InterruptedException e) {
                  throw new IllegalStateException(e);
                }
              });
      gate.setCapacity("default", 5, "tester", "more room");
      assertThat(next.get(30, TimeUnit.SECONDS))
          .extracting(GateEvent::type)
          .containsExactly("capacity_changed");
      assertThat(gate.history())
          .singleElement()
          .satisfies(
              c -> {
                assertThat(c.actor()).isEqualTo("tester");
                assertThat(c.oldCapacity()).isEqualTo(2);
                assertThat(c.newCapacity()).isEqualTo(5);
              });
    }
  }

  @Test
  void refusedOperationsChangeNothingAndNameTheProblem() {
    try (GateService gate = GateService.open(tmp.resolve("home"), settings())) {
      assertThatThrownBy(() -> gate.acquire(request("a", "op", "default", 3)))
          .isInstanceOf(GateException.class)
          .hasMessageContaining("weight 3 exceeds its capacity 2")
          .extracting(e -> ((GateException) e).code())
          .isEqualTo(GateException.Code.WEIGHT_EXCEEDS_CAPACITY);
      assertThatThrownBy(() -> gate.release("0123456789abcdef0123456789abcdef", ""))
          .isInstanceOf(GateException.class)
          .extracting(e -> ((GateException) e).code())
          .isEqualTo(GateException.Code.UNKNOWN_TOKEN);
      assertThat(gate.status()).isEmpty();
      assertThat(gate.events(0, 10)).isEmpty();
    }
  }

  @Test
  void aCorruptOrForeignHomeIsRefusedAndLeftAlone() throws Exception {
    Path home = tmp.resolve("home");
    Files.createDirectories(home);
    Files.setPosixFilePermissions(
        home, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
    byte[] garbage = "this is not a database, but someone's notes".repeat(200).getBytes();
    Files.write(home.resolve("gate.db"), garbage);
    assertThatThrownBy(() -> GateService.open(home))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining(home.toRealPath().toString())
        .hasMessageContaining("gate.db");
    assertThat(Files.readAllBytes(home.resolve("gate.db"))).isEqualTo(garbage);

    Path file = tmp.resolve("plain-file");
    Files.writeString(file, "x");
    assertThatThrownBy(() -> GateService.open(file))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("not a directory");
  }

  @Test
  void aSharedGroupHomeKeepsItsFilesGroupWritable() throws Exception {
    Path home = tmp.resolve("shared");
    Files.createDirectory(home);
    int gid = (Integer) Files.getAttribute(home, "unix:gid");
    assertThat(gid).as("a group this process is in").isNotNegative();
    new ProcessBuilder("chmod", "2770", home.toString()).start().waitFor();
    try (GateService gate = GateService.open(home, settings())) {
      gate.acquire(request("a", "op", "default", 1));
    }
    for (String name : List.of("gate.db", "gate.db-wal", "gate.lock", "notify/pulse")) {
      Path f = home.resolve(name);
      if (Files.exists(f)) {
        assertThat(
                java.nio.file.attribute.PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(f)))
            .as(name)
            .isEqualTo("rw-rw----");
      }
    }
    assertThat(home.resolve("gate.db")).exists();
    new ProcessBuilder("chmod", "2777", home.toString()).start().waitFor();
    assertThatThrownBy(() -> GateService.open(home))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("writable by everyone");
  }

  private static void awaitEvent(GateService gate, String type) throws InterruptedException {
    long since = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      for (GateEvent e : gate.awaitEvents(since, 100, Duration.ofSeconds(30))) {
        if (e.type().equals(type)) {
          return;
        }
        since = e.sequence();
      }
    }
    throw new AssertionError("no '" + type + "' event within 30 s");
  }
}
