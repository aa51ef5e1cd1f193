/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.PoolDrainingException;
import dev.sluice.cli.SluiceProcesses.Result;
import dev.sluice.sqlite.SqliteStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * {@code sluice serve --pool-dir}'s limiter pools in headless Chromium: the pool appears, a lease
 * that another process (this test's JVM) takes shows without a reload with its fencing token, and a
 * drain happens only once it is confirmed. Screenshots go to {@code target/screenshots}.
 */
class ServeLimiterBrowserTest {
  @TempDir Path home;
  @TempDir Path work;
  Path poolDir;
  Limiter limiter;
  ServeProcess serve;
  Browser browser;

  @BeforeEach
  void start() throws Exception {
    Result set = new SluiceProcesses(home).run("pool", "set", "builds", "--capacity", "2");
    assertThat(set.exit()).as(set.toString()).isZero();
    poolDir = work.resolve("payments-api");
    limiter =
        Limiter.open(
            SqliteStore.directory(poolDir),
            LimiterConfig.builder()
                .maxConcurrent(4)
                .reservoir(500)
                .reservoirRefresh(500, Duration.ofMinutes(10))
                .build());
    serve = ServeProcess.start(home, "127.0.0.1:0", "--pool-dir", poolDir.toString());
    browser = Browser.open();
  }

  @AfterEach
  void stop(TestInfo test) throws Exception {
    if (browser != null) {
      browser.screenshot("last-" + test.getTestMethod().orElseThrow().getName());
      browser.close();
    }
    serve.close();
    limiter.close();
  }

  private By card() {
    return By.cssSelector("div.limiter[data-pool-dir='" + poolDir.toAbsolutePath() + "']");
  }

  private void openLoggedIn() {
    browser.driver.get(serve.loginUrl());
    browser.waiting().until(ExpectedConditions.textToBe(By.id("live"), "live"));
  }

  @Test
  void aLeaseTakenByAnotherProcessAppearsWithItsFencingToken() throws Exception {
    openLoggedIn();
    browser.awaitText(card(), "payments-api", "0 / 4 active", "500");
    serve.run("builds", "nightly-build", "exec sleep 600");

    try (Lease first = limiter.acquire(1);
        Lease second = limiter.acquire(2)) {
      String token = Long.toString(second.admission().fencingToken());
      String text = browser.awaitText(card(), "3 / 4 active", token, "497");
      browser.awaitText(By.cssSelector("[data-pool='builds']"), "nightly-build");
      assertThat(text).contains(Long.toString(first.admission().fencingToken()));
      Path shot = browser.screenshot("serve-console-limiters");
      assertThat(Files.size(shot)).isPositive();
      // The README's picture of a limiter pool (docs/serve-limiters.png).
      assertThat(Files.size(browser.screenshot("serve-limiters", By.id("limiters")))).isPositive();
    }
    browser.awaitText(card(), "0 / 4 active", "released");
  }

  @Test
  void drainHappensOnlyOnceItIsConfirmedAndResumeEndsIt() throws Exception {
    openLoggedIn();
    By drain = By.cssSelector("div.limiter button.act-drain");

    browser.click(drain);
    browser
        .waiting()
        .until(ExpectedConditions.visibilityOfElementLocated(By.id("limiter-confirm")));
    assertThat(browser.driver.findElement(By.id("limiter-confirm-text")).getText())
        .contains("payments-api");
    browser.screenshot("serve-limiter-confirm");
    browser.driver.findElement(By.id("limiter-confirm-no")).click();
    browser
        .waiting()
        .until(ExpectedConditions.invisibilityOfElementLocated(By.id("limiter-confirm")));
    assertThat(limiter.maintenance().status().draining()).isFalse();

    browser.click(drain);
    browser.click(By.id("limiter-confirm-yes"));
    browser.awaitText(card(), "draining (generation 1");
    assertThat(limiter.maintenance().status().draining()).isTrue();
    assertThatThrownBy(() -> limiter.acquire(1)).isInstanceOf(PoolDrainingException.class);

    browser.click(By.cssSelector("div.limiter button.act-resume"));
    browser.click(By.id("limiter-confirm-yes"));
    browser.awaitText(card(), "admitting (last drain 1)");
    try (Lease again = limiter.acquire(1)) {
      assertThat(again.admission().weight()).isEqualTo(1);
    }
  }

  @Test
  void withoutTheTokenDrainIsDisabled() throws Exception {
    browser.driver.get(serve.url.toString());
    browser.waiting().until(ExpectedConditions.textToBe(By.id("live"), "live"));
    WebElement drain =
        browser
            .waiting()
            .until(
                ExpectedConditions.presenceOfElementLocated(
                    By.cssSelector("div.limiter button.act-drain")));
    assertThat(drain.isEnabled()).isFalse();
  }
}
