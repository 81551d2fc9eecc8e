package org.netpubsub.content.schema;

import java.nio.charset.StandardCharsets;

/** A string attribute; {@code maxLength} counts UTF-8 bytes, so that it bounds the wire size. */
public record StringAttribute(String name, int position, int maxLength) implements Attribute {
  public StringAttribute {
    if (maxLength < 0) {
      throw new IllegalArgumentException(name + ": negative max_length " + maxLength);
    }
  }

  public boolean fits(String value) {
    return value.getBytes(StandardCharsets.UTF_8).length <= maxLength;
  }
}
