package org.netpubsub.cli;

import picocli.CommandLine.Command;

/** `nps itch`: a group; see its subcommands. */
@Command(
    name = "itch",
    mixinStandardHelpOptions = true,
    description =
        "Nasdaq ITCH 5.0 over MoldUDP64: synthetic feeds, and replays through compiled filters"
            + " that split each packet into per-port subsets (Camus §6).",
    subcommands = {ItchGenCommand.class, ItchReplayCommand.class})
final class ItchCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
