package org.netpubsub.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.curator.framework.CuratorFramework;
import org.netpubsub.content.Durations;
import org.netpubsub.edge.overlay.KeyRotation;
import org.netpubsub.edge.overlay.ZkAuth;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nps overlay keys rotate | edge}: the overlay's datagram keys in ZooKeeper
 * (docs/security.md); {@code revoke | unrevoke} are {@link OverlayRevokeCommand}'s.
 */
@Command(
    name = "keys",
    mixinStandardHelpOptions = true,
    description = "The overlay's datagram keys, kept in ZooKeeper under its credentials.",
    subcommands = {
      OverlayKeysCommand.Rotate.class,
      OverlayKeysCommand.Edge.class,
      OverlayRevokeCommand.Revoke.class,
      OverlayRevokeCommand.Unrevoke.class
    })
final class OverlayKeysCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(
        spec.commandLine(), "name a command: rotate, edge, revoke, unrevoke");
  }

  @Command(
      name = "edge",
      mixinStandardHelpOptions = true,
      sortOptions = false,
      description = {
        "Prints one edge's own datagram key file, derived from the deployment's key file: an edge"
            + " broker given it (--datagram-key) signs as that edge only, and routing brokers"
            + " holding the deployment's keys verify it (docs/security.md, \"Per-edge keys\")."
      })
  static final class Edge implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(
        names = "--datagram-key",
        required = true,
        paramLabel = "FILE",
        description = "The deployment's key file (the routing brokers').")
    Path datagramKey;

    @Option(names = "--edge", required = true, paramLabel = "NAME", description = "The edge.")
    String edge;

    @Option(
        names = "--peer",
        paramLabel = "NAME",
        description =
            "Prints instead the pair-key file (edge broker --pair-keys) of --edge with these"
                + " other own-key edges (repeatable): the keys each pair shares for its direct"
                + " datagrams.")
    java.util.List<String> peers = java.util.List.of();

    @Option(
        names = "--senders",
        paramLabel = "NAME",
        description =
            "Prints instead the sender-keys file (edge-agent --sender-keys) of agent --edge: the own"
                + " keys of these agents it receives from (repeatable; docs/security-datagrams.md,"
                + " \"Per-agent keys (SNAPS)\").")
    java.util.List<String> senders = java.util.List.of();

    @Override
    public Integer call() throws Exception {
      org.netpubsub.edge.overlay.ZnodePaths.checkName(edge);
      var keys = org.netpubsub.edge.link.DatagramAuth.readKeyFile(datagramKey);
      PrintWriter out = spec.commandLine().getOut();
      if (!peers.isEmpty() && !senders.isEmpty()) {
        throw new IllegalArgumentException("--peer and --senders exclude each other");
      }
      if (!senders.isEmpty()) {
        printLines(
            out,
            "# sender keys of agent "
                + edge
                + " (a sender and its own keys a line, the first signs)",
            senders,
            p -> org.netpubsub.edge.link.EdgeKeys.derive(keys, p));
        return 0;
      }
      if (!peers.isEmpty()) {
        printLines(
            out,
            "# pair keys of edge " + edge + " (a peer and its keys a line, the first signs)",
            peers,
            p -> org.netpubsub.edge.link.EdgeKeys.pair(keys, edge, p));
        return 0;
      }
      out.println("# datagram keys of edge " + edge + " (one a line, the first signs)");
      for (byte[] k : org.netpubsub.edge.link.EdgeKeys.derive(keys, edge)) {
        out.println(java.util.HexFormat.of().formatHex(k));
      }
      out.flush();
      return 0;
    }
  }

  /** {@code header}, then a line per name (sorted): the name and its keys in hex. */
  private static void printLines(
      PrintWriter out,
      String header,
      java.util.List<String> names,
      java.util.function.Function<String, java.util.List<byte[]>> keysOf) {
    out.println(header);
    for (String p : new java.util.TreeSet<>(names)) {
      org.netpubsub.edge.overlay.ZnodePaths.checkName(p);
      StringBuilder line = new StringBuilder(p);
      for (byte[] k : keysOf.apply(p)) {
        line.append(' ').append(java.util.HexFormat.of().formatHex(k));
      }
      out.println(line);
    }
    out.flush();
  }

  @Command(
      name = "rotate",
      mixinStandardHelpOptions = true,
      sortOptions = false,
      description = {
        "Writes the overlay's first datagram key, or rotates it: the new key is accepted by every"
            + " broker first, then signs; the old one is still accepted for the grace period."
            + " Prints key ids, never keys."
      })
  static final class Rotate implements Callable<Integer> {
    @Mixin JsonOutput json;

    @Spec CommandSpec spec;

    @Option(
        names = "--zookeeper",
        required = true,
        paramLabel = "HOST:PORT[,...]",
        description = "The overlay's ZooKeeper server or ensemble.")
    String zookeeper;

    @Option(
        names = "--zookeeper-auth",
        required = true,
        paramLabel = "FILE",
        description =
            "The overlay's ZooKeeper credentials, one line user:password: the key znode is"
                + " readable with them only.")
    Path zookeeperAuth;

    @Mixin ZooKeeperTimeoutOption zookeeperTimeout;

    @Option(
        names = "--grace",
        defaultValue = "60s",
        paramLabel = "DURATION",
        description =
            "How long each broker still accepts the old key after it sees the new one sign"
                + " (default: ${DEFAULT-VALUE}).")
    String grace;

    @Option(
        names = "--settle",
        defaultValue = "30s",
        paramLabel = "DURATION",
        description =
            "How long to wait for every registered broker to accept the new key before it signs"
                + " (default: ${DEFAULT-VALUE}); past it nothing is promoted and the command fails.")
    String settle;

    @Override
    public Integer call() throws Exception {
      Duration g = Durations.parse(grace, "--grace");
      if (g.isNegative()) {
        throw new IllegalArgumentException("--grace must be at least 0");
      }
      Duration s = Durations.positive(settle, "--settle");
      Duration wait = zookeeperTimeout.duration();
      ZkAuth auth = ZkAuthFile.read(zookeeperAuth);
      long id;
      try (CuratorFramework client =
          OverlayRun.zookeeper(zookeeper, Duration.ofSeconds(10), wait, auth)) {
        id = KeyRotation.rotate(client, g, s);
      } catch (java.io.IOException | org.apache.zookeeper.KeeperException e) {
        throw CommandFailure.io(e);
      }
      PrintWriter out = spec.commandLine().getOut();
      if (json.enabled()) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("kind", "datagram-key");
        o.put("signing_key_id", id);
        o.put("grace_ms", g.toMillis());
        JsonOutput.printLine(out, o);
      } else {
        out.println(
            "datagram key "
                + id
                + " signs"
                + (id > 1 ? "; key " + (id - 1) + " is accepted for " + grace : ""));
        out.flush();
      }
      return 0;
    }
  }
}
