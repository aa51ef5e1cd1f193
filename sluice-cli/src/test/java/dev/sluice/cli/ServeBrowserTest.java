/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.SluiceProcesses.Result;
import dev.sluice.gate.GateService;
import dev.sluice.gate.TicketState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * {@code sluice serve}'s console end to end in headless Chromium: the page loads and goes live, a
 * run that another real {@code sluice run} process starts appears without a reload, an action
 * happens only once it is confirmed, and without the token the page is read only. Screenshots go to
 * {@code target/screenshots}.
 */
class ServeBrowserTest {
  @TempDir Path home;
  ServeProcess serve;
  GateService gate;
  Browser browser;

  @BeforeEach
  void start() throws Exception {
    Result set = new SluiceProcesses(home).run("pool", "set", "builds", "--capacity", "1");
    assertThat(set.exit()).as(set.toString()).isZero();
    serve = ServeProcess.start(home, "127.0.0.1:0");
    gate = GateService.open(home);
    browser = Browser.open();
  }

  @AfterEach
  void stop(TestInfo test) throws Exception {
    if (browser != null) {
      // How the page looked at the end: what to look at first when a test fails.
      browser.screenshot("last-" + test.getTestMethod().orElseThrow().getName());
      browser.close();
    }
    serve.close();
    gate.close();
  }

  /** Opens the console logged in, and waits until its event stream is live. */
  private void openLoggedIn() {
    browser.driver.get(serve.loginUrl());
    browser.waiting().until(ExpectedConditions.textToBe(By.id("live"), "live"));
  }

  private By row(String kind, String label) {
    return By.xpath(
        "//tr[contains(@class,'" + kind + "')][td[2][normalize-space()='" + label + "']]");
  }

  private void click(By by) {
    browser.click(by);
  }

  private String awaitText(By by, String... parts) {
    return browser.awaitText(by, parts);
  }

  @Test
  void aRunStartedByAnotherProcessAppearsWithoutAReload() throws Exception {
    openLoggedIn();
    assertThat(browser.driver.getCurrentUrl()).doesNotContain("token");
    awaitText(By.cssSelector("[data-pool='builds']"), "builds", "0 / 1 used");

    serve.run("builds", "nightly-build", "exec sleep 600");
    String id = EventWait.await(gate, "started", "builds").requestId();
    long pid = gate.ticket(id).orElseThrow().trackedProcess().orElseThrow().pid();
    String held = awaitText(row("held", "nightly-build"), id, Long.toString(pid));
    serve.run("builds", "release-notes", "exec sleep 600");
    awaitText(row("queued", "release-notes"), "release-notes");
    awaitText(By.cssSelector("#events tbody"), "queued", "started");

    assertThat(held).contains(id, "nightly-build", Long.toString(pid));
    Path shot = browser.screenshot("serve-console");
    assertThat(Files.size(shot)).isPositive();
  }

  @Test
  void cancelHappensOnlyOnceItIsConfirmed() throws Exception {
    serve.run("builds", "holder", "exec sleep 600");
    EventWait.await(gate, "started", "builds");
    Process waiting = serve.run("builds", "waiting-job", "exec sleep 600");
    String queued = EventWait.await(gate, "queued", "builds").requestId();
    openLoggedIn();
    By cancel = By.cssSelector("tr[data-request-id='" + queued + "'] button.act-cancel");

    click(cancel);
    browser.waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm")));
    assertThat(browser.driver.findElement(By.id("confirm-text")).getText())
        .contains(queued, "waiting-job");
    browser.screenshot("serve-confirm");
    browser.driver.findElement(By.id("confirm-no")).click();
    browser.waiting().until(ExpectedConditions.invisibilityOfElementLocated(By.id("confirm")));
    assertThat(gate.ticket(queued).orElseThrow().state()).isEqualTo(TicketState.QUEUED);
    assertThat(waiting.isAlive()).isTrue();

    click(cancel);
    click(By.id("confirm-yes"));

    browser
        .waiting()
        .until(ExpectedConditions.invisibilityOfElementLocated(row("queued", "waiting-job")));
    assertThat(waiting.waitFor(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(gate.ticket(queued).orElseThrow().state()).isEqualTo(TicketState.CANCELLED);
  }

  @Test
  void killAndReleaseStopsARunningJobAfterConfirmation() throws Exception {
    Process run = serve.run("builds", "runaway", "exec sleep 600");
    String held = EventWait.await(gate, "started", "builds").requestId();
    openLoggedIn();

    click(By.cssSelector("tr[data-request-id='" + held + "'] button.act-kill"));
    click(By.id("confirm-yes"));

    browser
        .waiting()
        .until(ExpectedConditions.invisibilityOfElementLocated(row("held", "runaway")));
    assertThat(run.waitFor(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(gate.status().get(0).used()).isZero();
  }

  @Test
  void withoutTheTokenThePageIsReadOnly() throws Exception {
    serve.run("builds", "someone-elses", "exec sleep 600");
    browser.driver.get(serve.url.toString());
    browser.waiting().until(ExpectedConditions.textToBe(By.id("live"), "live"));
    // The card is redrawn on every snapshot: ask the one on the page at the time.
    assertThat(browser.enabled(By.cssSelector("tr.held button.act-release"))).isFalse();
    assertThat(browser.driver.findElement(By.id("readonly")).isDisplayed()).isTrue();
    browser.screenshot("serve-read-only");
  }
}
