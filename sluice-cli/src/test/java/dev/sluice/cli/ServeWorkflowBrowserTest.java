/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * {@code sluice serve --workflow-db}'s workflow section end to end in headless Chromium: executions
 * another JVM writes appear without a reload, one execution shows its steps, timer and failure, and
 * cancel happens only once it is confirmed. Screenshots go to {@code target/screenshots}.
 */
class ServeWorkflowBrowserTest {
  @TempDir Path home;
  @TempDir Path root;
  Path store;
  ServeProcess serve;
  Browser browser;

  @BeforeEach
  void start() throws Exception {
    store = root.resolve("flows");
    Files.createDirectory(
        store, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    serve = ServeProcess.start(home, "127.0.0.1:0", "--workflow-db", store.toString());
    browser = Browser.open();
  }

  @AfterEach
  void stop(TestInfo test) throws Exception {
    if (browser != null) {
      browser.screenshot("last-" + test.getTestMethod().orElseThrow().getName());
      browser.close();
    }
    serve.close();
  }

  private By execution(String id) {
    return By.cssSelector("#wf-executions tr[data-execution-id='" + id + "']");
  }

  private void click(By by) {
    browser.click(by);
  }

  private String awaitText(By by, String... parts) {
    return browser.awaitText(by, parts);
  }

  private String status(String id) throws Exception {
    return serve.get("/api/workflows/execution?id=" + id).get("status").asText();
  }

  @Test
  void executionsWrittenByAnotherProcessAppearWithTheirStepsWithoutAReload() throws Exception {
    browser.driver.get(serve.loginUrl());
    browser.waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("workflows")));
    awaitText(By.id("wf-executions"), "no executions");

    ServeWorkflowProcessTest.writeWorkflows(store);
    awaitText(execution("order-42"), "order-42", "checkout", "waiting");
    awaitText(execution("refund-7"), "refund-7", "failed");
    awaitText(By.cssSelector("#wf-statuses [data-status='waiting']"), "(1)");

    click(execution("order-42"));
    String details = awaitText(By.id("wf-details"), "charge", "cool-off", "timer due");
    assertThat(details).contains("\"paid o-42\"");
    Path shot = browser.screenshot("serve-workflows");
    assertThat(Files.size(shot)).isPositive();

    click(execution("refund-7"));
    awaitText(By.id("wf-details"), "java.lang.IllegalStateException", "card expired for o-7");
  }

  @Test
  void cancelHappensOnlyOnceItIsConfirmed() throws Exception {
    ServeWorkflowProcessTest.writeWorkflows(store);
    browser.driver.get(serve.loginUrl());
    By cancel = By.cssSelector("#wf-executions tr[data-execution-id='order-42'] button.wf-cancel");
    assertThat(awaitText(execution("refund-7"), "failed")).doesNotContain("Cancel");

    click(cancel);
    browser.waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("wf-confirm")));
    assertThat(browser.driver.findElement(By.id("wf-confirm-text")).getText())
        .contains("order-42", "checkout");
    browser.screenshot("serve-workflow-confirm");
    browser.driver.findElement(By.id("wf-confirm-no")).click();
    browser.waiting().until(ExpectedConditions.invisibilityOfElementLocated(By.id("wf-confirm")));
    assertThat(status("order-42")).isEqualTo("waiting");

    click(cancel);
    click(By.id("wf-confirm-yes"));
    awaitText(execution("order-42"), "cancelled");
    assertThat(status("order-42")).isEqualTo("cancelled");
  }

  @Test
  void withoutTheTokenCancelIsDisabled() throws Exception {
    ServeWorkflowProcessTest.writeWorkflows(store);
    browser.driver.get(serve.url.toString());
    awaitText(execution("order-42"), "waiting");
    assertThat(
            browser.enabled(
                By.cssSelector("#wf-executions tr[data-execution-id='order-42'] button.wf-cancel")))
        .isFalse();
    assertThat(status("order-42")).isEqualTo("waiting");
  }
}
