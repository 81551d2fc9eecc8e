package org.netpubsub.edge.broker;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.netpubsub.client.Poll;

/**
 * A real Mosquitto (Debian {@code /usr/sbin/mosquitto}) as a child process on a free loopback port,
 * with its own config file in {@code dir}: the lines docs/edge.md asks for (log to $SYS topics).
 */
public final class Mosquitto implements Closeable {
  public static final String BINARY = "/usr/sbin/mosquitto";

  /** The configuration an edge broker needs besides its listener (docs/edge.md). */
  public static final List<String> EDGE_CONFIG =
      List.of(
          "allow_anonymous true",
          "persistence false",
          "log_dest topic",
          "log_type subscribe",
          "log_type unsubscribe",
          "log_type notice");

  private final Process process;
  private final int port;

  private Mosquitto(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  public static Mosquitto start(Path dir) throws IOException {
    IOException last = null;
    for (int attempt = 0; attempt < 5; attempt++) {
      int port = freePort();
      Path conf = dir.resolve("mosquitto-" + port + ".conf");
      StringBuilder b = new StringBuilder("listener " + port + " 127.0.0.1\n");
      EDGE_CONFIG.forEach(l -> b.append(l).append('\n'));
      Files.writeString(conf, b);
      Process p =
          new ProcessBuilder(BINARY, "-c", conf.toString())
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("mosquitto-" + port + ".log").toFile())
              .start();
      Mosquitto m = new Mosquitto(p, port);
      try {
        Poll.until(
            "mosquitto on port " + port, Duration.ofSeconds(10), () -> m.accepts() || !p.isAlive());
      } catch (AssertionError e) {
        m.close();
        throw e;
      }
      if (p.isAlive()) {
        return m;
      }
      last = new IOException("mosquitto exited on port " + port + " (taken?)");
    }
    throw last;
  }

  private boolean accepts() {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  public int port() {
    return port;
  }

  /** {@code mqtt://127.0.0.1:PORT}, what the agent takes. */
  public URI uri() {
    return URI.create("mqtt://127.0.0.1:" + port);
  }

  /** {@code tcp://127.0.0.1:PORT}, what Paho takes. */
  public String pahoUri() {
    return "tcp://127.0.0.1:" + port;
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
