package org.netpubsub.compiler.spec;

import java.util.List;
import java.util.Optional;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.workload.ItchModel;

/**
 * The message specs built in (FORMATS.md): Nasdaq ITCH 5.0 Add Order, matched as Camus Figure 4
 * does (stock exact, price and shares by range), and INT v2 per-hop telemetry reports.
 */
public final class BuiltinSpecs {
  private BuiltinSpecs() {}

  /** The names {@link #named} knows. */
  public static final List<String> NAMES = List.of("itch", "int");

  /** A built-in spec by name: {@code itch} or {@code int}. */
  public static Optional<MessageSpec> named(String name) {
    return switch (name) {
      case "itch" -> Optional.of(itch());
      case "int" -> Optional.of(intReports());
      default -> Optional.empty();
    };
  }

  /**
   * ITCH Add Order over the {@code itch} workload schema (stock, price, shares, side): stock is the
   * 8-byte space-padded symbol, matched exactly; price (Price(4)) and shares are uint32 ranges;
   * side is the one-byte 'B' or 'S', matched exactly.
   */
  public static MessageSpec itch() {
    Schema s = new ItchModel(ItchModel.Variant.SIMPLE, 1, 1.0).schema();
    byte space = ' ';
    return MessageSpec.of(
        "itch",
        s,
        List.of(
            new QueryField("stock", FieldKind.STRING, 64, MatchKind.EXACT, space, 0, 0),
            new QueryField("price", FieldKind.INT, 32, MatchKind.RANGE, (byte) 0, 0, 1),
            new QueryField("shares", FieldKind.INT, 32, MatchKind.RANGE, (byte) 0, 0, 2),
            new QueryField("side", FieldKind.STRING, 8, MatchKind.EXACT, space, 0, 3)));
  }

  /**
   * INT v2 per-hop metadata as filters see it ({@code int.switch_id == 2 && int.hop_latency >
   * 100}): the node id (32 bits), hop latency (32), queue occupancy (24), ingress and egress port
   * (16 each) and queue id (8), all matched by range.
   */
  public static MessageSpec intReports() {
    Schema s =
        Schema.builder("int")
            .intAttribute("int.switch_id", 0, (1L << 32) - 1)
            .intAttribute("int.hop_latency", 0, (1L << 32) - 1)
            .intAttribute("int.queue_occupancy", 0, (1L << 24) - 1)
            .intAttribute("int.ingress_port", 0, (1L << 16) - 1)
            .intAttribute("int.egress_port", 0, (1L << 16) - 1)
            .intAttribute("int.queue_id", 0, 255)
            .build();
    int[] widths = {32, 32, 24, 16, 16, 8};
    List<QueryField> fields =
        java.util.stream.IntStream.range(0, widths.length)
            .mapToObj(
                i ->
                    new QueryField(
                        s.attribute(i).name(),
                        FieldKind.INT,
                        widths[i],
                        MatchKind.RANGE,
                        (byte) 0,
                        0,
                        i))
            .toList();
    return MessageSpec.of("int", s, fields);
  }
}
