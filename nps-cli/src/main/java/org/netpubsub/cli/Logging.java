package org.netpubsub.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import java.util.Locale;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * The launcher's logging set-up: java.util.logging routed into SLF4J/Logback (logback.xml holds the
 * defaults), and the level and format a server command asks for.
 */
final class Logging {
  /** The text format, as in logback.xml: ISO-8601 time, level, thread, logger, message. */
  static final String PATTERN =
      "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level [%thread] %logger - %msg%n";

  private Logging() {}

  /** Routes java.util.logging into SLF4J; idempotent, called before any command runs. */
  static synchronized void bridgeJul() {
    if (!SLF4JBridgeHandler.isInstalled()) {
      SLF4JBridgeHandler.removeHandlersForRootLogger();
      SLF4JBridgeHandler.install();
    }
  }

  /** {@code --log-level}: the root logger's level; third-party loggers keep their WARN. */
  static Level level(String text) {
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "trace" -> Level.TRACE;
      case "debug" -> Level.DEBUG;
      case "info" -> Level.INFO;
      case "warn", "warning" -> Level.WARN;
      case "error" -> Level.ERROR;
      case "off" -> Level.OFF;
      default ->
          throw new IllegalArgumentException(
              "--log-level must be trace, debug, info, warn, error or off, not '" + text + "'");
    };
  }

  /** Raises {@code logger} to ERROR until closed (a wait whose outcome the command reports). */
  static AutoCloseableQuiet quieter(String logger) {
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return () -> {};
    }
    Logger l = context.getLogger(logger);
    Level before = l.getLevel();
    l.setLevel(Level.ERROR);
    return () -> l.setLevel(before);
  }

  /** {@link #quieter}'s handle: closing throws nothing. */
  interface AutoCloseableQuiet extends AutoCloseable {
    @Override
    void close();
  }

  /** Applies {@code --log-level} and {@code --log-format text|json}. */
  static void configure(String level, String format) {
    Level l = level(level);
    boolean json =
        switch (format) {
          case "text" -> false;
          case "json" -> true;
          default ->
              throw new IllegalArgumentException(
                  "--log-format must be text or json, not '" + format + "'");
        };
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return; // another backend (a test's): it keeps its own configuration
    }
    Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.setLevel(l);
    if (root.getAppender("STDERR") instanceof ConsoleAppender<ILoggingEvent> console) {
      LayoutWrappingEncoder<ILoggingEvent> encoder;
      if (json) {
        JsonLogLayout layout = new JsonLogLayout();
        layout.setContext(context);
        layout.start();
        encoder = new LayoutWrappingEncoder<>();
        encoder.setLayout(layout);
      } else {
        PatternLayoutEncoder text = new PatternLayoutEncoder();
        text.setPattern(PATTERN);
        encoder = text;
      }
      encoder.setContext(context);
      encoder.start();
      console.stop();
      console.setEncoder(encoder);
      console.start();
    }
  }
}
