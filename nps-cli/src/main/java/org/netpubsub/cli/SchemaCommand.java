package org.netpubsub.cli;

import picocli.CommandLine.Command;

/** `nps schema`: a group; see its subcommands. */
@Command(
    name = "schema",
    mixinStandardHelpOptions = true,
    description = "Schemas: the attributes of events.",
    subcommands = {SchemaCheckCommand.class})
final class SchemaCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
