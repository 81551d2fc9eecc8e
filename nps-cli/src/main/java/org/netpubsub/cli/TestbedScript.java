package org.netpubsub.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the Python test bed ({@code testbed/nps-testbed}, docs/testbed.md) with the caller's stdio
 * and returns its exit code: the {@code nps testbed} commands are thin pass-throughs to it.
 */
final class TestbedScript {
  /**
   * Debian's interpreter, which imports Mininet; the script re-executes itself in testbed/.venv.
   */
  static final String PYTHON = "/usr/bin/python3";

  private TestbedScript() {}

  /** Runs {@code nps-testbed COMMAND ARGS [--json]}; 1 with a message when it cannot be started. */
  static int run(String command, List<String> args, boolean json, PrintWriter err) {
    Path script;
    try {
      script = script();
    } catch (IllegalStateException e) {
      CommandFailure.print(err, json, "io_error", e.getMessage(), null);
      return 1;
    }
    List<String> argv = new ArrayList<>(List.of(python(), script.toString(), command));
    argv.addAll(args);
    if (json) {
      argv.add("--json");
    }
    return exec(argv, err, json);
  }

  private static int exec(List<String> argv, PrintWriter err, boolean json) {
    Process process;
    try {
      process = new ProcessBuilder(argv).inheritIO().start();
    } catch (IOException e) {
      CommandFailure.print(
          err, json, "io_error", "cannot run " + argv.get(0) + ": " + e.getMessage(), null);
      return 1;
    }
    // Ctrl-C reaches both processes; SIGTERM only the JVM: pass it on, and in both cases let the
    // test bed finish tearing down before the JVM exits.
    Thread hook =
        new Thread(
            () -> {
              if (process.isAlive()) {
                process.destroy();
                waitQuietly(process);
              }
            });
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      int code = process.waitFor();
      Runtime.getRuntime().removeShutdownHook(hook);
      return code;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroy();
      return 1;
    }
  }

  private static void waitQuietly(Process process) {
    try {
      process.waitFor(120, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static String python() {
    return System.getProperty("nps.testbed.python", PYTHON);
  }

  /** The test bed script under the repository root. */
  static Path script() {
    Path home = home();
    Path script = home.resolve("testbed").resolve("nps-testbed");
    if (!Files.isRegularFile(script)) {
      throw new IllegalStateException(
          "no test bed at " + script + "; set NPS_HOME to the netpubsub checkout");
    }
    return script;
  }

  /**
   * The repository root: system property {@code nps.home}, else {@code NPS_HOME} (set by the {@code
   * ./nps} launcher), else three levels above the jar or class directory
   * (ROOT/nps-cli/target/nps.jar).
   */
  static Path home() {
    String property = System.getProperty("nps.home");
    if (property != null && !property.isBlank()) {
      return Path.of(property);
    }
    String env = System.getenv("NPS_HOME");
    if (env != null && !env.isBlank()) {
      return Path.of(env);
    }
    try {
      Path code =
          Path.of(TestbedScript.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return code.toAbsolutePath().getParent().getParent().getParent();
    } catch (URISyntaxException | NullPointerException e) {
      throw new IllegalStateException("cannot locate the netpubsub checkout; set NPS_HOME", e);
    }
  }
}
