package org.netpubsub.content.workload;

import java.util.List;
import java.util.Objects;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.schema.Schema;

/**
 * PLEROMA's <em>interest popularity</em> model (§V-A): "up to 8 hotspot regions around which
 * subscriptions/events are generated using the widely used Zipfian distribution".
 *
 * <p>The paper names the ingredients only; we choose:
 *
 * <ul>
 *   <li>H hotspots (1..8) are points drawn uniformly in the event space; hotspot 1 is the most
 *       popular. Each event and each subscription first picks a hotspot by Zipf(s) over the hotspot
 *       ranks 1..H.
 *   <li>Around the hotspot, each attribute i gets an offset whose magnitude d is Zipf(s)
 *       distributed over the distance ranks: P(d) ∝ 1/(d+1)^s for d in [0, K_i-1], with K_i = 1 +
 *       floor(spread_i · (D-1)), and whose sign is a fair coin; the value is clamped to the domain.
 *       With s = 1 and D = 1024 about 13 % of the values hit the hotspot coordinate and half lie
 *       within ±23 of it, with a long tail (a pure Zipf, no geometric mixture).
 *   <li>{@code spread_i} in [0, 1] restricts the variance of dimension i (PLEROMA Fig. 8e, for
 *       dimension selection): 1 lets offsets reach across the whole domain, 0 pins the dimension to
 *       the hotspot coordinates. It applies to subscriptions and events alike, since subscribers
 *       are interested where events occur.
 *   <li>A subscription draws a point around its hotspot in the same way and centres its ranges on
 *       it; widths and constrained attributes are as in {@link UniformModel} (see {@link
 *       IntSpace}).
 *   <li>Hosts: by default each host is assigned one hotspot and subscribes only around it, as the
 *       paper describes for Fig. 8a ({@link HostAssignment#HOTSPOT}); round-robin (Fig. 8e:
 *       "divided equally among the end hosts") and random are available.
 * </ul>
 */
public final class ZipfModel implements WorkloadModel {
  public static final String NAME = "zipf";
  public static final int DEFAULT_HOTSPOTS = 4;
  public static final int MAX_HOTSPOTS = 8;
  public static final double DEFAULT_EXPONENT = 1.0;

  private final IntSpace space;
  private final int hotspots;
  private final double exponent;
  private final double[] spread;
  private final Schema schema;

  /**
   * @param spread one value for all attributes, or one per attribute, each in [0, 1]
   */
  public ZipfModel(IntSpace space, int hotspots, double exponent, List<Double> spread) {
    this.space = Objects.requireNonNull(space, "space");
    if (hotspots < 1 || hotspots > MAX_HOTSPOTS) {
      throw new IllegalArgumentException(
          "hotspots must be in [1, " + MAX_HOTSPOTS + "], got " + hotspots);
    }
    if (!(exponent >= 0 && exponent <= 10)) {
      throw new IllegalArgumentException("Zipf exponent must be in [0, 10], got " + exponent);
    }
    if (spread.size() != 1 && spread.size() != space.attributes()) {
      throw new IllegalArgumentException(
          "spread needs 1 value or one per attribute ("
              + space.attributes()
              + "), got "
              + spread.size());
    }
    this.spread = new double[space.attributes()];
    for (int i = 0; i < this.spread.length; i++) {
      double s = spread.get(spread.size() == 1 ? 0 : i);
      if (!(s >= 0 && s <= 1)) {
        throw new IllegalArgumentException("spread must be in [0, 1], got " + s);
      }
      this.spread[i] = s;
    }
    this.hotspots = hotspots;
    this.exponent = exponent;
    this.schema = space.schema(NAME);
  }

  /** The defaults: 4 hotspots, s = 1, full spread. */
  public ZipfModel(IntSpace space) {
    this(space, DEFAULT_HOTSPOTS, DEFAULT_EXPONENT, List.of(1.0));
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
  public HostAssignment defaultAssignment() {
    return HostAssignment.HOTSPOT;
  }

  @Override
  public Workload generate(WorkloadSpec spec) {
    Generation g = new Generation(spec);
    int n = space.attributes();
    long[][] centers = new long[hotspots][n];
    for (long[] hotspot : centers) {
      for (int i = 0; i < n; i++) {
        hotspot[i] = g.modelRng().below(space.domain());
      }
    }
    Zipf hotspotRank = new Zipf(hotspots, exponent);
    Zipf[] distanceRank = new Zipf[n];
    for (int i = 0; i < n; i++) {
      long ranks = 1 + (long) (spread[i] * (space.domain() - 1));
      distanceRank[i] = new Zipf((int) Math.min(ranks, Integer.MAX_VALUE), exponent);
    }
    return g.assemble(
        NAME,
        schema,
        Generation.Destination.HOST,
        hotspots,
        (rng, index) -> {
          int h = hotspotRank.sample(rng) - 1;
          return new Generation.Drawn(
              space.drawFilter(rng, around(rng, centers[h], distanceRank)), h);
        },
        (rng, index) -> {
          long[] point = around(rng, centers[hotspotRank.sample(rng) - 1], distanceRank);
          Event.Builder b = Event.builder(schema).sequence(index);
          for (int i = 0; i < n; i++) {
            b.set(schema.attribute(i), point[i]);
          }
          return b.build();
        });
  }

  /** A point drawn around {@code hotspot}: Zipf-distributed distances, random signs, clamped. */
  private long[] around(Rand rng, long[] hotspot, Zipf[] distanceRank) {
    long[] point = new long[hotspot.length];
    for (int i = 0; i < point.length; i++) {
      long d = distanceRank[i].sample(rng) - 1;
      if (d > 0 && rng.nextBoolean()) {
        d = -d;
      }
      point[i] = Math.clamp(hotspot[i] + d, 0, space.domain() - 1);
    }
    return point;
  }
}
