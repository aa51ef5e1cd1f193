/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.BreakerPolicy;
import dev.sluice.LimiterConfig;
import dev.sluice.RecoveryPolicy;
import dev.sluice.spi.AcquireAnswer;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolCommand;
import dev.sluice.spi.PoolSession;
import dev.sluice.spi.ReportAnswer;
import dev.sluice.spi.ReportedOutcome;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/**
 * Fixtures of the control-state cases: a raw owner session of the store under test that takes
 * leases and reports how their attempts ended, as managed execution does, while limiters of other
 * owners observe the shared cooldown, circuit and drain through the public API.
 */
public abstract class ControlCase extends ConformanceCase {
  private final List<Reporter> reporters = new ArrayList<>();

  protected ControlCase(StoreFactory stores) {
    super(stores);
  }

  /** The consecutive breaker with its defaults: 5 failures, 30 s doubling to 5 min. */
  protected static LimiterConfig withBreaker() {
    return LimiterConfig.builder()
        .recovery(RecoveryPolicy.builder().breaker(BreakerPolicy.consecutive().build()).build())
        .build();
  }

  /** Opens a reporting owner on this test's pool; retired after the test. */
  protected Reporter reporter(LimiterConfig config) {
    Reporter r = new Reporter(store().open(config), config.expirationMillisRaw());
    reporters.add(r);
    return r;
  }

  @AfterEach
  void retireReporters() {
    for (Reporter r : reporters) {
      r.retire();
    }
  }

  /** An owner that takes leases and reports their attempts' outcomes. */
  protected static final class Reporter {
    private final PoolSession session;
    private final long lifetime;
    private long refs;
    private boolean retired;

    Reporter(PoolSession session, long lifetime) {
      this.session = session;
      this.lifetime = lifetime;
    }

    /**
     * Takes a lease of weight 1 with the pool's default lifetime at once; fails the test if it is
     * not admitted.
     */
    public LeaseRecord lease() {
      AcquireAnswer a = acquire(false);
      assertThat(a).as("admitted at once").isInstanceOf(AcquireAnswer.Granted.class);
      return ((AcquireAnswer.Granted) a).lease();
    }

    /** Asks for a lease of weight 1 without waiting. */
    public AcquireAnswer acquire(boolean failFast) {
      return session
          .execute(
              new PoolCommand.Acquire(session.ownerId(), ++refs, 1, lifetime, 0, failFast, false))
          .value();
    }

    /** Reports the attempt that held {@code lease} and releases it. */
    public ReportAnswer report(LeaseRecord lease, ReportedOutcome outcome, long retryAfterMillis) {
      return session
          .execute(new PoolCommand.Report(session.ownerId(), lease.id(), outcome, retryAfterMillis))
          .value();
    }

    /** Retires the owner, as a client that closes does; once. */
    public void retire() {
      if (!retired) {
        retired = true;
        session.retire();
      }
    }

    /** Reports without a retry-after. */
    public ReportAnswer report(LeaseRecord lease, ReportedOutcome outcome) {
      return report(lease, outcome, 0);
    }
  }
}
