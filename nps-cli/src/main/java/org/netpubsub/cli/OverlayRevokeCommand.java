package org.netpubsub.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.apache.curator.framework.CuratorFramework;
import org.netpubsub.edge.overlay.ZkAuth;
import org.netpubsub.edge.overlay.ZkRevokedEdges;
import org.netpubsub.edge.overlay.ZnodePaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code nps overlay keys revoke | unrevoke}: the overlay's revoked-edges znode, which every
 * routing broker and edge broker with the overlay's ZooKeeper credentials watches and refuses
 * (docs/security-revocation.md, "Revocation in the overlay"). Names only: no key is read or
 * printed.
 */
final class OverlayRevokeCommand {
  private OverlayRevokeCommand() {}

  /** The ZooKeeper options both commands share. */
  static final class Target {
    @Option(
        names = "--zookeeper",
        required = true,
        paramLabel = "HOST:PORT[,...]",
        description = "The overlay's ZooKeeper server or ensemble.")
    String zookeeper;

    @Option(
        names = "--zookeeper-auth",
        paramLabel = "FILE",
        description =
            "The overlay's ZooKeeper credentials, one line user:password (required: the znode is"
                + " written and read with them only).")
    Path zookeeperAuth;

    @Mixin ZooKeeperTimeoutOption zookeeperTimeout;

    /** A connected client with the credentials, or one line saying why not. */
    CuratorFramework connect(String command) throws InterruptedException {
      if (zookeeperAuth == null) {
        throw new IllegalArgumentException(
            "nps overlay keys "
                + command
                + " needs --zookeeper-auth FILE: "
                + ZnodePaths.REVOKED_EDGES
                + " is written with the overlay's ZooKeeper credentials only (without them,"
                + " revoke in each broker's --revoked-edges file)");
      }
      Duration wait = zookeeperTimeout.duration();
      ZkAuth auth = ZkAuthFile.read(zookeeperAuth);
      return OverlayRun.zookeeper(zookeeper, Duration.ofSeconds(10), wait, auth);
    }
  }

  @Command(
      name = "revoke",
      mixinStandardHelpOptions = true,
      sortOptions = false,
      description = {
        "Revokes overlay edges: every routing broker and edge broker started with --zookeeper-auth"
            + " refuses their messages from its next read of the znode (a watch: well within a"
            + " second), beside its --revoked-edges file. Rotate the keys afterwards if the edge"
            + " held the deployment's (nps overlay keys rotate)."
      })
  static final class Revoke implements Callable<Integer> {
    @Mixin JsonOutput json;

    @Spec CommandSpec spec;

    @Mixin Target target;

    @Option(names = "--list", description = "Prints the revoked edges, changes nothing.")
    boolean list;

    @Parameters(paramLabel = "NAME", arity = "0..*", description = "The edges to revoke.")
    List<String> names = List.of();

    @Override
    public Integer call() throws Exception {
      if (list && !names.isEmpty()) {
        throw new IllegalArgumentException("--list takes no NAME");
      }
      if (!list && names.isEmpty()) {
        throw new IllegalArgumentException("NAME: name an edge to revoke (or --list)");
      }
      Set<String> given = checked(names);
      Set<String> now;
      try (CuratorFramework client = target.connect("revoke")) {
        now =
            list
                ? ZkRevokedEdges.read(client)
                : ZkRevokedEdges.update(client, old -> union(old, given));
      } catch (java.io.IOException | org.apache.zookeeper.KeeperException e) {
        throw CommandFailure.io(e);
      }
      print(spec, json, now, list ? "" : "revoked " + String.join(", ", given));
      return 0;
    }
  }

  @Command(
      name = "unrevoke",
      mixinStandardHelpOptions = true,
      sortOptions = false,
      description = {
        "Lifts revocations written by nps overlay keys revoke: the brokers accept those edges'"
            + " messages again (unless their --revoked-edges file names them)."
      })
  static final class Unrevoke implements Callable<Integer> {
    @Mixin JsonOutput json;

    @Spec CommandSpec spec;

    @Mixin Target target;

    @Option(
        names = "--all",
        description = "Lifts every revocation, rewriting the znode even if it does not parse.")
    boolean all;

    @Parameters(paramLabel = "NAME", arity = "0..*", description = "The edges to accept again.")
    List<String> names = List.of();

    @Override
    public Integer call() throws Exception {
      if (all && !names.isEmpty()) {
        throw new IllegalArgumentException("--all takes no NAME");
      }
      if (!all && names.isEmpty()) {
        throw new IllegalArgumentException("NAME: name an edge to accept again (or --all)");
      }
      Set<String> given = checked(names);
      Set<String> now;
      try (CuratorFramework client = target.connect("unrevoke")) {
        if (all) {
          ZkRevokedEdges.replace(client, Set.of());
          now = Set.of();
        } else {
          now =
              ZkRevokedEdges.update(
                  client,
                  old -> {
                    Set<String> out = new TreeSet<>(old);
                    out.removeAll(given);
                    return out;
                  });
        }
      } catch (java.io.IOException | org.apache.zookeeper.KeeperException e) {
        throw CommandFailure.io(e);
      }
      print(spec, json, now, all ? "lifted all" : "lifted " + String.join(", ", given));
      return 0;
    }
  }

  /** The names, sorted, each an edge name; the error names the parameter. */
  private static Set<String> checked(List<String> names) {
    Set<String> out = new TreeSet<>();
    for (String n : names) {
      try {
        out.add(ZnodePaths.checkName(n));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("NAME: " + e.getMessage());
      }
    }
    return out;
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> out = new TreeSet<>(a);
    out.addAll(b);
    return out;
  }

  /** The znode's edges as written (or read), and what this run changed ({@code done}). */
  private static void print(CommandSpec spec, JsonOutput json, Set<String> now, String done) {
    PrintWriter out = spec.commandLine().getOut();
    List<String> sorted = new ArrayList<>(new TreeSet<>(now));
    if (json.enabled()) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("kind", "revoked-edges");
      o.put("revoked_edges", sorted);
      JsonOutput.printLine(out, o);
    } else {
      if (!done.isEmpty()) {
        out.println(done);
      }
      out.println(
          sorted.size()
              + " edges revoked in "
              + ZnodePaths.REVOKED_EDGES
              + (sorted.isEmpty() ? "" : ": " + String.join(", ", sorted)));
      out.flush();
    }
  }
}
