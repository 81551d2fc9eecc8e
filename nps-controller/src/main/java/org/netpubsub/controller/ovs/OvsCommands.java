package org.netpubsub.controller.ovs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Runs the Open vSwitch command-line tools (ovs-vsctl, ovs-ofctl, ovs-appctl, ovs-ctl). */
public final class OvsCommands {
  /** Where Debian's openvswitch-switch puts the control script. */
  public static final String OVS_CTL = "/usr/share/openvswitch/scripts/ovs-ctl";

  static final String VSWITCHD_PIDFILE = "/run/openvswitch/ovs-vswitchd.pid";

  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private OvsCommands() {}

  /** The outcome of one command. */
  public record Result(int exitCode, String stdout, String stderr) {
    public boolean ok() {
      return exitCode == 0;
    }
  }

  /** Runs a command; exit code 127 if it cannot be started. */
  public static Result run(List<String> cmd) {
    Process p;
    try {
      p = new ProcessBuilder(cmd).start();
    } catch (IOException e) {
      return new Result(127, "", cmd.get(0) + ": " + e.getMessage());
    }
    try {
      p.getOutputStream().close();
      CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
      String out = read(p.getInputStream());
      if (!p.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return new Result(124, out, "timed out after " + TIMEOUT + ": " + String.join(" ", cmd));
      }
      return new Result(p.exitValue(), out, err.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS));
    } catch (IOException | ExecutionException | TimeoutException e) {
      return new Result(1, "", e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Result(130, "", "interrupted");
    }
  }

  /** Runs a command that must succeed; IllegalStateException with its output otherwise. */
  public static String check(List<String> cmd) {
    Result r = run(cmd);
    if (!r.ok()) {
      throw new IllegalStateException(
          "command failed ("
              + r.exitCode()
              + "): "
              + String.join(" ", cmd)
              + "\n"
              + r.stdout()
              + r.stderr());
    }
    return r.stdout();
  }

  /**
   * Starts Open vSwitch if {@code ovs-vsctl show} fails; throws a clear IllegalStateException if it
   * still cannot be used.
   */
  public static void ensureRunning() {
    if (run(List.of("ovs-vsctl", "--timeout=5", "show")).ok()) {
      return;
    }
    Result start = run(List.of(OVS_CTL, "start", "--system-id=random"));
    Result again = run(List.of("ovs-vsctl", "--timeout=5", "show"));
    if (!again.ok()) {
      throw new IllegalStateException(
          "Open vSwitch is not running and `ovs-ctl start` did not start it (install"
              + " openvswitch-switch and run as root, or pass -Dnps.skipOvs=true):\n"
              + start.stdout()
              + start.stderr()
              + again.stderr());
    }
  }

  /** The version line of ovs-vswitchd, e.g. {@code ovs-vswitchd (Open vSwitch) 3.1.0}. */
  public static String version() {
    Result r = run(List.of("ovs-vswitchd", "--version"));
    return r.ok() ? r.stdout().lines().findFirst().orElse("?").trim() : "unknown";
  }

  /**
   * Restarts ovs-vswitchd and keeps the database: every bridge, port and controller setting stays,
   * every flow and group is lost (they live in the daemon). {@code ovs-ctl restart} is not used: it
   * saves and restores the flows, which would hide what a controller must restore.
   */
  public static void restartVswitchd() {
    java.util.Optional<ProcessHandle> old = daemon();
    check(List.of("ovs-appctl", "-t", "ovs-vswitchd", "exit"));
    // `exit` returns before the daemon is gone; started too early, ovs-ctl finds it still
    // running, starts nothing, and then there is no daemon at all.
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (old.map(ProcessHandle::isAlive).orElse(false)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("ovs-vswitchd did not exit within 30 s");
      }
      try {
        Thread.sleep(20); // polling a process we do not own; there is nothing to wait on
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while ovs-vswitchd exits", e);
      }
    }
    check(List.of(OVS_CTL, "--no-ovsdb-server", "start"));
  }

  /** The running ovs-vswitchd, from its pid file. */
  private static java.util.Optional<ProcessHandle> daemon() {
    try {
      String pid = java.nio.file.Files.readString(java.nio.file.Path.of(VSWITCHD_PIDFILE)).trim();
      return ProcessHandle.of(Long.parseLong(pid));
    } catch (IOException | NumberFormatException e) {
      return java.util.Optional.empty();
    }
  }

  private static String read(InputStream in) {
    try (in) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}
