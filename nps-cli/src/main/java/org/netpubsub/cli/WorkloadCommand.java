package org.netpubsub.cli;

import picocli.CommandLine.Command;

/** `nps workload`: a group; see its subcommands. */
@Command(
    name = "workload",
    mixinStandardHelpOptions = true,
    description = "Seeded workload generators.",
    subcommands = {WorkloadGenCommand.class})
final class WorkloadCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
