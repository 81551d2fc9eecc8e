package org.netpubsub.content.address;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.StringAttribute;

/**
 * The destination of an event under Camus routing of a netpubsub schema: every attribute as an
 * unsigned field in schema order ({@link #width}, {@link #value}), packed by {@link FieldPacking}.
 * The compiler's {@code MessageSpec.fromSchema} takes its widths from here, so a publisher needs no
 * compiler to address events as the controller's tables match them.
 */
public final class SchemaAddress {
  private final Schema schema;
  private final FieldPacking packing;

  private SchemaAddress(Schema schema) {
    this.schema = schema;
    List<Attribute> attributes = schema.attributes();
    int[] widths = new int[attributes.size()];
    for (int i = 0; i < widths.length; i++) {
      widths[i] = width(attributes.get(i));
    }
    this.packing = FieldPacking.of(widths);
  }

  public static SchemaAddress of(Schema schema) {
    return new SchemaAddress(schema);
  }

  public FieldPacking packing() {
    return packing;
  }

  /**
   * The bits of an attribute's field: an int's domain [min, max] as value − min in as many bits as
   * the domain needs; a string as its first 8 UTF-8 bytes (fewer if its values are shorter).
   */
  public static int width(Attribute attribute) {
    return switch (attribute) {
      case IntAttribute i -> Math.max(1, 64 - Long.numberOfLeadingZeros(i.max() - i.min()));
      case StringAttribute s -> 8 * Math.clamp(s.maxLength(), 1, 8);
    };
  }

  /** The unsigned field value of the attribute at {@code position} in {@code event}, NUL padded. */
  public long value(Event event, int position) {
    return switch (schema.attribute(position)) {
      case IntAttribute i -> event.intValue(position) - i.min();
      case StringAttribute s ->
          FieldPacking.bytesValue(
              event.stringValue(position).getBytes(StandardCharsets.UTF_8), width(s) / 8, (byte) 0);
    };
  }

  /** The event's destination address. */
  public Ipv6Address address(Event event) {
    long[] values = new long[packing.size()];
    for (int f = 0; f < values.length; f++) {
      values[f] = value(event, f);
    }
    return packing.address(values);
  }
}
