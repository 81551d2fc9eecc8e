package org.netpubsub.edge.dds;

import java.io.Closeable;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The child process that is this edge's DDS participant ({@code nps_dds_bridge.py}, on the {@code
 * cyclonedds} Python package; docs/overlay-dds.md says why a child and not the JVM): started with
 * the interpreter {@link #python} finds; it ends when its stdin closes. One thread reads its frames
 * and hands them to the {@link Listener}; its stderr (Cyclone's own messages) goes to the log at
 * FINE.
 */
public final class DdsBridge implements Closeable {
  private static final Logger LOG = Logger.getLogger(DdsBridge.class.getName());

  /** What the child reports (on its reader thread). */
  public interface Listener {
    void endpoint(DdsFrames.Endpoint e);

    void sample(DdsFrames.Sample s);

    /** A sample or endpoint the child or this side dropped, by reason (a counter name). */
    void dropped(String reason);

    /**
     * A sample from another site the child dropped, by reason (a counter name), with its overlay
     * key ({@code dds/<topic>/<type>/<hash>}, as the sample frame named it).
     */
    default void droppedSample(String reason, String key) {
      dropped(reason);
    }
  }

  private final Process process;
  private final OutputStream in;
  private final Path script;
  private volatile boolean closed;

  private DdsBridge(Process process, Path script) {
    this.process = process;
    this.in = process.getOutputStream();
    this.script = script;
  }

  /**
   * Joins {@code domain}; throws {@link IOException} with the child's one-line reason when it
   * cannot (a bad interface, a domain id out of range, no {@code cyclonedds} package).
   */
  public static DdsBridge start(DdsDomain domain, String name, Listener listener)
      throws IOException {
    Path script = Files.createTempFile("nps-dds-bridge-", ".py");
    try (InputStream s = DdsBridge.class.getResourceAsStream("nps_dds_bridge.py")) {
      Files.write(script, s.readAllBytes());
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(python());
    cmd.addAll(List.of(script.toString(), "--domain", Integer.toString(domain.domain())));
    if (domain.networkInterface() != null) {
      cmd.addAll(List.of("--interface", domain.networkInterface()));
    }
    if (domain.userData() != null) {
      cmd.addAll(List.of("--user-data", domain.userData()));
    }
    Process p;
    try {
      p = new ProcessBuilder(cmd).start();
    } catch (IOException e) {
      Files.deleteIfExists(script);
      throw new IOException("cannot start the DDS bridge (" + cmd.get(0) + "): " + e.getMessage());
    }
    DdsBridge b = new DdsBridge(p, script);
    CompletableFuture<String> ready = new CompletableFuture<>();
    Thread.ofPlatform()
        .daemon()
        .name("nps-dds-err-" + name)
        .start(() -> b.logStderr(p.getErrorStream()));
    Thread.ofPlatform()
        .daemon()
        .name("nps-dds-recv-" + name)
        .start(() -> b.receive(new DataInputStream(p.getInputStream()), listener, ready));
    try {
      String failure = ready.get(60, TimeUnit.SECONDS);
      if (failure != null) {
        b.close();
        throw new IOException(failure);
      }
    } catch (InterruptedException | ExecutionException | TimeoutException e) {
      b.close();
      throw new IOException("the DDS bridge did not start within 60 s");
    }
    return b;
  }

  /**
   * {@code NPS_DDS_PYTHON}; else the test bed's venv under {@code NPS_HOME} (set by {@code ./nps}),
   * where scripts/bootstrap installs {@code cyclonedds}; else {@code python3}.
   */
  private static String python() {
    String python = System.getenv("NPS_DDS_PYTHON");
    if (python != null && !python.isBlank()) {
      return python;
    }
    String home = System.getenv("NPS_HOME");
    Path venv = home == null ? null : Path.of(home, "testbed", ".venv", "bin", "python");
    return venv != null && Files.isExecutable(venv) ? venv.toString() : "python3";
  }

  /** Writes a sample from another site into this domain. */
  public void write(DdsFrames.Sample s) throws IOException {
    byte[] f = DdsFrames.sample(s);
    synchronized (in) {
      in.write(f);
      in.flush();
    }
  }

  private void receive(DataInputStream from, Listener l, CompletableFuture<String> ready) {
    try {
      while (true) {
        int n = from.readInt();
        if (n < 1 || n > DdsFrames.MAX_FRAME) {
          throw new IOException("bad frame length " + n);
        }
        byte kind = from.readByte();
        byte[] body = from.readNBytes(n - 1);
        if (body.length < n - 1) {
          throw new EOFException();
        }
        switch (kind) {
          case DdsFrames.READY -> ready.complete(null);
          case DdsFrames.FAILED -> ready.complete(new String(body, StandardCharsets.UTF_8));
          case DdsFrames.ENDPOINT -> l.endpoint(DdsFrames.endpoint(body));
          case DdsFrames.SAMPLE -> l.sample(DdsFrames.sample(body));
          case DdsFrames.DROPPED -> dropped(l, new String(body, StandardCharsets.UTF_8));
          default -> l.dropped("dds_bad_frame");
        }
      }
    } catch (IOException | RuntimeException e) {
      if (!ready.isDone()) {
        ready.complete("the DDS bridge ended before joining the domain (exit " + exit() + ")");
      } else if (!closed) {
        LOG.log(Level.SEVERE, "the DDS bridge ended (exit " + exit() + ")", e);
      }
    }
  }

  /** {@code malformed: dds/…} and {@code unknown_type: dds/…} name a sample's key; others not. */
  static void dropped(Listener l, String text) {
    int colon = text.indexOf(':');
    String reason = reason(text);
    if (colon >= 0 && text.startsWith(": dds/", colon)) {
      l.droppedSample(reason, text.substring(colon + 2));
    } else {
      l.dropped(reason);
    }
  }

  /**
   * A counter name from the child's reason ({@code unknown_type: readings: …} → dds_unknown_type).
   */
  private static String reason(String text) {
    int colon = text.indexOf(':');
    String r = colon < 0 ? text : text.substring(0, colon);
    if (colon >= 0) {
      LOG.fine("DDS bridge dropped: " + text);
    }
    return "dds_" + (r.matches("[a-z_]{1,32}") ? r : "other");
  }

  private String exit() {
    try {
      return process.waitFor(2, TimeUnit.SECONDS) ? Integer.toString(process.exitValue()) : "?";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "?";
    }
  }

  private void logStderr(InputStream err) {
    try (var r =
        new java.io.BufferedReader(new java.io.InputStreamReader(err, StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        LOG.fine("DDS bridge: " + line);
      }
    } catch (IOException e) {
      // the child is gone
    }
  }

  @Override
  public void close() {
    closed = true;
    try {
      in.close(); // the child exits at the end of its stdin
      if (!process.waitFor(2, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (IOException e) {
      process.destroyForcibly();
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    try {
      Files.deleteIfExists(script);
    } catch (IOException e) {
      // a temporary file
    }
  }
}
