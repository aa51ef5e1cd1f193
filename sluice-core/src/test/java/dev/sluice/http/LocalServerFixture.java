/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.TimeSource;
import dev.sluice.memory.MemoryStore;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the HTTP tests share: a real local server and a limiter of one lease at a time on a fresh
 * memory pool, both opened before each test and closed after it, and a log of the limiter's events.
 */
abstract class LocalServerFixture {
  TestServer server;
  Limiter limiter;
  EventLog events;

  /** The limiter's configuration; one lease at a time unless a test class says otherwise. */
  LimiterConfig config() {
    return LimiterConfig.builder().maxConcurrent(1).build();
  }

  /** The pool's clock; the system's unless a test class says otherwise. */
  TimeSource clock() {
    return TimeSource.system();
  }

  @BeforeEach
  void open() throws Exception {
    server = new TestServer();
    limiter = Limiter.open(MemoryStore.named("http-" + UUID.randomUUID(), clock()), config());
    events = new EventLog();
    limiter.listen(events);
  }

  @AfterEach
  void close() {
    limiter.close();
    server.close();
  }

  /** Fails unless the pool's one lease can be taken, that is, unless the call released it. */
  void assertReleased() throws InterruptedException {
    Optional<Lease> lease = limiter.tryAcquire(1, Duration.ofSeconds(20));
    assertThat(lease).as("the call released its lease").isPresent();
    lease.get().close();
  }
}
