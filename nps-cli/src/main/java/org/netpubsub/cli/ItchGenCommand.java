package org.netpubsub.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netpubsub.compiler.itch.ItchFeedGenerator;
import org.netpubsub.compiler.itch.ItchMessageTypes;
import org.netpubsub.content.workload.ItchModel;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nps itch gen}: a seeded synthetic ITCH 5.0 feed in Nasdaq's historical file format, each
 * message preceded by its 2-byte big-endian length.
 */
@Command(
    name = "gen",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Writes a seeded synthetic ITCH 5.0 feed in Nasdaq's file format (2-byte length, message):"
          + " Add Orders drawn from the ITCH workload model's events, among system events,"
          + " deletes, replaces, cancels, executions and trades. A .gz name writes gzip.",
      "The same seed, model and count give the same bytes."
    })
final class ItchGenCommand implements Callable<Integer> {
  @Mixin JsonOutput json;
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--messages", required = true, paramLabel = "N", description = "Messages.")
  long messages;

  @Option(names = "--out", required = true, paramLabel = "FILE", description = "The feed file.")
  Path out;

  @Option(names = "--seed", paramLabel = "S", description = "Seed (default: ${DEFAULT-VALUE}).")
  long seed = 1;

  @Option(
      names = "--itch-model",
      paramLabel = "VARIANT",
      description = "Events of the simple or rich model (default: ${DEFAULT-VALUE}).")
  String itchModel = "rich";

  @Mixin ProgressOptions progressOptions;

  @Override
  public Integer call() throws IOException {
    if (messages < 0) {
      throw new IllegalArgumentException("--messages must be >= 0, got " + messages);
    }
    ItchModel.Variant variant = ItchModel.Variant.parse(itchModel);
    ItchFeedGenerator feed = new ItchFeedGenerator(variant, seed, messages);
    ProgressMeter progress =
        new ProgressMeter(
            spec.commandLine().getErr(), json.enabled(), "itch gen", progressOptions.millis());
    byte[] m = new byte[2 + ItchMessageTypes.MAX_LENGTH];
    long bytes = 0;
    try (OutputStream o = ItchFiles.create(out)) {
      while (feed.hasNext()) {
        int len = feed.next(m, 2);
        m[0] = (byte) (len >>> 8);
        m[1] = (byte) len;
        o.write(m, 0, 2 + len);
        bytes += 2 + len;
        if ((feed.produced() & 0xfff) == 0) {
          progress.update(feed.produced());
        }
      }
    }
    PrintWriter w = spec.commandLine().getOut();
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("kind", "itch-feed");
    s.put("file", out.toString());
    s.put("model", variant.label());
    s.put("seed", seed);
    s.put("messages", feed.produced());
    s.put("add_orders", feed.addOrders());
    s.put("bytes", bytes);
    if (json.enabled()) {
      JsonOutput.printLine(w, s);
    } else {
      w.printf(
          "%,d messages (%,d Add Orders), %,d bytes → %s%n",
          feed.produced(), feed.addOrders(), bytes, out);
      w.flush();
    }
    return 0;
  }
}
