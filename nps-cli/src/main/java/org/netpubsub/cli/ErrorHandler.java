package org.netpubsub.cli;

import org.netpubsub.content.InvalidInputException;
import org.netpubsub.http.PortInUseException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Bad input → its message with a caret on stderr and exit code 2; a server that cannot bind its
 * port → one line and exit code 1; anything else is a bug.
 */
final class ErrorHandler implements IExecutionExceptionHandler {
  /** A server that could not start (its port is taken). */
  static final int EXIT_STARTUP_FAILED = 1;

  @Override
  public int handleExecutionException(Exception e, CommandLine cl, ParseResult parsed) {
    if (e instanceof InvalidInputException bad) {
      cl.getErr().println("error: " + bad.render());
      return Nps.EXIT_BAD_INPUT;
    }
    if (e instanceof IllegalArgumentException bad) {
      cl.getErr().println("error: " + bad.getMessage());
      return Nps.EXIT_BAD_INPUT;
    }
    if (e instanceof PortInUseException busy) {
      cl.getErr().println("error: " + busy.getMessage());
      return EXIT_STARTUP_FAILED;
    }
    throw new RuntimeException(e);
  }
}
