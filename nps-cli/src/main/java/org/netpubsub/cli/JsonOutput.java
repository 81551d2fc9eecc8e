package org.netpubsub.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import picocli.CommandLine.Option;

/** The {@code --json} option every command mixes in, and the one JSON writer they share. */
public final class JsonOutput {
  /** Snake_case for records and beans too, as the hand-built maps' keys are. */
  static final ObjectMapper MAPPER =
      new ObjectMapper()
          .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
          .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

  @Option(names = "--json", description = "Print machine-readable JSON instead of text.")
  boolean json;

  public boolean enabled() {
    return json;
  }

  /** Writes {@code value} as one line of JSON, flushed. */
  public static void printLine(PrintWriter out, Object value) {
    printLine(out, value, true);
  }

  /** Writes {@code value} as one line of JSON; a caller printing a batch flushes once after it. */
  static void printLine(PrintWriter out, Object value, boolean flush) {
    try {
      out.println(MAPPER.writeValueAsString(value));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON", e);
    }
    if (flush) {
      out.flush();
    }
  }
}
