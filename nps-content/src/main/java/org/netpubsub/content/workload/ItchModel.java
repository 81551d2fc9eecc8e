package org.netpubsub.content.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.schema.Schema;

/**
 * Camus's ITCH workloads (§7): filters over Nasdaq ITCH add-order messages, forwarded to a switch
 * port ({@code fwd(H)}, our {@code "ports":[H]}).
 *
 * <p>Schema {@code itch}: {@code stock} string (max 8 bytes, as ITCH's 8-byte field), {@code price}
 * int [0, 2^32-1] with 4 implied decimals (1234500 = $123.45), {@code shares} int [0, 2^32-1],
 * {@code side} string "B" or "S".
 *
 * <p><b>Simple</b> (Camus's scalability workload): {@code stock == "S" && price > P} with S uniform
 * among 100 symbols and P uniform in (0, 1000) dollars at cent granularity; events draw the stock
 * uniformly among the same symbols and the price uniformly in (0, 1000) dollars.
 *
 * <p><b>Rich</b> (default; FORMATS.md): each of 1000 symbols has an average price drawn once from
 * U[10, 180) dollars. A filter picks its stock by Zipf(s) over symbol rank (rank 1 = GOOGL), then
 * {@code price <} 40 %, {@code price >} 40 % or {@code price in [a, b]} 20 %, every constant within
 * ±10 % of the stock's average (uniform); with probability 35 % it adds {@code shares > N}. Events
 * pick the stock by the same Zipf, a price around its average (triangular on ±10 %, peaked at the
 * average) and a side by a fair coin.
 *
 * <p>Where Camus is silent we choose: share counts (of events, and N) are round lots, 100 · k with
 * k Zipf(1) over 1..100, so 100 shares is the most common order; prices are whole cents.
 */
public final class ItchModel implements WorkloadModel {
  public static final String NAME = "itch";

  /** 4 implied decimal places: price units per dollar. */
  public static final long PRICE_SCALE = 10_000;

  public static final long MAX_UINT32 = (1L << 32) - 1;
  public static final int DEFAULT_HOSTS = 200;
  static final double[] PRICE_OP_WEIGHTS = {40, 40, 20};
  static final double SHARES_PROBABILITY = 0.35;

  private static final Weighted PRICE_OP = new Weighted(PRICE_OP_WEIGHTS);
  private static final long CENT = PRICE_SCALE / 100;

  /** Which of Camus's filter sets. */
  public enum Variant {
    SIMPLE,
    RICH;

    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Variant parse(String label) {
      for (Variant v : values()) {
        if (v.label().equals(label)) {
          return v;
        }
      }
      throw new IllegalArgumentException("unknown ITCH model '" + label + "' (use simple or rich)");
    }

    /** Camus: 100 symbols in the simple workload, 1000 in the rich one. */
    public int defaultSymbols() {
      return this == SIMPLE ? 100 : 1000;
    }
  }

  private final Variant variant;
  private final List<String> symbols;
  private final double exponent;
  private final Schema schema;
  private final Zipf lots = new Zipf(100, 1.0);

  public ItchModel(Variant variant, int symbols, double exponent) {
    this.variant = Objects.requireNonNull(variant, "variant");
    if (!(exponent >= 0 && exponent <= 10)) {
      throw new IllegalArgumentException("Zipf exponent must be in [0, 10], got " + exponent);
    }
    this.symbols = Tickers.first(symbols);
    this.exponent = exponent;
    this.schema =
        Schema.builder(NAME)
            .stringAttribute("stock", 8)
            .intAttribute("price", 0, MAX_UINT32)
            .intAttribute("shares", 0, MAX_UINT32)
            .stringAttribute("side", 1)
            .build();
  }

  /** The variant with Camus's number of symbols and s = 1. */
  public ItchModel(Variant variant) {
    this(variant, variant.defaultSymbols(), 1.0);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Schema schema() {
    return schema;
  }

  @Override
  public int defaultHosts() {
    return DEFAULT_HOSTS;
  }

  @Override
  public HostAssignment defaultAssignment() {
    return HostAssignment.RANDOM; // Camus: "H one of 200 hosts"
  }

  /** The symbols, most popular first. */
  List<String> symbols() {
    return symbols;
  }

  @Override
  public Workload generate(WorkloadSpec spec) {
    Generation g = new Generation(spec);
    long[] averageCents = new long[symbols.size()];
    for (int i = 0; i < averageCents.length; i++) {
      averageCents[i] = g.modelRng().between(10 * 100, 180 * 100 - 1);
    }
    Zipf rank = new Zipf(symbols.size(), exponent);
    Generation.SubscriptionSource filters =
        variant == Variant.SIMPLE
            ? (rng, i) -> new Generation.Drawn(simpleFilter(rng), -1)
            : (rng, i) -> new Generation.Drawn(richFilter(rng, rank, averageCents), -1);
    Workload.EventSource events =
        (rng, i) -> {
          int stock;
          long price;
          if (variant == Variant.SIMPLE) {
            stock = rng.belowInt(symbols.size());
            price = rng.between(1, 1000 * 100 - 1) * CENT;
          } else {
            stock = rank.sample(rng) - 1;
            double offset = 0.1 * (rng.nextDouble() + rng.nextDouble() - 1.0);
            price = Math.round(averageCents[stock] * (1.0 + offset)) * CENT;
          }
          return Event.builder(schema)
              .sequence(i)
              .set("stock", symbols.get(stock))
              .set("price", price)
              .set("shares", 100L * lots.sample(rng))
              .set("side", rng.nextBoolean() ? "B" : "S")
              .build();
        };
    return g.assemble(NAME, schema, Generation.Destination.PORT, 0, filters, events);
  }

  private String simpleFilter(Rand rng) {
    String stock = symbols.get(rng.belowInt(symbols.size()));
    long price = rng.between(1, 1000 * 100 - 1) * CENT;
    return FilterText.and(
        List.of(FilterText.string("stock", "==", stock), FilterText.compare("price", ">", price)));
  }

  private String richFilter(Rand rng, Zipf rank, long[] averageCents) {
    int stock = rank.sample(rng) - 1;
    List<String> parts = new ArrayList<>(3);
    parts.add(FilterText.string("stock", "==", symbols.get(stock)));
    long average = averageCents[stock];
    switch (PRICE_OP.sample(rng)) {
      case 0 -> parts.add(FilterText.compare("price", "<", nearPrice(rng, average)));
      case 1 -> parts.add(FilterText.compare("price", ">", nearPrice(rng, average)));
      default -> {
        long a = nearPrice(rng, average);
        long b = nearPrice(rng, average);
        parts.add(FilterText.range("price", Math.min(a, b), Math.max(a, b)));
      }
    }
    if (rng.chance(SHARES_PROBABILITY)) {
      parts.add(FilterText.compare("shares", ">", 100L * lots.sample(rng)));
    }
    return FilterText.and(parts);
  }

  /** A price uniformly within ±10 % of the average, in whole cents, in price units. */
  private static long nearPrice(Rand rng, long averageCents) {
    return Math.round(averageCents * rng.uniform(0.9, 1.1)) * CENT;
  }
}
