/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code java} code block of the README compiles and runs as shown. A block's import lines
 * stay imports, its one-line records become members, and the rest is the body of a method; the test
 * supplies only what the README leaves to the reader (the service it calls, the payment provider),
 * then runs the block in a JVM of its own in an empty working directory, so the files it makes land
 * there and nowhere else.
 */
class ReadmeBlocksTest {
  private static final Path README = Path.of("..", "README.md");

  /**
   * The tests' server, for the PostgreSQL blocks: the README leaves the connection pool's
   * configuration to the reader. Each run renames the blocks' schema to one of its own ({@link
   * #renameSchema}) and drops it afterwards.
   */
  private static final String POSTGRES =
      """
      static final com.zaxxer.hikari.HikariConfig hikariConfig = new com.zaxxer.hikari.HikariConfig();
      static {
        hikariConfig.setJdbcUrl(System.getenv().getOrDefault(
            "SLUICE_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres"));
      }
      """;

  private static final String DROP_SCHEMA =
      """
      try (java.sql.Connection c = java.sql.DriverManager.getConnection(hikariConfig.getJdbcUrl());
          java.sql.Statement st = c.createStatement()) {
        st.execute("DROP SCHEMA IF EXISTS " + "sluice" + " CASCADE");
      }
      System.exit(0);
      """;

  /** What each block calls that the README leaves to the reader, in the README's order. */
  private static final List<Harness> HARNESSES =
      List.of(
          new Harness(
              "Limiter quick start",
              """
              static String callService(Object... args) {
                System.out.println("service called");
                return "ok";
              }
              """,
              "",
              "service called"),
          new Harness(
              "Retries: managed execution",
              """
              static String charge(String operationId, int attempt, long token)
                  throws java.io.IOException {
                if (attempt < 3) {
                  System.out.println("attempt " + attempt + " failed");
                  throw new java.io.IOException("connection reset");
                }
                System.out.println("attempt " + attempt + " of " + operationId + " charged");
                return "receipt " + operationId;
              }
              """,
              "",
              "charged"),
          new Harness("Shared cooldown and circuit breaker", "", "", "circuit CLOSED"),
          new Harness(
              "HTTP calls",
              """
              static int requests;
              static final com.sun.net.httpserver.HttpServer server = serve();
              static final java.net.URI api =
                  java.net.URI.create("http://127.0.0.1:" + server.getAddress().getPort());
              static com.sun.net.httpserver.HttpServer serve() {
                try {
                  var s = com.sun.net.httpserver.HttpServer.create(
                      new java.net.InetSocketAddress("127.0.0.1", 0), 0);
                  s.createContext("/items", exchange -> {
                    // The first request is throttled; the limiter waits and sends it again.
                    boolean first = requests++ == 0;
                    byte[] body = (first ? "busy" : "[\\"a\\",\\"b\\"]").getBytes();
                    if (first) exchange.getResponseHeaders().add("Retry-After", "1");
                    exchange.sendResponseHeaders(first ? 503 : 200, body.length);
                    try (var out = exchange.getResponseBody()) { out.write(body); }
                  });
                  s.start();
                  return s;
                } catch (java.io.IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              }
              """,
              """
              System.out.println("requests: " + requests);
              server.stop(0);
              """,
              "200 [\"a\",\"b\"]"),
          new Harness("Metrics", "", "", "sluice_limiter_active_weight{pool="),
          new Harness(
              "Tracing",
              """
              static final java.util.List<io.opentelemetry.sdk.trace.data.SpanData> exported =
                  new java.util.concurrent.CopyOnWriteArrayList<>();
              static final io.opentelemetry.sdk.trace.export.SpanExporter exporter =
                  new io.opentelemetry.sdk.trace.export.SpanExporter() {
                    public io.opentelemetry.sdk.common.CompletableResultCode export(
                        java.util.Collection<io.opentelemetry.sdk.trace.data.SpanData> spans) {
                      exported.addAll(spans);
                      return io.opentelemetry.sdk.common.CompletableResultCode.ofSuccess();
                    }
                    public io.opentelemetry.sdk.common.CompletableResultCode flush() {
                      return io.opentelemetry.sdk.common.CompletableResultCode.ofSuccess();
                    }
                    public io.opentelemetry.sdk.common.CompletableResultCode shutdown() {
                      return io.opentelemetry.sdk.common.CompletableResultCode.ofSuccess();
                    }
                  };
              """,
              """
              java.util.Map<String, String> names = new java.util.HashMap<>();
              exported.forEach(s -> names.put(s.getSpanId(), s.getName()));
              exported.forEach(s -> System.out.println(
                  s.getName() + " <- " + names.getOrDefault(s.getParentSpanId(), "none")));
              """,
              "sluice.workflow.step <- sluice.workflow.submit"),
          new Harness("Draining a pool for maintenance", "", "", "admitted again"),
          new Harness(
              "Workflow quick start",
              """
              static final Payments payments = new Payments();
              static final Shipping shipping = new Shipping();
              static final class Payments {
                Payment charge(Order o, String key) {
                  System.out.println("charging " + o.cents() + " cents as " + key);
                  return new Payment("p-" + o.id(), o.cents());
                }
              }
              static final class Shipping {
                Receipt ship(Order o, Payment p) {
                  System.out.println("shipping " + o.id());
                  return new Receipt(o.id(), p.reference(), "parcel-1");
                }
              }
              """,
              "",
              "shipping 42"),
          new Harness(
              "Durable stores",
              """
              record Delivery(String id, String manager) {}
              static final Delivery event = new Delivery("delivery-1", "dana");
              static final String expenseId = "e-1";
              static final Mail mail = new Mail();
              static final Bank bank = new Bank();
              static final WorkflowRuntime runtime =
                  WorkflowRuntime.builder()
                      .store(dev.sluice.workflow.sqlite.SqliteWorkflowStore.directory(
                          java.nio.file.Path.of(".tmp", "expenses")))
                      .build();
              static final class Mail {
                String askManager(Expense e) { return "asked"; }
              }
              static final class Bank {
                String pay(Expense e) { return "paid " + e.cents(); }
              }
              """,
              """
              System.out.println("approval: " + runtime.store(
                  DurableStore.define("approval", Approval.class, () -> new Approval("pending", null)),
                  expenseId).get().state());
              runtime.close();
              """,
              "approval: Approval[state=approved, by=dana]"),
          new Harness(
              "PostgreSQL store",
              POSTGRES
                  + """
                  static final String order = "order-42";
                  static final Payments payments = new Payments();
                  static final class Payments {
                    String charge(String order) {
                      System.out.println("charged " + order + " under a PostgreSQL pool");
                      return "ok";
                    }
                  }
                  """,
              DROP_SCHEMA,
              "charged order-42 under a PostgreSQL pool"),
          new Harness(
              "Workflows on PostgreSQL",
              POSTGRES
                  + """
                  static final javax.sql.DataSource dataSource =
                      new com.zaxxer.hikari.HikariDataSource(hikariConfig);
                  record Order(String id, long cents) {}
                  record Payment(String reference, long cents) {}
                  record Receipt(String order, String payment, String parcel) {}
                  static final Order order = new Order("42", 1999);
                  static final Workflow<Order, Receipt> checkout =
                      Workflow.define("checkout", Order.class, Receipt.class, (ctx, o) -> {
                        Payment p = ctx.step("charge", Payment.class,
                            () -> new Payment("p-" + o.id(), o.cents()));
                        return ctx.step("ship", Receipt.class, () -> {
                          System.out.println("shipping " + o.id() + " from PostgreSQL");
                          return new Receipt(o.id(), p.reference(), "parcel-1");
                        });
                      });
                  """,
              DROP_SCHEMA,
              "shipping 42 from PostgreSQL"));

  @TempDir Path work;

  /** A {@code java} block of the README and the heading it stands under. */
  record Block(String heading, String text) {}

  /** The README's {@code java} blocks, in order. */
  static List<Block> javaBlocks() throws IOException {
    List<Block> blocks = new ArrayList<>();
    String heading = "";
    StringBuilder block = null;
    boolean otherFence = false;
    for (String line : Files.readAllLines(README)) {
      if (block == null && line.startsWith("```") && !line.equals("```java")) {
        otherFence = !otherFence; // a shell block's comments are not headings
      } else if (otherFence) {
        continue;
      } else if (block == null && line.startsWith("#")) {
        heading = line.replaceFirst("^#+\\s*", "");
      } else if (block == null && line.equals("```java")) {
        block = new StringBuilder();
      } else if (block != null && line.equals("```")) {
        blocks.add(new Block(heading, block.toString()));
        block = null;
      } else if (block != null) {
        block.append(line).append('\n');
      }
    }
    return blocks;
  }

  /**
   * The index of the harness titled {@code title}, whose block is the one README block under a
   * heading that starts with that title: a block added elsewhere moves no harness.
   */
  private static int harness(String title) {
    for (int i = 0; i < HARNESSES.size(); i++) {
      if (HARNESSES.get(i).title().equals(title)) {
        return i;
      }
    }
    throw new IllegalArgumentException("no harness titled " + title);
  }

  private static String blockUnder(String title) throws IOException {
    List<String> matching =
        javaBlocks().stream()
            .filter(b -> b.heading().startsWith(title))
            .map(Block::text)
            .collect(Collectors.toList());
    assertThat(matching).as("java blocks under a heading '%s…'", title).hasSize(1);
    return matching.get(0);
  }

  @Test
  void everyJavaBlockHasAHarness() throws IOException {
    List<Block> blocks = javaBlocks();
    assertThat(blocks).hasSameSizeAs(HARNESSES);
    for (Block b : blocks) {
      assertThat(HARNESSES)
          .as("the harness of the block under '%s'", b.heading())
          .filteredOn(h -> b.heading().startsWith(h.title()))
          .hasSize(1);
    }
  }

  @Test
  void theLimiterQuickStartCompilesAndRuns() throws Exception {
    String out = compileAndRun("Limiter quick start");
    assertThat(out).contains(HARNESSES.get(harness("Limiter quick start")).expected());
    // Run again on the same pool: a pool keeps its state, and the block must still finish.
    assertThat(run("ReadmeBlock" + harness("Limiter quick start")))
        .contains(HARNESSES.get(harness("Limiter quick start")).expected());
  }

  @Test
  void theManagedExecutionBlockCompilesAndRetriesTwice() throws Exception {
    String out = compileAndRun("Retries: managed execution");
    assertThat(out.lines().filter(l -> l.equals("attempt 1 failed"))).hasSize(2);
    assertThat(out.lines().filter(l -> l.equals("attempt 2 failed"))).hasSize(2);
    assertThat(out.lines().filter(l -> l.startsWith("attempt 3 of ") && l.endsWith(" charged")))
        .hasSize(2);
    assertThat(out).containsPattern("(?m)^receipt [0-9a-f-]{36}$");
  }

  @Test
  void theRecoveryBlockCompilesAndOpensAPoolWithItsBreaker() throws Exception {
    assertThat(compileAndRun("Shared cooldown and circuit breaker"))
        .contains(HARNESSES.get(harness("Shared cooldown and circuit breaker")).expected());
  }

  @Test
  void theHttpBlockCompilesAndRetriesTheThrottledRequest() throws Exception {
    String out = compileAndRun("HTTP calls");
    assertThat(out)
        .contains(HARNESSES.get(harness("HTTP calls")).expected(), "first bytes: [\"a\"");
    assertThat(out).contains("requests: 3");
  }

  @Test
  void theMetricsBlockScrapesTheHeldWeight() throws Exception {
    String out = compileAndRun("Metrics");
    assertThat(out.lines().filter(l -> l.startsWith("sluice_limiter_active_weight{pool=")))
        .singleElement()
        .satisfies(l -> assertThat(l).endsWith(" 3.0"));
  }

  @Test
  void theTracingBlockExportsTheSpanTree() throws Exception {
    assertThat(compileAndRun("Tracing").lines())
        .contains(
            "sluice.schedule <- request",
            "sluice.workflow.submit <- request",
            HARNESSES.get(harness("Tracing")).expected());
  }

  @Test
  void theDrainBlockRefusesNewWorkAndResumes() throws Exception {
    String out = compileAndRun("Draining a pool for maintenance");
    assertThat(out.lines())
        .containsSubsequence("refused while draining", "settled: safe to migrate", "admitted again")
        .doesNotContain("admitted during a drain?");
  }

  @Test
  void theWorkflowQuickStartCompilesAndRuns() throws Exception {
    assertThat(compileAndRun("Workflow quick start"))
        .contains("charging 1999 cents as order-42/charge", "shipping 42");
  }

  @Test
  void theDurableStoreBlockCompilesAndRuns() throws Exception {
    assertThat(compileAndRun("Durable stores"))
        .contains(HARNESSES.get(harness("Durable stores")).expected());
  }

  @Test
  void thePostgresStoreBlockCompilesAndRunsOnTheServer() throws Exception {
    assertThat(compileAndRun("PostgreSQL store"))
        .contains(HARNESSES.get(harness("PostgreSQL store")).expected());
  }

  @Test
  void thePostgresWorkflowBlockCompilesAndRunsOnTheServer() throws Exception {
    assertThat(compileAndRun("Workflows on PostgreSQL"))
        .contains(HARNESSES.get(harness("Workflows on PostgreSQL")).expected());
  }

  /**
   * The blocks' schema ({@code "sluice"}) renamed to one of this run's, so that runs never share
   * tables; the block's harness drops it at the end.
   */
  private static String renameSchema(String source) {
    return source.replace(
        "\"sluice\"", "\"readme_" + UUID.randomUUID().toString().replace("-", "") + "\"");
  }

  private String compileAndRun(String title) throws Exception {
    int index = harness(title);
    String name = "ReadmeBlock" + index;
    Path source = work.resolve(name + ".java");
    Files.writeString(source, renameSchema(wrap(name, blockUnder(title), HARNESSES.get(index))));
    Path javac = Path.of(System.getProperty("java.home"), "bin", "javac");
    Process p =
        new ProcessBuilder(
                javac.toString(),
                "-classpath",
                classpath(),
                "-d",
                work.toString(),
                source.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue())
        .as("the README block '%s' compiles:%n%s", HARNESSES.get(index).title(), out)
        .isZero();
    return run(name);
  }

  private String run(String mainClass) throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p =
        new ProcessBuilder(
                java.toString(), "-cp", work + File.pathSeparator + classpath(), mainClass)
            .directory(work.toFile())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as(out).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    return out;
  }

  /** The block as a class: imports on top, records as members, the rest as a method's body. */
  static String wrap(String name, String block, Harness harness) {
    List<String> imports = new ArrayList<>();
    List<String> records = new ArrayList<>();
    List<String> body = new ArrayList<>();
    for (String line : block.split("\n")) {
      if (line.startsWith("import ")) {
        imports.add(line);
      } else if (line.startsWith("record ")) {
        records.add(line);
      } else {
        body.add(line);
      }
    }
    return String.join("\n", imports)
        + "\n\npublic final class "
        + name
        + " {\n"
        + String.join("\n", records)
        + "\n"
        + harness.members()
        + "\n  public static void main(String[] args) throws Exception {\n"
        + "    snippet();\n"
        + harness.after()
        + "  }\n\n  static void snippet() throws Exception {\n"
        + String.join("\n", body)
        + "\n  }\n}\n";
  }

  /** Every entry of the test's class and module paths, for the block's compiler and JVM. */
  private static String classpath() {
    return Stream.of(System.getProperty("jdk.module.path"), System.getProperty("java.class.path"))
        .filter(p -> p != null && !p.isEmpty())
        .collect(Collectors.joining(File.pathSeparator));
  }

  /**
   * What the test adds to one block.
   *
   * @param title the README section, for messages
   * @param members fields, methods and types the block calls but the README leaves out
   * @param after statements run after the block, to show what it did
   * @param expected a line of output that shows the block ran
   */
  record Harness(String title, String members, String after, String expected) {}
}
