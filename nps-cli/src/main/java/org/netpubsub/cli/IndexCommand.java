package org.netpubsub.cli;

import picocli.CommandLine.Command;

/** `nps index`: a group; see its subcommands. */
@Command(
    name = "index",
    mixinStandardHelpOptions = true,
    description = "Spatial index: dz-expressions and content addresses.",
    subcommands = {
      IndexEventCommand.class,
      IndexFilterCommand.class,
      IndexDesignCommand.class,
      IndexSwitchCommand.class
    })
final class IndexCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
