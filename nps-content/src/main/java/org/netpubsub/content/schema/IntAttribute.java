package org.netpubsub.content.schema;

/** A 64-bit signed integer attribute with the inclusive domain [min, max]. */
public record IntAttribute(String name, int position, long min, long max) implements Attribute {
  public IntAttribute {
    if (min > max) {
      throw new IllegalArgumentException(name + ": min " + min + " > max " + max);
    }
  }

  public boolean contains(long value) {
    return value >= min && value <= max;
  }
}
