package org.netpubsub.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.curator.framework.CuratorFramework;
import org.netpubsub.edge.overlay.AssignmentStrategy;
import org.netpubsub.edge.overlay.RoutingBroker;
import org.netpubsub.edge.overlay.ZnodeData;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code nps overlay routing-broker}. */
@Command(
    name = "routing-broker",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Runs a routing broker: registers in ZooKeeper, contends for leadership (the leader assigns"
          + " topics to the least loaded routing broker), and relays datagrams of global topics"
          + " from publishing edges to subscribed edges of other sites."
    })
final class OverlayRoutingBrokerCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Mixin ServerOptions server;

  @Spec CommandSpec spec;

  @Mixin OverlayBrokerOptions broker;

  @Option(
      names = "--listen",
      required = true,
      paramLabel = "ADDR:PORT",
      description = "Where edges send datagrams: a specific address (edges are told it).")
  String listen;

  @Option(
      names = "--name",
      paramLabel = "NAME",
      description = "This broker's name (default: rb-PORT).")
  String name;

  @Option(
      names = "--strategy",
      defaultValue = "topic-count",
      paramLabel = "STRATEGY",
      description =
          "Assignment when leading: topic-count or message-rate (default: ${DEFAULT-VALUE}).")
  String strategy;

  @Mixin WanEmulationOptions wanEmulation;

  @Mixin DatagramKeyOptions datagramKey;

  @Option(
      names = "--revoked-edges",
      paramLabel = "FILE",
      description =
          "Edges whose datagrams are refused whatever their key, one name a line; reread every"
              + " second when it changes. With --zookeeper-auth the overlay's revoked-edges znode"
              + " (nps overlay keys revoke) is refused too (docs/security-revocation.md).")
  java.nio.file.Path revokedEdges;

  @Option(names = "--exit-after-start", hidden = true)
  boolean exitAfterStart;

  @Override
  public Integer call() throws Exception {
    var at = ControllerCommand.hostPort(listen, "--listen");
    AssignmentStrategy s = AssignmentStrategy.named(strategy);
    var interval = broker.interval();
    String n = name != null ? name : null;
    var emulation = wanEmulation.emulation();
    var given = datagramKey.auth();
    if (revokedEdges != null) {
      RevokedEdges.read(revokedEdges); // a bad file: one line and exit 2, before anything starts
    }
    CuratorFramework client = broker.connect();
    RoutingBroker rb;
    OverlayKeys keys = null;
    OverlayRevocations revoked = null;
    try {
      if (n == null) {
        // the port is known only once bound: name after the requested one, or the bound one
        n = "rb-" + (at.getPort() != 0 ? at.getPort() : ProcessHandle.current().pid());
      }
      keys = OverlayKeys.of(given, broker.zookeeperAuth != null, client, true, n);
      revoked = OverlayRevocations.start(revokedEdges, broker.zookeeperAuth != null, client);
      rb = RoutingBroker.start(n, client, at, s, emulation, keys.auth());
    } catch (IllegalArgumentException e) {
      OverlayRevocations.abandon(revoked);
      OverlayKeys.abandon(keys);
      client.close();
      throw e;
    } catch (Exception e) {
      OverlayRevocations.abandon(revoked);
      OverlayKeys.abandon(keys);
      client.close();
      throw CommandFailure.io(e);
    }
    revoked.attach(rb::revokeEdges);
    var counters = revoked.counters(keys.counters(rb::counters));
    PrintWriter out = spec.commandLine().getOut();
    if (json.enabled()) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("kind", "routing-broker");
      o.put("name", rb.name());
      o.put("listen", ZnodeData.address(rb.address()));
      o.put("zookeeper", broker.zookeeper);
      o.put("strategy", s.name());
      JsonOutput.printLine(out, o);
    } else {
      out.println(
          "routing broker "
              + rb.name()
              + " on "
              + ZnodeData.address(rb.address())
              + " ("
              + s.name()
              + ")");
      out.flush();
    }
    OverlayRun.untilStopped(
        broker.withMetrics(
            revoked.around(keys.around(rb)), "routing-broker", client, counters, rb::isLeader),
        exitAfterStart,
        interval,
        () -> OverlayRun.printStats(out, json.enabled(), "routing-broker", rb.name(), counters),
        "nps-routing-broker-stop");
    return 0;
  }
}
