package org.netpubsub.content.schema;

import java.nio.charset.StandardCharsets;

/**
 * A string attribute; {@code maxLength} counts UTF-8 bytes, so that it bounds the wire size. {@code
 * levels} is 0 for a plain string and the most levels of a {@code type: topic} attribute, whose
 * values are MQTT topic names ({@link Topics}).
 */
public record StringAttribute(String name, int position, int maxLength, int levels)
    implements Attribute {
  /** The most levels a topic attribute may declare. */
  public static final int MAX_LEVELS = 16;

  public StringAttribute {
    if (maxLength < 0) {
      throw new IllegalArgumentException(name + ": negative max_length " + maxLength);
    }
    if (levels > 0 && maxLength == 0) {
      throw new IllegalArgumentException(name + ": a topic needs max_length of at least 1");
    }
    if (levels < 0 || levels > MAX_LEVELS) {
      throw new IllegalArgumentException(
          name + ": levels " + levels + " is outside 1.." + MAX_LEVELS);
    }
  }

  /** A plain string attribute. */
  public StringAttribute(String name, int position, int maxLength) {
    this(name, position, maxLength, 0);
  }

  public boolean isTopic() {
    return levels > 0;
  }

  /** Whether the value's UTF-8 bytes fit max_length (a bound on any string, topic or not). */
  public boolean fits(String value) {
    return value.getBytes(StandardCharsets.UTF_8).length <= maxLength;
  }

  /**
   * Why {@code value} is not a topic name of this topic attribute, or null (always, for a string).
   */
  public String topicProblem(String value) {
    return levels == 0 ? null : Topics.nameProblem(value, levels);
  }
}
