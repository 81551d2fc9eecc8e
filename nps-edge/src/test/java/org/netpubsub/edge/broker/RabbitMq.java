package org.netpubsub.edge.broker;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import java.io.Closeable;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.netpubsub.client.Poll;

/**
 * A real, private RabbitMQ node (Debian {@code rabbitmq-server}) as a child process: its own node
 * name, ports, epmd, database, logs, plugins ({@code rabbitmq_event_exchange}) and config in a temp
 * directory owned by the {@code rabbitmq} user, which the server runs as (hence root only). Ready
 * when an AMQP connection succeeds; {@link #close} stops the node and its epmd and removes the
 * directory.
 */
public final class RabbitMq implements Closeable {
  public static final Path SERVER = Path.of("/usr/lib/rabbitmq/bin/rabbitmq-server");
  private static final Path CTL = Path.of("/usr/lib/rabbitmq/bin/rabbitmqctl");
  private static final AtomicInteger NODES = new AtomicInteger();

  private final Path dir;
  private final String node;
  private final int port;
  private final Map<String, String> env;
  private final List<Process> processes = new ArrayList<>();

  private RabbitMq(Path dir, String node, int port, Map<String, String> env) {
    this.dir = dir;
    this.node = node;
    this.port = port;
    this.env = env;
  }

  /** Skips the calling test where the node cannot run (not root, or no rabbitmq-server). */
  public static void assumeAvailable() {
    Assumptions.assumeTrue(Files.isExecutable(SERVER), "rabbitmq-server is not installed");
    Assumptions.assumeTrue(
        "root".equals(System.getProperty("user.name")), "a private RabbitMQ node needs root");
  }

  /**
   * How long a node may take to boot. A boot is CPU work in the node's Erlang VM (7.6-8.4 s of CPU
   * per node, measured: VM start and prelaunch, then the boot-step scan, which loads every module
   * of every loaded application), so on this 2-core machine its wall time follows the load: one
   * node alone took 50-115 s at load 18-31, so 60 s failed healthy boots. A node that dies is seen
   * at once (its process exits), so this bounds only a boot that hangs.
   */
  static final Duration BOOT = Duration.ofSeconds(180);

  /** Starts a node and waits (polling, up to {@link #BOOT}) until it accepts AMQP connections. */
  public static RabbitMq start() throws IOException {
    assumeAvailable();
    Path dir = Files.createTempDirectory("nps-rabbitmq-");
    String node = "nps" + ProcessHandle.current().pid() + "x" + NODES.incrementAndGet();
    int port = freePort();
    int dist = freePort();
    int epmd = freePort();
    Files.createDirectories(dir.resolve("mnesia"));
    Files.createDirectories(dir.resolve("log"));
    Files.createDirectories(dir.resolve("plugins"));
    Files.writeString(dir.resolve("enabled_plugins"), "[rabbitmq_event_exchange].\n");
    Files.writeString(
        dir.resolve("rabbitmq.conf"),
        "listeners.tcp.1 = 127.0.0.1:" + port + "\nloopback_users = none\n");
    Map<String, String> env =
        Map.ofEntries(
            Map.entry("HOME", dir.toString()), // the Erlang cookie: a fresh one per node
            Map.entry("RABBITMQ_NODENAME", node + "@localhost"),
            Map.entry("RABBITMQ_NODE_IP_ADDRESS", "127.0.0.1"),
            Map.entry("RABBITMQ_NODE_PORT", Integer.toString(port)),
            Map.entry("RABBITMQ_DIST_PORT", Integer.toString(dist)),
            Map.entry("ERL_EPMD_PORT", Integer.toString(epmd)),
            Map.entry("RABBITMQ_MNESIA_BASE", dir.resolve("mnesia").toString()),
            Map.entry("RABBITMQ_LOG_BASE", dir.resolve("log").toString()),
            Map.entry("RABBITMQ_ENABLED_PLUGINS_FILE", dir.resolve("enabled_plugins").toString()),
            Map.entry("RABBITMQ_CONFIG_FILE", dir.resolve("rabbitmq.conf").toString()),
            Map.entry("RABBITMQ_FEATURE_FLAGS_FILE", dir.resolve("feature_flags").toString()),
            Map.entry("RABBITMQ_PLUGINS_EXPAND_DIR", dir.resolve("plugins").toString()),
            Map.entry("RABBITMQ_PID_FILE", dir.resolve("pid").toString()));
    run("chown", "-R", "rabbitmq:rabbitmq", dir.toString());
    RabbitMq r = new RabbitMq(dir, node, port, env);
    try {
      // our own epmd in the foreground, so that closing the node ends it too
      r.spawn("epmd.log", "/usr/bin/epmd", "-port", Integer.toString(epmd));
      Process server = r.spawn("server.log", "runuser", "-u", "rabbitmq", "--", SERVER.toString());
      Poll.until(
          "RabbitMQ node " + node + " on port " + port,
          BOOT,
          () -> r.accepts() || !server.isAlive());
      if (!server.isAlive()) {
        throw new IOException(
            "rabbitmq-server exited: " + Files.readString(dir.resolve("server.log")));
      }
      return r;
    } catch (IOException | RuntimeException | AssertionError e) {
      r.close();
      throw e;
    }
  }

  /**
   * {@code n} nodes started at the same time (a boot mostly waits on its own Erlang VM), in order;
   * if one fails, the others are closed and the first failure is thrown.
   */
  public static List<RabbitMq> startAll(int n) throws IOException {
    long t0 = System.nanoTime();
    List<Future<RabbitMq>> starting = new ArrayList<>();
    try (ExecutorService pool = Executors.newFixedThreadPool(n)) {
      for (int i = 0; i < n; i++) {
        starting.add(pool.submit(RabbitMq::start));
      }
    }
    List<RabbitMq> started = new ArrayList<>();
    Throwable failed = null;
    for (Future<RabbitMq> f : starting) {
      try {
        started.add(f.get());
      } catch (ExecutionException e) {
        failed = failed == null ? e.getCause() : failed;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failed = failed == null ? e : failed;
      }
    }
    if (failed == null) {
      // the boot time against BOOT, for a run that fails at another load
      System.out.printf(
          "rabbitmq: %d nodes accepting AMQP after %.1f s (load %s)%n",
          n, (System.nanoTime() - t0) / 1e9, loadAverage());
      return started;
    }
    closeAll(started);
    switch (failed) {
      case IOException e -> throw e;
      case RuntimeException e -> throw e;
      case Error e -> throw e;
      default -> throw new IOException(failed);
    }
  }

  /** Closes the nodes at the same time: each graceful stop waits on its own VM. */
  public static void closeAll(List<RabbitMq> nodes) {
    try (ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, nodes.size()))) {
      nodes.forEach(r -> pool.execute(r::close));
    }
  }

  private Process spawn(String log, String... command) throws IOException {
    ProcessBuilder b =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve(log).toFile());
    b.environment().putAll(env);
    Process p = b.start();
    processes.add(p);
    return p;
  }

  private boolean accepts() {
    try (Connection c = factory().newConnection()) {
      return c.isOpen();
    } catch (IOException | java.util.concurrent.TimeoutException e) {
      return false;
    }
  }

  /** Adds a virtual host (guest may use it) with rabbitmqctl. */
  public void addVhost(String vhost) throws IOException {
    String n = node + "@localhost";
    ctl("add_vhost", "-n", n, vhost);
    ctl("set_permissions", "-n", n, "-p", vhost, "guest", ".*", ".*", ".*");
  }

  private void ctl(String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of("runuser", "-u", "rabbitmq", "--"));
    command.add(CTL.toString());
    command.addAll(List.of(args));
    ProcessBuilder b =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
    b.environment().putAll(env);
    Process p = b.start();
    String out = new String(p.getInputStream().readAllBytes());
    try {
      if (p.waitFor() != 0) {
        throw new IOException("rabbitmqctl " + String.join(" ", args) + ": " + out);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  public int port() {
    return port;
  }

  /** {@code amqp://127.0.0.1:PORT}, what the agent takes (the default virtual host). */
  public URI uri() {
    return URI.create("amqp://127.0.0.1:" + port);
  }

  /** A client factory for the default virtual host, guest/guest. */
  public ConnectionFactory factory() {
    return factory("/");
  }

  public ConnectionFactory factory(String vhost) {
    ConnectionFactory f = new ConnectionFactory();
    f.setHost("127.0.0.1");
    f.setPort(port);
    f.setVirtualHost(vhost);
    f.setAutomaticRecoveryEnabled(false);
    f.setConnectionTimeout(2000);
    return f;
  }

  @Override
  public void close() {
    // the server (runuser → script → beam) first, gracefully, then anything left, then epmd
    for (Process p : processes.reversed()) {
      List<ProcessHandle> tree = Stream.concat(Stream.of(p.toHandle()), p.descendants()).toList();
      tree.reversed().forEach(ProcessHandle::destroy);
      for (ProcessHandle h : tree) {
        try {
          h.onExit().get(15, TimeUnit.SECONDS);
        } catch (Exception e) {
          h.destroyForcibly();
        }
      }
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException e) {
      // a leftover temp directory is harmless
    }
  }

  private static void run(String... command) throws IOException {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes());
      if (p.waitFor() != 0) {
        throw new IOException(String.join(" ", command) + ": " + out);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
