package org.netpubsub.cli;

import picocli.CommandLine.Command;

/** {@code nps testbed}: a group; the emulated networks of docs/testbed.md. */
@Command(
    name = "testbed",
    mixinStandardHelpOptions = true,
    description = "Emulated OpenFlow 1.3 networks (Mininet + Open vSwitch) to run netpubsub on.",
    subcommands = {
      TestbedUpCommand.class,
      TestbedDownCommand.class,
      TestbedExecCommand.class,
      TestbedHostsCommand.class,
      TestbedLinkCommand.class,
      TestbedSwitchCommand.class,
      TestbedCleanCommand.class,
    })
final class TestbedCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
