package org.netpubsub.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A failure that is not a bug (a port in use, ZooKeeper unreachable, a file that cannot be read):
 * one line on stderr, a JSON error object with {@code --json}, and its exit code.
 */
final class CommandFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Exit code of a failure that is not bad input: unreachable, in use, unreadable. */
  static final int EXIT_FAILURE = 1;

  final String code;
  final int exitCode;

  CommandFailure(String code, String message, int exitCode, Throwable cause) {
    super(message, cause);
    this.code = code;
    this.exitCode = exitCode;
  }

  /** A failure to start (or go on) for a reason outside the program: one line, exit 1. */
  static CommandFailure io(Exception e) {
    String m = e instanceof IOException io ? describe(io) : String.valueOf(e.getMessage());
    return new CommandFailure("io_error", m, EXIT_FAILURE, e);
  }

  /** The I/O failure somewhere in {@code e}'s causes as one clear line, or null if none is. */
  static CommandFailure ofIo(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof IOException io && !(t instanceof UncheckedIOException)) {
        return new CommandFailure("io_error", describe(io), EXIT_FAILURE, e);
      }
    }
    return null;
  }

  /** One line for an I/O failure: the JDK's file exceptions carry only the path. */
  static String describe(IOException e) {
    if (e instanceof NoSuchFileException f) {
      return "cannot read " + f.getFile() + ": no such file";
    }
    if (e instanceof AccessDeniedException f) {
      return "cannot read " + f.getFile() + ": permission denied";
    }
    if (e instanceof FileSystemException f && f.getReason() != null) {
      return "cannot read " + f.getFile() + ": " + f.getReason();
    }
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    if (e instanceof BindException && !m.contains(" in use")) {
      return "cannot listen: " + m.toLowerCase(java.util.Locale.ROOT);
    }
    return m.replace("java.net.BindException: Address already in use", "address already in use");
  }

  /** Prints {@code message} as {@code error: ...} or, with --json, as a JSON error object. */
  static void print(PrintWriter err, boolean json, String code, String message, String field) {
    if (json) {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("code", code);
      body.put("message", message);
      if (field != null) {
        body.put("field", field);
      }
      JsonOutput.printLine(err, Map.of("error", body));
    } else {
      err.println("error: " + message);
      err.flush();
    }
  }
}
