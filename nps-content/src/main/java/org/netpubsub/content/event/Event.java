package org.netpubsub.content.event;

import java.util.Arrays;
import java.util.Objects;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.StringAttribute;

/**
 * An event: a value for every attribute of its schema, an opaque payload, and the header fields the
 * wire codec carries (publisher, sequence number, timestamp). Immutable.
 */
public final class Event {
  private final Schema schema;
  private final long[] ints;
  private final String[] strings;
  private final byte[] payload;
  private final long publisherId;
  private final long sequence;
  private final long timestampNanos;

  private Event(Builder b) {
    this.schema = b.schema;
    this.ints = b.ints.clone();
    this.strings = b.strings.clone();
    this.payload = b.payload.clone();
    this.publisherId = b.publisherId;
    this.sequence = b.sequence;
    this.timestampNanos = b.timestampNanos;
  }

  public static Builder builder(Schema schema) {
    return new Builder(schema);
  }

  public Schema schema() {
    return schema;
  }

  /** The value of the int attribute at {@code position}. */
  public long intValue(int position) {
    return ints[position];
  }

  /** The value of the string attribute at {@code position}. */
  public String stringValue(int position) {
    return strings[position];
  }

  /** The value of an attribute as a Long or a String. */
  public Object value(Attribute attribute) {
    return attribute instanceof IntAttribute
        ? ints[attribute.position()]
        : strings[attribute.position()];
  }

  public byte[] payload() {
    return payload.clone();
  }

  public int payloadLength() {
    return payload.length;
  }

  public long publisherId() {
    return publisherId;
  }

  public long sequence() {
    return sequence;
  }

  public long timestampNanos() {
    return timestampNanos;
  }

  /** A builder that starts from this event's values. */
  public Builder toBuilder() {
    Builder b = new Builder(schema);
    System.arraycopy(ints, 0, b.ints, 0, ints.length);
    System.arraycopy(strings, 0, b.strings, 0, strings.length);
    Arrays.fill(b.set, true);
    return b.payload(payload)
        .publisherId(publisherId)
        .sequence(sequence)
        .timestampNanos(timestampNanos);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Event e
        && e.schema.equals(schema)
        && Arrays.equals(e.ints, ints)
        && Arrays.equals(e.strings, strings)
        && Arrays.equals(e.payload, payload)
        && e.publisherId == publisherId
        && e.sequence == sequence
        && e.timestampNanos == timestampNanos;
  }

  @Override
  public int hashCode() {
    return Objects.hash(Arrays.hashCode(ints), Arrays.hashCode(strings), sequence);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("Event{");
    for (Attribute a : schema.attributes()) {
      if (a.position() > 0) {
        sb.append(", ");
      }
      sb.append(a.name()).append('=').append(value(a));
    }
    return sb.append(", payload=")
        .append(payload.length)
        .append("B, seq=")
        .append(sequence)
        .append('}')
        .toString();
  }

  /**
   * Collects values; {@link #build()} checks that every attribute is set and within its domain, and
   * throws {@link IllegalArgumentException} naming the attribute otherwise.
   */
  public static final class Builder {
    private final Schema schema;
    private final long[] ints;
    private final String[] strings;
    private final boolean[] set;
    private byte[] payload = new byte[0];
    private long publisherId;
    private long sequence;
    private long timestampNanos;

    private Builder(Schema schema) {
      this.schema = schema;
      this.ints = new long[schema.size()];
      this.strings = new String[schema.size()];
      this.set = new boolean[schema.size()];
    }

    public Builder set(String name, long value) {
      return set(attribute(name), value);
    }

    public Builder set(String name, String value) {
      return set(attribute(name), value);
    }

    public Builder set(Attribute attribute, long value) {
      if (!(attribute instanceof IntAttribute i)) {
        throw new IllegalArgumentException(attribute.name() + " is a string attribute, not int");
      }
      if (!i.contains(value)) {
        throw new IllegalArgumentException(
            i.name() + " = " + value + " is outside [" + i.min() + ", " + i.max() + "]");
      }
      ints[i.position()] = value;
      set[i.position()] = true;
      return this;
    }

    public Builder set(Attribute attribute, String value) {
      if (!(attribute instanceof StringAttribute s)) {
        throw new IllegalArgumentException(attribute.name() + " is an int attribute, not string");
      }
      Objects.requireNonNull(value, s.name());
      if (!s.fits(value)) {
        throw new IllegalArgumentException(
            s.name() + " is longer than max_length " + s.maxLength() + " bytes");
      }
      String topic = s.topicProblem(value);
      if (topic != null) {
        throw new IllegalArgumentException(s.name() + ": " + topic);
      }
      strings[s.position()] = value;
      set[s.position()] = true;
      return this;
    }

    public Builder payload(byte[] bytes) {
      this.payload = bytes.clone();
      return this;
    }

    public Builder publisherId(long id) {
      this.publisherId = id;
      return this;
    }

    public Builder sequence(long seq) {
      this.sequence = seq;
      return this;
    }

    public Builder timestampNanos(long nanos) {
      this.timestampNanos = nanos;
      return this;
    }

    public Event build() {
      for (int i = 0; i < set.length; i++) {
        if (!set[i]) {
          throw new IllegalArgumentException(
              "attribute " + schema.attribute(i).name() + " has no value");
        }
      }
      return new Event(this);
    }

    private Attribute attribute(String name) {
      return schema
          .attribute(name)
          .orElseThrow(() -> new IllegalArgumentException("unknown attribute " + name));
    }
  }
}
