package org.netpubsub.content.workload;

import java.util.ArrayList;
import java.util.List;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.schema.Schema;

/**
 * MQTT-style topics (docs/workloads.md): {@code site/area/device/metric[/channel]}, 3 to 5 levels,
 * a fixed universe of {@value #TOPICS} topics drawn once from the model stream, popularity Zipf(s)
 * over the universe's ranks for both events and subscriptions.
 *
 * <p>Schema {@code topics}: {@code topic} a topic (max 64 bytes, 5 levels), {@code value} int [0,
 * 1000]. Filters: 45 % one topic exactly ({@code topic == "a/b/c"}); 25 % a subtree ({@code topic
 * matches "a/b/#"}) cut after 1 to levels−1 levels; 20 % the topic with one or two levels after the
 * first replaced by {@code +} ({@code topic matches "a/+/c/+"}); 10 % a subtree and a threshold
 * ({@code value > V}).
 */
public final class TopicModel implements WorkloadModel {
  public static final String NAME = "topics";
  public static final int TOPICS = 5000;
  public static final int MAX_LENGTH = 64;
  public static final int LEVELS = 5;
  private static final List<String> SITES =
      List.of(
          "home", "office", "plant", "farm", "lab", "store", "depot", "school", "port", "mine",
          "hotel", "clinic");
  private static final List<String> METRICS =
      List.of("temp", "humidity", "power", "state", "battery", "pressure", "co2", "door");

  private final double exponent;
  private final Schema schema;

  public TopicModel(double exponent) {
    if (!(exponent >= 0 && exponent <= 10)) {
      throw new IllegalArgumentException("Zipf exponent must be in [0, 10], got " + exponent);
    }
    this.exponent = exponent;
    this.schema =
        Schema.builder(NAME)
            .topicAttribute("topic", MAX_LENGTH, LEVELS)
            .intAttribute("value", 0, 1000)
            .build();
  }

  public TopicModel() {
    this(1.0);
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
  public Workload generate(WorkloadSpec spec) {
    Generation g = new Generation(spec);
    List<String> topics = universe(g.modelRng());
    Zipf rank = new Zipf(topics.size(), exponent);
    Generation.SubscriptionSource filters =
        (rng, i) -> new Generation.Drawn(filter(rng, topics.get(rank.sample(rng) - 1)), -1);
    Workload.EventSource events =
        (rng, i) ->
            Event.builder(schema)
                .sequence(i)
                .set("topic", topics.get(rank.sample(rng) - 1))
                .set("value", rng.between(0, 1000))
                .build();
    return g.assemble(NAME, schema, Generation.Destination.HOST, 0, filters, events);
  }

  /** {@value #TOPICS} distinct topics, in popularity order. */
  private static List<String> universe(Rand rng) {
    java.util.LinkedHashSet<String> out = new java.util.LinkedHashSet<>();
    while (out.size() < TOPICS) {
      int levels = 3 + rng.belowInt(3);
      List<String> parts = new ArrayList<>(levels);
      parts.add(SITES.get(rng.belowInt(SITES.size())) + rng.belowInt(8));
      parts.add("area" + rng.belowInt(16));
      parts.add("dev" + rng.belowInt(64));
      if (levels >= 4) {
        parts.add(METRICS.get(rng.belowInt(METRICS.size())));
      }
      if (levels == 5) {
        parts.add("ch" + rng.belowInt(4));
      }
      out.add(String.join("/", parts));
    }
    return List.copyOf(out);
  }

  private static String filter(Rand rng, String topic) {
    double u = rng.nextDouble();
    if (u < 0.45) {
      return FilterText.string("topic", "==", topic);
    }
    String[] levels = topic.split("/");
    if (u < 0.65) {
      for (int n = 1 + rng.belowInt(Math.min(2, levels.length - 1)); n > 0; n--) {
        levels[1 + rng.belowInt(levels.length - 1)] = "+";
      }
      return FilterText.string("topic", "matches", String.join("/", levels));
    }
    String subtree =
        String.join("/", List.of(levels).subList(0, 1 + rng.belowInt(levels.length - 1))) + "/#";
    String hash = FilterText.string("topic", "matches", subtree);
    return u < 0.9 ? hash : hash + " && " + FilterText.compare("value", ">", rng.between(0, 999));
  }
}
