package org.netpubsub.http;

import java.io.Closeable;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real PostgreSQL (Debian's {@code postgresql}) for tests: a private cluster in a temp directory
 * (initdb, trust authentication, user {@code nps}), served on a free loopback port by the {@code
 * postgres} system user, since PostgreSQL refuses to run as root. {@link #available} says whether
 * this machine can (the binaries are there and the test runs as root).
 */
public final class PostgresServer implements Closeable {
  private final Path bin;
  private final Path dir;
  private final int port;

  private PostgresServer(Path bin, Path dir, int port) {
    this.bin = bin;
    this.dir = dir;
    this.port = port;
  }

  /** The newest {@code /usr/lib/postgresql/N/bin}, if any. */
  public static Optional<Path> binaries() {
    Path base = Path.of("/usr/lib/postgresql");
    if (!Files.isDirectory(base)) {
      return Optional.empty();
    }
    try (Stream<Path> versions = Files.list(base)) {
      return versions
          .map(v -> v.resolve("bin"))
          .filter(b -> Files.isExecutable(b.resolve("pg_ctl")))
          .max(Comparator.comparing(p -> Integer.parseInt(p.getParent().getFileName().toString())));
    } catch (IOException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  public static boolean available() {
    return binaries().isPresent() && "root".equals(System.getProperty("user.name"));
  }

  public static PostgresServer start() throws IOException, InterruptedException {
    Path bin = binaries().orElseThrow(() -> new IOException("PostgreSQL is not installed"));
    Path dir = Files.createTempDirectory("nps-pg-");
    run(List.of("chown", "postgres", dir.toString()));
    Path data = dir.resolve("data");
    asPostgres(bin, "initdb", "-D", data.toString(), "-A", "trust", "-U", "nps", "--no-sync");
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    asPostgres(
        bin,
        "pg_ctl",
        "-D",
        data.toString(),
        "-w",
        "-l",
        dir.resolve("log").toString(),
        "-o",
        "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off",
        "start");
    return new PostgresServer(bin, dir, port);
  }

  private static PostgresServer shared; // guarded by PostgresServer.class
  private static int databases; // guarded by PostgresServer.class

  /**
   * One server for every test class of this JVM that asks (initdb and start cost seconds), stopped
   * when the JVM exits; each class takes a database of its own ({@link #newDatabase}) or the
   * default one.
   */
  public static synchronized PostgresServer shared() throws IOException, InterruptedException {
    if (shared == null) {
      PostgresServer s = start();
      Runtime.getRuntime().addShutdownHook(new Thread(s::close));
      shared = s;
    }
    return shared;
  }

  /** A new, empty database of this server; its URL as {@link #url} gives the default one. */
  public String newDatabase() throws java.sql.SQLException {
    String name;
    synchronized (PostgresServer.class) {
      name = "db" + (++databases);
    }
    java.util.Properties p = new java.util.Properties();
    p.setProperty("user", "nps");
    try (java.sql.Connection c =
            java.sql.DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + port + "/postgres", p);
        java.sql.Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE " + name);
    }
    return "postgresql://nps@127.0.0.1:" + port + "/" + name;
  }

  /** The URL the coordinator takes: the cluster's default database. */
  public String url() {
    return "postgresql://nps@127.0.0.1:" + port + "/postgres";
  }

  /** Stops the server (immediately: a test never needs a clean shutdown) and deletes its files. */
  @Override
  public void close() {
    try {
      asPostgres(bin, "pg_ctl", "-D", dir.resolve("data").toString(), "-m", "immediate", "stop");
    } catch (IOException | InterruptedException e) {
      // the directory goes anyway
    }
    try {
      run(List.of("rm", "-rf", dir.toString()));
    } catch (IOException | InterruptedException e) {
      // a temp directory left behind
    }
  }

  private static void asPostgres(Path bin, String tool, String... args)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("runuser", "-u", "postgres", "--"));
    cmd.add(bin.resolve(tool).toString());
    cmd.addAll(List.of(args));
    run(cmd);
  }

  private static void run(List<String> cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException(String.join(" ", cmd) + " failed: " + out);
    }
  }
}
