package org.netpubsub.network.camus.openflow;

import java.util.ArrayList;
import java.util.List;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.compiler.spec.QueryField;
import org.netpubsub.content.address.FieldPacking;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.event.Event;
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
  public static final int PREFIX_BITS = FieldPacking.PREFIX_BITS;

  private final MessageSpec spec;
  private final MessageSpec carried;
  private final FieldPacking packing; // of the carried fields: they keep the offsets they had
  private final List<String> leftOut;

  private QueryAddressLayout(MessageSpec spec) {
    this.spec = spec;
    FieldPacking all =
        FieldPacking.of(spec.fields().stream().mapToInt(QueryField::width).toArray());
    List<QueryField> fields = new ArrayList<>();
    List<String> out = new ArrayList<>();
    for (int f = 0; f < all.size(); f++) {
      if (all.carried(f)) {
        fields.add(spec.field(f));
      } else {
        out.add(spec.field(f).name());
      }
    }
    this.carried = MessageSpec.of(spec.name(), spec.schema(), fields);
    this.packing = FieldPacking.of(fields.stream().mapToInt(QueryField::width).toArray());
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
    return packing.offset(f);
  }

  /** The destination of an event: ff0e::/16 and its carried field values. */
  public Ipv6Address address(Event event) {
    return address(carried.values(event));
  }

  /** The destination for carried field values (in {@link #carried} order). */
  public Ipv6Address address(long[] values) {
    return packing.address(values);
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
    return MaskedIpv6.of(
        FieldPacking.place(offset(f), width, value & mask),
        FieldPacking.place(offset(f), width, mask));
  }

  /** The prefix ff0e::/16 alone, as a match. */
  public static MaskedIpv6 prefix() {
    return MaskedIpv6.prefix(FieldPacking.PREFIX, PREFIX_BITS);
  }
}
