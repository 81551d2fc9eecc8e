package org.netpubsub.cli;

import java.time.Duration;
import org.netpubsub.content.Durations;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Picocli's converter for duration options: {@link Durations}, the one parser. */
final class DurationConverter implements ITypeConverter<Duration> {
  @Override
  public Duration convert(String value) {
    try {
      return Durations.parse(value, "a duration");
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage()); // picocli adds the option's name
    }
  }
}
