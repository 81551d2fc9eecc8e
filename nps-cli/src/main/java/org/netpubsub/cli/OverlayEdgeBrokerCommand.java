package org.netpubsub.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.curator.framework.CuratorFramework;
import org.netpubsub.content.Durations;
import org.netpubsub.edge.overlay.EdgeBroker;
import org.netpubsub.edge.overlay.EdgeBrokerConfig;
import org.netpubsub.edge.overlay.OwnKeyOnly;
import org.netpubsub.edge.overlay.ZnodeData;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code nps overlay edge-broker}. */
@Command(
    name = "edge-broker",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Runs an edge broker in front of an unmodified local MQTT broker (configured as for nps"
          + " edge-agent, docs/edge.md) or a DDS domain (Cyclone DDS, through a Python child"
          + " process on the cyclonedds package; NPS_DDS_PYTHON names its interpreter): registers"
          + " the site's publishers and subscribers in ZooKeeper, sends global topics to their"
          + " routing broker, publishes what arrives."
    })
final class OverlayEdgeBrokerCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Mixin ServerOptions server;

  @Spec CommandSpec spec;

  @Mixin OverlayBrokerOptions broker;

  @Option(
      names = "--local",
      required = true,
      paramLabel = "mqtt://HOST:PORT|dds:DOMAIN[?interface=IF][&user_data=TEXT]",
      description =
          "The local MQTT broker, or the DDS domain (its DataWriters and DataReaders are the"
              + " site's publishers and subscribers; docs/overlay-dds.md, DDS sites).")
  String local;

  @Option(names = "--site", required = true, paramLabel = "NAME", description = "This site.")
  String site;

  @Option(
      names = "--name",
      paramLabel = "NAME",
      description = "This edge broker's name (default: the site's).")
  String name;

  @Option(
      names = "--listen",
      required = true,
      paramLabel = "ADDR:PORT",
      description = "Where datagrams arrive: a specific address (others are told it).")
  String listen;

  @Option(
      names = "--deadline",
      paramLabel = "FILTER=DURATION",
      description =
          "Topics with a deadline (repeatable): published here, they also take the direct"
              + " edge-to-edge path; received here, a silence longer than the deadline is reported"
              + " (a deadline-missed line and counter). A bare number is milliseconds"
              + " (deprecated).")
  List<String> deadlines = List.of();

  @Option(
      names = "--max-direct-topics",
      defaultValue = "16",
      paramLabel = "N",
      description =
          "Admission control: at most N topics take the direct path (default: ${DEFAULT-VALUE}).")
  int maxDirect;

  @Option(
      names = "--durable",
      defaultValue = "0",
      paramLabel = "N",
      description =
          "Durability: send the last N reliable (QoS >= 1) messages of a topic to each site that"
              + " subscribes later (default: ${DEFAULT-VALUE}; at most 1024).")
  int durable;

  @Option(
      names = "--buffer",
      defaultValue = "1024",
      paramLabel = "N",
      description =
          "Reliable messages kept per topic for NACK repair (default: ${DEFAULT-VALUE}; at most"
              + " 4096): at R messages/s a stream survives a routing broker's failover of up to"
              + " N / R seconds.")
  int buffer;

  @Mixin WanEmulationOptions wanEmulation;

  @Mixin DatagramKeyOptions datagramKey;

  @Option(
      names = "--own-key-only",
      description =
          "--datagram-key holds this edge's own key only (nps overlay keys edge), not the"
              + " deployment's: routing brokers re-seal what they relay to it, and edges holding"
              + " the deployment's keys seal their direct datagrams for it (docs/security.md,"
              + " \"Per-edge keys\").")
  boolean ownKeyOnly;

  @Option(
      names = "--pair-keys",
      paramLabel = "FILE",
      description =
          "With --own-key-only: the keys this edge shares with other own-key edges for their"
              + " direct datagrams (nps overlay keys edge --peer).")
  java.nio.file.Path pairKeys;

  @Option(
      names = "--revoked-edges",
      paramLabel = "FILE",
      description =
          "Edges whose messages are refused whatever their key, one name a line; reread every"
              + " second when it changes. With --zookeeper-auth the overlay's revoked-edges znode"
              + " (nps overlay keys revoke) is refused too (docs/security-revocation.md).")
  java.nio.file.Path revokedEdges;

  @Option(names = "--exit-after-start", hidden = true)
  boolean exitAfterStart;

  @Override
  public Integer call() throws Exception {
    Map<String, Long> d = new LinkedHashMap<>();
    for (String s : deadlines) {
      int eq = s.lastIndexOf('=');
      if (eq < 1) {
        throw new IllegalArgumentException("--deadline needs FILTER=DURATION, not '" + s + "'");
      }
      long ms = Durations.parse(s.substring(eq + 1), "--deadline", "ms").toMillis();
      if (ms < 1) {
        throw new IllegalArgumentException("--deadline must be at least 1ms in '" + s + "'");
      }
      d.put(s.substring(0, eq), ms);
    }
    EdgeBrokerConfig c =
        EdgeBrokerConfig.of(
                name != null ? name : site,
                site,
                local.startsWith("dds:")
                    ? java.net.URI.create(local)
                    : ControllerUrl.parse(local, "--local", "mqtt"),
                ControllerCommand.hostPort(listen, "--listen"))
            .withDeadlines(d, maxDirect)
            .withBuffer(buffer)
            .withDurable(durable)
            .withEmulation(wanEmulation.emulation());
    var given = datagramKey.auth();
    if (pairKeys != null && !ownKeyOnly) {
      throw new IllegalArgumentException("--pair-keys applies with --own-key-only");
    }
    if (ownKeyOnly && (given == null || !given.secure())) {
      throw new IllegalArgumentException(
          "--own-key-only needs --datagram-key FILE: the edge's own key file, never the"
              + " deployment's keys from ZooKeeper");
    }
    if (ownKeyOnly) {
      c = c.withOwnKey(pairKeys == null ? OwnKeyOnly.alone() : PairKeysFile.read(pairKeys));
    }
    if (revokedEdges != null) {
      RevokedEdges.read(revokedEdges); // a bad file: one line and exit 2, before anything starts
    }
    var interval = broker.interval();
    CuratorFramework client = broker.connect();
    EdgeBroker e;
    OverlayKeys keys = null;
    OverlayRevocations revoked = null;
    PrintWriter events = spec.commandLine().getOut();
    try {
      keys = OverlayKeys.of(given, broker.zookeeperAuth != null, client, false, c.name());
      revoked = OverlayRevocations.start(revokedEdges, broker.zookeeperAuth != null, client);
      e =
          EdgeBroker.start(
              c.withAuth(keys.auth()),
              client,
              miss -> {
                if (json.enabled()) {
                  Map<String, Object> o = new LinkedHashMap<>();
                  o.put("kind", "deadline-missed");
                  o.put("topic", miss.topic());
                  o.put("deadline_ms", miss.deadlineMillis());
                  o.put("silent_ms", miss.silentMillis());
                  JsonOutput.printLine(events, o);
                } else {
                  events.println(
                      "deadline missed: '"
                          + miss.topic()
                          + "' silent "
                          + miss.silentMillis()
                          + " ms (deadline "
                          + miss.deadlineMillis()
                          + " ms)");
                  events.flush();
                }
              });
    } catch (Exception x) {
      OverlayRevocations.abandon(revoked);
      OverlayKeys.abandon(keys);
      client.close();
      throw CommandFailure.io(x);
    }
    revoked.attach(e::revokeEdges);
    var counters = revoked.counters(keys.counters(e::counters));
    PrintWriter out = spec.commandLine().getOut();
    if (json.enabled()) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("kind", "edge-broker");
      o.put("name", e.name());
      o.put("site", site);
      o.put("listen", ZnodeData.address(e.address()));
      o.put("local", local);
      o.put("zookeeper", broker.zookeeper);
      JsonOutput.printLine(out, o);
    } else {
      out.println(
          "edge broker " + e.name() + " (site " + site + ") on " + ZnodeData.address(e.address()));
      out.flush();
    }
    OverlayRun.untilStopped(
        broker.withMetrics(revoked.around(keys.around(e)), "edge-broker", client, counters, null),
        exitAfterStart,
        interval,
        () -> OverlayRun.printStats(out, json.enabled(), "edge-broker", e.name(), counters),
        "nps-edge-broker-stop");
    return 0;
  }
}
