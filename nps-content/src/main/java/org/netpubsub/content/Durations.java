package org.netpubsub.content;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one parser of user-given durations (CLI options, config files, WAN emulation specs): a number
 * with its unit in the value, {@code 250us}, {@code 500ms}, {@code 2s}, {@code 1.5m}, {@code 1h}. A
 * bare number is read in a unit the caller names (seconds for the CLI's duration options; the
 * deprecated unit-named aliases such as {@code --probe-interval-ms} read milliseconds).
 */
public final class Durations {
  private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|ms|s|m|h)?");
  private static final double MAX_SECONDS = 365 * 86400.0;

  private Durations() {}

  /** {@code text} with bare numbers in seconds; at least zero, at most a year. */
  public static Duration parse(String text, String what) {
    return parse(text, what, "s");
  }

  /**
   * @param bareUnit the unit of a number without one: ns, us, ms, s, m or h; null: refused
   * @throws IllegalArgumentException naming {@code what}, for anything else or over a year
   */
  public static Duration parse(String text, String what, String bareUnit) {
    Matcher m = DURATION.matcher(text == null ? "" : text.strip());
    if (!m.matches() || (m.group(2) == null && bareUnit == null)) {
      throw new IllegalArgumentException(
          what + ": '" + text + "' is not a duration such as 500ms, 2s or 1m");
    }
    double seconds =
        Double.parseDouble(m.group(1)) * secondsPer(m.group(2) == null ? bareUnit : m.group(2));
    if (seconds > MAX_SECONDS) {
      throw new IllegalArgumentException(what + " must be at most a year, not '" + text + "'");
    }
    return Duration.ofNanos(Math.round(seconds * 1e9));
  }

  /** As {@link #parse(String, String)}, refusing zero. */
  public static Duration positive(String text, String what) {
    Duration d = parse(text, what);
    if (d.isZero()) {
      throw new IllegalArgumentException(what + " must be positive, not '" + text + "'");
    }
    return d;
  }

  private static double secondsPer(String unit) {
    return switch (unit) {
      case "ns" -> 1e-9;
      case "us" -> 1e-6;
      case "ms" -> 1e-3;
      case "s" -> 1;
      case "m" -> 60;
      case "h" -> 3600;
      default -> throw new IllegalArgumentException("unknown duration unit " + unit);
    };
  }
}
