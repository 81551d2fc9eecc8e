package org.netpubsub.cli;

import java.io.PrintWriter;
import org.netpubsub.content.InvalidInputException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/** The {@code nps} command: one subcommand class per command, every one takes {@code --json}. */
@Command(
    name = "nps",
    mixinStandardHelpOptions = true,
    versionProvider = VersionInfo.class,
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
      LocalCommand.class,
      PubCommand.class,
      SubCommand.class,
      TreesCommand.class,
      EdgeAgentCommand.class,
      EdgeCoordinatorCommand.class,
      OverlayCommand.class,
      AuthCommand.class,
    })
public final class Nps implements Runnable {
  /** Exit code for input the user must fix (bad schema, filter, event). */
  public static final int EXIT_BAD_INPUT = 2;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  public static void main(String[] args) throws java.io.IOException {
    if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
      // The version alone, as picocli prints it, without building the command tree or
      // configuring logging: 3 000 classes fewer, a start of a fraction of a second.
      System.out.println(VersionInfo.current());
      return;
    }
    Logging.bridgeJul();
    System.exit(run(commandLine(), args));
  }

  /** Executes {@code args} after expanding a {@code --config} file into options. */
  static int run(CommandLine cl, String... args) {
    String[] expanded;
    try {
      expanded = ConfigFile.expand(cl, args);
    } catch (InvalidInputException | CommandFailure e) {
      boolean json = java.util.Arrays.asList(args).contains("--json");
      boolean bad = e instanceof InvalidInputException;
      CommandFailure.print(
          cl.getErr(),
          json,
          bad ? "bad_input" : ((CommandFailure) e).code,
          e.getMessage(),
          "--config");
      return bad ? EXIT_BAD_INPUT : CommandFailure.EXIT_FAILURE;
    }
    return cl.execute(expanded);
  }

  /** The configured command line; tests call {@code execute} on it. */
  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Nps());
    ErrorHandler errors = new ErrorHandler(cl.getParameterExceptionHandler());
    cl.setExecutionExceptionHandler(errors);
    cl.setParameterExceptionHandler(errors);
    cl.setExecutionStrategy(Nps::execute);
    cl.setOverwrittenOptionsAllowed(true); // a --config file's options, then the command line's
    // over the PrintStream itself (picocli wraps a writer around it): checkError then sees a
    // broken pipe, which PipeWriter turns into a quiet stop
    cl.setOut(new PrintWriter(System.out, true, System.out.charset()));
    return cl;
  }

  /** Runs the chosen command after applying its logging options, before it logs anything. */
  private static int execute(ParseResult parsed) {
    ParseResult leaf = parsed;
    while (leaf.hasSubcommand()) {
      leaf = leaf.subcommand();
    }
    for (CommandSpec mixin : leaf.commandSpec().mixins().values()) {
      if (mixin.userObject() instanceof ServerOptions server) {
        server.applyLogging();
      }
    }
    return new CommandLine.RunLast().execute(parsed);
  }
}
