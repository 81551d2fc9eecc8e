package org.netpubsub.cli;

import java.io.PrintWriter;
import org.netpubsub.content.InvalidInputException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Bad input → its message (with a caret in text) and exit code 2; a failure that is not a bug (port
 * in use, ZooKeeper unreachable, file unreadable) → one line and exit code 1, its stack trace at
 * DEBUG; anything else is a bug and keeps its stack trace. With {@code --json} the line is a JSON
 * error object {@code {"error":{"code","message","field"?}}}.
 */
final class ErrorHandler implements IExecutionExceptionHandler, IParameterExceptionHandler {
  private static final Logger LOG = LoggerFactory.getLogger(ErrorHandler.class);

  private final IParameterExceptionHandler usage;

  /**
   * @param usage picocli's own handler of usage errors, for the text output
   */
  ErrorHandler(IParameterExceptionHandler usage) {
    this.usage = usage;
  }

  @Override
  public int handleExecutionException(Exception e, CommandLine cl, ParseResult parsed) {
    boolean json = jsonWanted(cl);
    PrintWriter err = cl.getErr();
    if (e instanceof InvalidInputException bad) {
      if (json) {
        CommandFailure.print(err, true, "bad_input", bad.getMessage(), null);
      } else {
        err.println("error: " + bad.render());
      }
      return Nps.EXIT_BAD_INPUT;
    }
    if (e instanceof IllegalArgumentException bad) {
      CommandFailure.print(err, json, "bad_input", bad.getMessage(), field(bad.getMessage()));
      return Nps.EXIT_BAD_INPUT;
    }
    CommandFailure f = e instanceof CommandFailure given ? given : CommandFailure.ofIo(e);
    if (f == null) {
      throw new RuntimeException(e);
    }
    LOG.debug("{}", f.getMessage(), f.getCause() != null ? f.getCause() : f);
    CommandFailure.print(err, json, f.code, f.getMessage(), null);
    return f.exitCode;
  }

  /** Usage errors (unknown option, missing value): picocli's text, or a JSON error object. */
  @Override
  public int handleParseException(ParameterException e, String[] args) throws Exception {
    CommandLine cl = e.getCommandLine();
    if (java.util.Arrays.asList(args).contains("--json")) {
      CommandFailure.print(cl.getErr(), true, "usage", e.getMessage(), null);
      return cl.getCommandSpec().exitCodeOnInvalidInput();
    }
    return usage.handleParseException(e, args);
  }

  /** The option a message starts with ({@code --foo must ...}), the usual shape here. */
  static String field(String message) {
    if (message == null || !message.startsWith("--")) {
      return null;
    }
    int end = 2;
    while (end < message.length()
        && (Character.isLetterOrDigit(message.charAt(end)) || message.charAt(end) == '-')) {
      end++;
    }
    return message.substring(0, end);
  }

  private static boolean jsonWanted(CommandLine cl) {
    ParseResult p = cl.getParseResult();
    return p != null
        && p.hasMatchedOption("--json")
        && Boolean.TRUE.equals(p.matchedOptionValue("--json", false));
  }
}
