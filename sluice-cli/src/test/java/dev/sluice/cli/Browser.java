/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.openqa.selenium.By;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Chromium driven by Selenium through Debian's {@code chromium} and {@code
 * chromium-driver} ({@code /usr/bin/chromium}, {@code /usr/bin/chromedriver}; {@code
 * SLUICE_CHROMIUM} and {@code SLUICE_CHROMEDRIVER} name others). Nothing is downloaded: when either
 * is missing, the test fails, saying what to install; it never skips.
 */
final class Browser implements AutoCloseable {
  /** Where screenshots go. */
  static final Path SHOTS = Path.of("target", "screenshots");

  final ChromeDriver driver;

  private Browser(ChromeDriver driver) {
    this.driver = driver;
  }

  static Browser open() throws Exception {
    String chromium = locate("SLUICE_CHROMIUM", "/usr/bin/chromium");
    String chromedriver = locate("SLUICE_CHROMEDRIVER", "/usr/bin/chromedriver");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(chromium);
    // Root in CI and in containers: Chromium's sandbox needs user namespaces it may not have.
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1280,900");
    ChromeDriverService service =
        new ChromeDriverService.Builder().usingDriverExecutable(new File(chromedriver)).build();
    return new Browser(new ChromeDriver(service, options));
  }

  private static String locate(String variable, String standard) {
    String given = System.getenv(variable);
    String path = given == null || given.isBlank() ? standard : given;
    if (!Files.isExecutable(Path.of(path))) {
      throw new AssertionError(
          path
              + " is missing: the console's browser tests need Debian's chromium and"
              + " chromium-driver (apt-get install -y chromium chromium-driver; .ci/run installs"
              + " them), or "
              + variable
              + " naming another");
    }
    return path;
  }

  /** A wait for a condition of the page, up to the process tests' timeout. */
  WebDriverWait waiting() {
    return new WebDriverWait(driver, Duration.ofSeconds(SluiceProcesses.TIMEOUT_SECONDS));
  }

  /** Clicks what {@code by} finds, finding it again if the page redrew it meanwhile. */
  void click(By by) {
    waiting()
        .ignoring(StaleElementReferenceException.class)
        .ignoring(NoSuchElementException.class)
        .until(
            d -> {
              WebElement e = d.findElement(by);
              if (!e.isDisplayed() || !e.isEnabled()) {
                return false;
              }
              e.click();
              return true;
            });
  }

  /** The text of what {@code by} finds, once it contains every one of {@code parts}. */
  String awaitText(By by, String... parts) {
    return waiting()
        .ignoring(StaleElementReferenceException.class)
        .ignoring(NoSuchElementException.class)
        .until(
            d -> {
              String text = d.findElement(by).getText();
              for (String p : parts) {
                if (!text.contains(p)) {
                  return null;
                }
              }
              return text;
            });
  }

  /**
   * Whether what {@code by} finds is enabled, asked again if the page redrew it between the find
   * and the question.
   */
  boolean enabled(By by) {
    return Boolean.parseBoolean(
        waiting()
            .ignoring(StaleElementReferenceException.class)
            .ignoring(NoSuchElementException.class)
            .until(d -> String.valueOf(d.findElement(by).isEnabled())));
  }

  /** Saves a screenshot as {@code target/screenshots/NAME.png}. */
  Path screenshot(String name) throws Exception {
    Files.createDirectories(SHOTS);
    Path to = SHOTS.resolve(name + ".png");
    Files.write(to, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
    return to;
  }

  /** Saves a screenshot of what {@code by} finds as {@code target/screenshots/NAME.png}. */
  Path screenshot(String name, By by) throws Exception {
    Files.createDirectories(SHOTS);
    Path to = SHOTS.resolve(name + ".png");
    WebElement e = driver.findElement(by);
    // Chromium crops an element's picture to the viewport: bring all of it in first.
    driver.executeScript("arguments[0].scrollIntoView(true)", e);
    Files.write(to, e.getScreenshotAs(OutputType.BYTES));
    return to;
  }

  @Override
  public void close() {
    driver.quit();
  }
}
