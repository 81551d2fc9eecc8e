package org.netpubsub.cli;

import picocli.CommandLine.Command;

/** `nps filter`: a group; see its subcommands. */
@Command(
    name = "filter",
    mixinStandardHelpOptions = true,
    description = "Filters: parse, type-check, normal form.",
    subcommands = {FilterCheckCommand.class, FilterMatchCommand.class})
final class FilterCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
