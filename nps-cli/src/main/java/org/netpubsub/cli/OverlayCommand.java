package org.netpubsub.cli;

import picocli.CommandLine.Command;

/** {@code nps overlay}: the ZooKeeper-coordinated broker overlay (PubSubCoord, docs/overlay.md). */
@Command(
    name = "overlay",
    mixinStandardHelpOptions = true,
    description = {
      "The wide-area broker overlay (docs/overlay.md): edge brokers in front of local MQTT"
          + " brokers, routing brokers relaying global topics in at most two hops, ZooKeeper"
          + " coordinating both."
    },
    subcommands = {
      OverlayZooKeeperCommand.class,
      OverlayRoutingBrokerCommand.class,
      OverlayEdgeBrokerCommand.class,
      OverlayKeysCommand.class,
      OverlayBenchJoinCommand.class,
      OverlayBenchMultipathCommand.class,
      OverlayBenchLocalityCommand.class,
      OverlayBenchRelayCommand.class
    })
final class OverlayCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(
        spec.commandLine(), "name a command: zookeeper, routing-broker, edge-broker, keys");
  }
}
