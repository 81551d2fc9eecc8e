package org.netpubsub.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netpubsub.edge.overlay.EmbeddedZooKeeper;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code nps overlay zookeeper}: the embedded standalone ZooKeeper server. */
@Command(
    name = "zookeeper",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Runs a standalone ZooKeeper server in this process, the overlay's default coordination"
          + " service (use an ensemble and --zookeeper HOST:PORT,... for fault tolerance)."
    })
final class OverlayZooKeeperCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Mixin ServerOptions server;

  @Spec CommandSpec spec;

  @Option(
      names = "--listen",
      defaultValue = "127.0.0.1:2181",
      paramLabel = "ADDR:PORT",
      description = "Client address and port (default: ${DEFAULT-VALUE}).")
  String listen;

  @Option(
      names = "--data",
      paramLabel = "DIR",
      description = "Snapshots and transaction logs (default: a new temporary directory).")
  Path data;

  @Option(
      names = "--tick",
      defaultValue = "200",
      paramLabel = "MS",
      description =
          "ZooKeeper's tick in ms (default: ${DEFAULT-VALUE}); sessions may be 2 to 20 ticks.")
  int tick;

  @Option(names = "--exit-after-start", hidden = true)
  boolean exitAfterStart;

  @Override
  public Integer call() throws Exception {
    if (tick < 10) {
      throw new IllegalArgumentException("--tick must be at least 10 ms");
    }
    Path dir = data != null ? data : Files.createTempDirectory("nps-zookeeper");
    EmbeddedZooKeeper zk;
    try {
      zk = EmbeddedZooKeeper.start(ControllerCommand.hostPort(listen, "--listen"), dir, tick);
    } catch (IOException e) {
      throw CommandFailure.io(e);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json.enabled()) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("kind", "zookeeper");
      o.put("zookeeper", zk.connectString());
      o.put("data", dir.toString());
      JsonOutput.printLine(out, o);
    } else {
      out.println("zookeeper on " + zk.connectString() + ", data in " + dir);
      out.flush();
    }
    OverlayRun.untilStopped(zk, exitAfterStart, Duration.ZERO, () -> {}, "nps-zookeeper-stop");
    return 0;
  }
}
