package org.netpubsub.network.camus.openflow;

import java.util.ArrayList;
import java.util.List;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.compiler.spec.QueryField;
import org.netpubsub.content.event.Event;
import org.netpubsub.network.openflow.Ipv6Address;
import org.netpubsub.network.openflow.MaskedIpv6;

/**
 * Where a message's query fields travel so that an OpenFlow switch can match them: packed into the
 * IPv6 destination after {@code ff0e::/16}, most significant bit first, in spec order. A field that
 * does not fit in the 112 bits left is not carried (the next ones that fit still are); the tables
 * then cannot test it, so the pipeline is compiled for the {@link #carried} spec and constraints on
 * the others widen to "any value" — a superset, checked exactly at the hosts.
 *
 * <p>ITCH: stock (64 bits) and price (32) and side (8) travel, shares (32) does not fit. A field
 * value is the compiler's unsigned value ({@code QueryField.encode}), so a string keeps its byte
 * order and a range is a set of bit prefixes.
 */
public final class QueryAddressLayout {
  /** The multicast prefix ff0e::/16 (global scope), as PLEROMA's content addresses. */
  public static final int PREFIX_BITS = 16;

  private static final Ipv6Address PREFIX = Ipv6Address.parse("ff0e::");

  private final MessageSpec spec;
  private final MessageSpec carried;
  private final int[] offsets; // per carried field: its first bit in the address (0 = MSB)
  private final List<String> leftOut;

  private QueryAddressLayout(MessageSpec spec) {
    this.spec = spec;
    List<QueryField> fields = new ArrayList<>();
    List<Integer> offs = new ArrayList<>();
    List<String> out = new ArrayList<>();
    int next = PREFIX_BITS;
    for (QueryField q : spec.fields()) {
      if (next + q.width() <= 128) {
        fields.add(q);
        offs.add(next);
        next += q.width();
      } else {
        out.add(q.name());
      }
    }
    this.carried = MessageSpec.of(spec.name(), spec.schema(), fields);
    this.offsets = offs.stream().mapToInt(Integer::intValue).toArray();
    this.leftOut = List.copyOf(out);
  }

  public static QueryAddressLayout of(MessageSpec spec) {
    return new QueryAddressLayout(spec);
  }

  /** The spec as given. */
  public MessageSpec spec() {
    return spec;
  }

  /** The fields that travel in the address, in order: compile the OpenFlow pipeline for these. */
  public MessageSpec carried() {
    return carried;
  }

  /** The names of the fields that do not fit. */
  public List<String> leftOut() {
    return leftOut;
  }

  /**
   * The first bit of carried field {@code f} in the 128-bit address (0 is the most significant).
   */
  public int offset(int f) {
    return offsets[f];
  }

  /** The destination of an event: ff0e::/16 and its carried field values. */
  public Ipv6Address address(Event event) {
    return address(carried.values(event));
  }

  /** The destination for carried field values (in {@link #carried} order). */
  public Ipv6Address address(long[] values) {
    long hi = PREFIX.high();
    long lo = 0;
    for (int f = 0; f < offsets.length; f++) {
      long[] placed = place(offsets[f], carried.field(f).width(), values[f]);
      hi |= placed[0];
      lo |= placed[1];
    }
    return new Ipv6Address(hi, lo);
  }

  /**
   * The match on field {@code f}'s top {@code prefixLength} bits being those of {@code value}
   * (prefixLength = width: exactly the value); ANDed with the others by the caller.
   */
  public MaskedIpv6 match(int f, long value, int prefixLength) {
    int width = carried.field(f).width();
    long mask =
        prefixLength == 0
            ? 0
            : prefixLength == 64 ? -1L : ((1L << prefixLength) - 1) << (width - prefixLength);
    long[] v = place(offsets[f], width, value & mask);
    long[] m = place(offsets[f], width, mask);
    return MaskedIpv6.of(new Ipv6Address(v[0], v[1]), new Ipv6Address(m[0], m[1]));
  }

  /** The prefix ff0e::/16 alone, as a match. */
  public static MaskedIpv6 prefix() {
    return MaskedIpv6.prefix(PREFIX, PREFIX_BITS);
  }

  /** {@code value} (width bits) placed at bit {@code offset} of a 128-bit (high, low) pair. */
  static long[] place(int offset, int width, long value) {
    if (width < 64) {
      value &= (1L << width) - 1;
    }
    int end = offset + width; // exclusive; bits [offset, end)
    long hi = 0;
    long lo = 0;
    if (end <= 64) {
      hi = value << (64 - end);
    } else if (offset >= 64) {
      lo = value << (128 - end);
    } else {
      int inLow = end - 64; // bits of value that land in the low word
      hi = value >>> inLow;
      lo = value << (64 - inLow);
    }
    return new long[] {hi, lo};
  }
}
