package org.netpubsub.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netpubsub.compiler.Compilation;
import org.netpubsub.compiler.CompileOptions;
import org.netpubsub.compiler.RuleCompiler;
import org.netpubsub.compiler.itch.ItchFeedGenerator;
import org.netpubsub.compiler.itch.ItchFileReader;
import org.netpubsub.compiler.itch.ItchMessageTypes;
import org.netpubsub.compiler.itch.Malformation;
import org.netpubsub.compiler.itch.MoldBatcher;
import org.netpubsub.compiler.itch.MoldUdp64;
import org.netpubsub.compiler.itch.OtherMessages;
import org.netpubsub.compiler.itch.PortSplitter;
import org.netpubsub.compiler.rules.Rule;
import org.netpubsub.compiler.spec.BuiltinSpecs;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.content.workload.ItchModel;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code nps itch replay}: an ITCH feed — a Nasdaq-format file or a synthetic one — batched into
 * MoldUDP64 packets and split by compiled filters into per-port subsets; prints what each port
 * gets, what was dropped or malformed, and the rate of the software path.
 */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Replays an ITCH 5.0 feed through filters compiled with the itch spec: messages are"
          + " batched into MoldUDP64 packets (--batch messages, --mtu bytes), and each packet is"
          + " split so that every port gets only the Add Orders its rules want, in packets that"
          + " keep the original sequence numbers. Prints per port messages, packets and bytes,"
          + " the messages dropped and malformed, and the messages per second of the software"
          + " path (decoding, tables, split). Progress goes to stderr once a second.",
      "FILE is in Nasdaq's format (2-byte length, message; .gz read as gzip); or --synthetic N."
    })
final class ItchReplayCommand implements Callable<Integer> {
  /** IPv6 (40) and UDP (8) headers: the payload a packet of --mtu bytes can carry. */
  static final int HEADERS = 48;

  @Mixin JsonOutput json;
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", arity = "0..1", paramLabel = "FILE", description = "An ITCH file.")
  Path file;

  @Option(
      names = "--synthetic",
      paramLabel = "N",
      description = "Replay N messages of the synthetic feed instead of a file.")
  Long synthetic;

  @Option(
      names = "--seed",
      paramLabel = "S",
      description = "Seed of the synthetic feed (default: ${DEFAULT-VALUE}).")
  long seed = 1;

  @Option(
      names = "--itch-model",
      paramLabel = "VARIANT",
      description = "Synthetic feed: events of the simple or rich model (default: rich).")
  String itchModel;

  @Option(
      names = "--rules",
      required = true,
      paramLabel = "FILE",
      description =
          "Rules 'FILTER : fwd(P);' over stock, price, shares, side, or JSON lines of 'nps"
              + " workload gen itch'.")
  String rules;

  @Option(
      names = "--batch",
      paramLabel = "N",
      description = "At most N messages per MoldUDP64 packet (default: ${DEFAULT-VALUE}).")
  int batch = 64;

  @Option(
      names = "--mtu",
      paramLabel = "BYTES",
      description = "Packet size limit; the payload is 48 bytes less (default: ${DEFAULT-VALUE}).")
  int mtu = 1500;

  @Option(
      names = "--others",
      paramLabel = "POLICY",
      description =
          "Messages other than Add Orders: drop (to no port) or all-ports (default: drop).")
  String others = "drop";

  @Option(
      names = "--session",
      paramLabel = "NAME",
      description = "MoldUDP64 session, up to 10 ASCII characters (default: ${DEFAULT-VALUE}).")
  String session = "NPS";

  @Option(
      names = "--write",
      description = "Also cut and copy every port's packets (the replication a switch does).")
  boolean write;

  @Mixin ProgressOptions progressOptions;

  @Override
  public Integer call() throws IOException {
    if ((file == null) == (synthetic == null)) {
      throw new IllegalArgumentException("give an ITCH FILE or --synthetic N (one of them)");
    }
    if (synthetic != null && synthetic < 0) {
      throw new IllegalArgumentException("--synthetic must be >= 0, got " + synthetic);
    }
    if (file != null && (itchModel != null || seed != 1)) {
      throw new IllegalArgumentException("--seed and --itch-model apply to --synthetic only");
    }
    if (batch < 1 || batch > MoldUdp64.MAX_COUNT) {
      throw new IllegalArgumentException(
          "--batch must be in 1.." + MoldUdp64.MAX_COUNT + ", got " + batch);
    }
    int payload = mtu - HEADERS;
    if (payload < MoldBatcher.MIN_PAYLOAD || payload > 65_535) {
      throw new IllegalArgumentException(
          "--mtu must be in "
              + (MoldBatcher.MIN_PAYLOAD + HEADERS)
              + ".."
              + (65_535 + HEADERS)
              + ", got "
              + mtu);
    }
    OtherMessages policy = OtherMessages.parse(others);
    byte[] sessionBytes = MoldUdp64.session(session);
    ItchModel.Variant variant =
        ItchModel.Variant.parse(itchModel == null ? ItchModel.Variant.RICH.label() : itchModel);

    MessageSpec itch = BuiltinSpecs.itch();
    List<Rule> ruleList = CompilerInputs.rules(itch, rules);
    long t0 = System.nanoTime();
    Compilation c = RuleCompiler.compile(itch, ruleList, CompileOptions.EXACT);
    PortSplitter splitter = PortSplitter.of(c.pipeline(), policy);
    double compileMs = (System.nanoTime() - t0) / 1e6;

    ProgressMeter progress =
        new ProgressMeter(
            spec.commandLine().getErr(), json.enabled(), "itch replay", progressOptions.millis());
    ItchReplayLoop loop =
        new ItchReplayLoop(splitter, sessionBytes, batch, payload, write, progress);
    Malformation fileEnd = null;
    if (file != null) {
      fileEnd = replayFile(loop);
    } else {
      ItchFeedGenerator feed = new ItchFeedGenerator(variant, seed, synthetic);
      byte[] m = new byte[ItchMessageTypes.MAX_LENGTH];
      while (feed.hasNext()) {
        loop.message(m, 0, feed.next(m, 0));
      }
    }
    loop.finish();
    print(splitter, loop, ruleList.size(), compileMs, fileEnd, policy);
    return 0;
  }

  /** Streams the file in 1 MiB chunks; a file that cannot be read to its end is bad input. */
  private Malformation replayFile(ItchReplayLoop loop) {
    ItchFileReader reader = new ItchFileReader();
    byte[] chunk = new byte[1 << 20];
    try (InputStream in = ItchFiles.open(file)) {
      for (int n = in.read(chunk); n >= 0; n = in.read(chunk)) {
        reader.feed(chunk, 0, n, loop::message);
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "cannot read ITCH file " + file + " after " + reader.bytes() + " bytes: " + e);
    }
    return reader.finish();
  }

  private void print(
      PortSplitter s,
      ItchReplayLoop loop,
      int ruleCount,
      double compileMs,
      Malformation fileEnd,
      OtherMessages policy) {
    int[] ports = s.ports();
    long delivered = 0;
    List<Map<String, Object>> perPort = new ArrayList<>();
    for (int i = 0; i < ports.length; i++) {
      delivered += s.portMessages(i);
      Map<String, Object> p = new LinkedHashMap<>();
      p.put("port", ports[i]);
      p.put("messages", s.portMessages(i));
      p.put("packets", s.portPackets(i));
      p.put("bytes", s.portBytes(i));
      perPort.add(p);
    }
    Map<String, Long> malformed = new LinkedHashMap<>();
    long malformedTotal = 0;
    for (Malformation m : Malformation.values()) {
      malformed.put(m.label(), s.malformed(m));
      malformedTotal += s.malformed(m);
    }
    double rate = s.messages() / Math.max(loop.softwareSeconds(), 1e-9);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", "itch-replay");
    m.put("source", file != null ? file.toString() : "synthetic");
    m.put("rules", ruleCount);
    m.put("compile_ms", Math.round(compileMs * 100) / 100.0);
    m.put("others", policy.label());
    m.put("packets_in", loop.packetsIn());
    m.put("messages_in", loop.messagesIn());
    m.put("messages", s.messages());
    m.put("add_orders", s.addOrders());
    m.put("other_messages", s.otherMessages());
    m.put("unknown_messages", s.unknownMessages());
    m.put("dropped_messages", s.droppedMessages());
    m.put("delivered_messages", delivered);
    m.put("malformed", malformed);
    m.put("file_end", fileEnd == null ? "complete" : fileEnd.label());
    m.put("ports", perPort);
    if (write) {
      m.put("written_bytes", loop.written());
    }
    m.put("software_seconds", round(loop.softwareSeconds()));
    m.put("messages_per_second", Math.round(rate));
    m.put("cpu_seconds", round(loop.cpuSeconds()));
    m.put("messages_per_cpu_second", Math.round(s.messages() / Math.max(loop.cpuSeconds(), 1e-9)));
    m.put("wall_seconds", round(loop.wallSeconds()));
    PrintWriter w = spec.commandLine().getOut();
    if (json.enabled()) {
      JsonOutput.printLine(w, m);
      return;
    }
    w.printf(
        "%,d messages in %,d packets: %,d Add Orders, %,d other, %,d unknown type;"
            + " %,d to no port, %,d malformed%s%n",
        s.messages(),
        loop.packetsIn(),
        s.addOrders(),
        s.otherMessages(),
        s.unknownMessages(),
        s.droppedMessages(),
        malformedTotal,
        fileEnd == null ? "" : "; the file ends inside a message (" + fileEnd.label() + ")");
    malformed.forEach(
        (k, v) -> {
          if (v > 0) {
            w.printf("  malformed %s: %,d%n", k, v);
          }
        });
    w.printf(
        "%d rules → %d ports, %,d deliveries; software path %,.0f messages/s (%.3f s),"
            + " compiled in %.0f ms%n",
        ruleCount, ports.length, delivered, rate, loop.softwareSeconds(), compileMs);
    w.printf("%8s %14s %12s %16s%n", "port", "messages", "packets", "bytes");
    for (Map<String, Object> p : perPort) {
      w.printf(
          "%8d %,14d %,12d %,16d%n",
          p.get("port"), p.get("messages"), p.get("packets"), p.get("bytes"));
    }
    w.flush();
  }

  private static double round(double seconds) {
    return Math.round(seconds * 1000) / 1000.0;
  }
}
