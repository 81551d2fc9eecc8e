package org.netpubsub.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine;

/**
 * Runs {@code nps} in-process, as the CLI tests do, capturing what it prints. The output of
 * successive runs accumulates until {@link #clear}; one instance per test (JUnit makes a new test
 * instance per test method).
 */
final class CliRun {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  /** {@code nps args...} as the command line parses and executes it; its exit code. */
  int run(String... args) {
    return commandLine().execute(args);
  }

  /** {@link #run} on another thread, for commands that run until stopped; output read meanwhile. */
  CompletableFuture<Integer> background(String... args) {
    return CompletableFuture.supplyAsync(() -> run(args));
  }

  /** As the launcher runs it: {@code --config} files expanded first ({@link Nps#run}). */
  int runAsLauncher(String... args) {
    return Nps.run(commandLine(), args);
  }

  private CommandLine commandLine() {
    CommandLine cl = Nps.commandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    return cl;
  }

  /** Standard output so far. */
  String out() {
    return out.toString();
  }

  /** Standard error so far. */
  String err() {
    return err.toString();
  }

  /** Standard output so far, parsed as one JSON document. */
  JsonNode json() throws IOException {
    return JSON.readTree(out());
  }

  /** Standard output so far, one JSON document per non-blank line. */
  List<JsonNode> lines() throws IOException {
    List<JsonNode> out = new ArrayList<>();
    for (String line : out().split("\n")) {
      if (!line.isBlank()) {
        out.add(JSON.readTree(line));
      }
    }
    return out;
  }

  /** Forgets the output so far. */
  void clear() {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
  }
}
