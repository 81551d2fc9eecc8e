package org.netpubsub.cli;

import org.netpubsub.content.InvalidInputException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/** Bad input → its message with a caret on stderr and exit code 2; anything else is a bug. */
final class ErrorHandler implements IExecutionExceptionHandler {
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
    throw new RuntimeException(e);
  }
}
