package org.netpubsub.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code nps} command: one subcommand class per command, every one takes {@code --json}. */
@Command(
    name = "nps",
    mixinStandardHelpOptions = true,
    version = "netpubsub 0.1.0",
    description =
        "netpubsub: publish/subscribe in which the network filters and replicates events.",
    subcommands = {
      SchemaCommand.class,
      FilterCommand.class,
      IndexCommand.class,
      WorkloadCommand.class,
      TestbedCommand.class,
      BenchCommand.class,
      CompileCommand.class,
      ItchCommand.class,
      ControllerCommand.class,
      PubCommand.class,
      SubCommand.class,
      TreesCommand.class,
      EdgeAgentCommand.class,
      EdgeCoordinatorCommand.class,
      OverlayCommand.class,
    })
public final class Nps implements Runnable {
  /** Exit code for input the user must fix (bad schema, filter, event). */
  public static final int EXIT_BAD_INPUT = 2;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The configured command line; tests call {@code execute} on it. */
  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Nps());
    cl.setExecutionExceptionHandler(new ErrorHandler());
    return cl;
  }
}
