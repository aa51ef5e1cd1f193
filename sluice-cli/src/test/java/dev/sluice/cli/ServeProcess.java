/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A real {@code sluice --json serve} process on a free loopback port (or the address given), with
 * the address and token it printed, an HTTP client for its API, and the {@code sluice run}
 * processes a test starts beside it. {@link #close} stops the runs with SIGTERM (which {@code
 * sluice run} forwards to its command's group, so no command outlives the test) and the server.
 */
final class ServeProcess implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();

  final SluiceProcesses sluice;
  final Process server;
  final URI url;
  final String token;
  final HttpClient http = HttpClient.newHttpClient();
  private final List<Process> runs = new ArrayList<>();

  private ServeProcess(SluiceProcesses sluice, Process server, URI url, String token) {
    this.sluice = sluice;
    this.server = server;
    this.url = url;
    this.token = token;
  }

  /** Starts {@code sluice --json serve --listen LISTEN [MORE...]} and waits for its first line. */
  static ServeProcess start(Path home, String listen, String... more) throws Exception {
    SluiceProcesses sluice = new SluiceProcesses(home).env("USER", "operator");
    List<String> args = new ArrayList<>(List.of("--json", "serve", "--listen", listen));
    args.addAll(List.of(more));
    Process p = sluice.start(args.toArray(String[]::new));
    BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String line =
        CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return out.readLine();
                  } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                  }
                })
            .get(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    if (line == null) {
      throw new AssertionError(
          "sluice serve exited: " + new String(p.getErrorStream().readAllBytes()));
    }
    JsonNode first = JSON.readTree(line);
    String token = Files.readString(Path.of(first.get("tokenFile").asText())).strip();
    return new ServeProcess(sluice, p, URI.create(first.get("url").asText()), token);
  }

  /**
   * The first server-sent event's data on {@code lines} (an event stream's lines) that {@code
   * wanted} accepts; fails if the stream ends or the timeout passes first.
   */
  static JsonNode awaitData(Iterator<String> lines, Predicate<JsonNode> wanted) throws Exception {
    return CompletableFuture.supplyAsync(
            () -> {
              while (lines.hasNext()) {
                String line = lines.next();
                if (line.startsWith("data: ")) {
                  try {
                    JsonNode data = JSON.readTree(line.substring(6));
                    if (wanted.test(data)) {
                      return data;
                    }
                  } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                  }
                }
              }
              throw new AssertionError("the stream ended");
            })
        .get(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }

  /** The first {@code limiters} event's only pool that {@code wanted} accepts. */
  static JsonNode awaitPool(Iterator<String> lines, Predicate<JsonNode> wanted) throws Exception {
    return awaitData(lines, d -> wanted.test(d.get("pools").get(0))).get("pools").get(0);
  }

  /** The address that logs a browser in. */
  String loginUrl() {
    return url + "?token=" + token;
  }

  /** Starts {@code sluice run --pool POOL --label LABEL -- sh -c SCRIPT}, to stop at close. */
  Process run(String pool, String label, String script) throws Exception {
    Process p = sluice.start("run", "--pool", pool, "--label", label, "--", "sh", "-c", script);
    runs.add(p);
    return p;
  }

  /** A request to {@code path} on the server. */
  HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(url.resolve(path));
  }

  /** {@code GET path} as JSON; fails unless 200. */
  JsonNode get(String path) throws Exception {
    HttpResponse<String> r = http.send(request(path).build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new AssertionError("GET " + path + ": " + r.statusCode() + " " + r.body());
    }
    return JSON.readTree(r.body());
  }

  /** {@code POST path} with a JSON body and the given extra headers (name, value, ...). */
  HttpResponse<String> post(String path, String body, String... headers) throws Exception {
    HttpRequest.Builder b =
        request(path)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** {@code POST path} with the bearer token. */
  HttpResponse<String> postWithToken(String path, String body) throws Exception {
    return post(path, body, "Authorization", "Bearer " + token);
  }

  /** The origin of a page on another site, which a change must be refused from. */
  static final String FOREIGN_ORIGIN = "http://evil.example";

  /** {@code POST path} with the bearer token, sent from a page of {@link #FOREIGN_ORIGIN}. */
  HttpResponse<String> postFromForeignOrigin(String path, String body) throws Exception {
    return post(path, body, "Authorization", "Bearer " + token, "Origin", FOREIGN_ORIGIN);
  }

  /** The pool named {@code name} in {@code /api/status}. */
  JsonNode pool(String name) throws Exception {
    for (JsonNode p : get("/api/status").get("pools")) {
      if (p.get("name").asText().equals(name)) {
        return p;
      }
    }
    throw new AssertionError("no pool " + name);
  }

  @Override
  public void close() throws Exception {
    for (Process p : runs) {
      p.destroy();
    }
    for (Process p : runs) {
      p.waitFor(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }
    server.destroy();
    server.waitFor(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    sluice.close();
  }
}
