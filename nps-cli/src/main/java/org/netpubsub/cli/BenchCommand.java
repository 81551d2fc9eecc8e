package org.netpubsub.cli;

import picocli.CommandLine.Command;

/** `nps bench`: a group of measurements; see its subcommands. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description =
        "Measurements: southbound throughput, false-positive rates of the spatial index, the"
            + " partitioned control plane.",
    subcommands = {
      BenchFlowmodsCommand.class,
      BenchFprCommand.class,
      BenchDimensionsCommand.class,
      BenchControlPlaneCommand.class,
      BenchNbiCommand.class
    })
final class BenchCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
