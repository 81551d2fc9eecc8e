package org.netpubsub.content.workload;

import java.util.Objects;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.schema.Schema;

/**
 * PLEROMA's <em>uniform</em> model (§V-A, after Muthusamy and Jacobsen): subscriptions and events
 * are generated independently of each other and uniformly over the event space.
 *
 * <p>The paper says: up to 10 integer attributes with domain [0, 1023]; "random subscriptions and
 * events independent from each other"; for Fig. 8a the subscriptions are "randomly divided among
 * all end hosts". It is silent on the shape of a subscription, so we choose (see {@link IntSpace}):
 * each attribute value of an event is uniform in [0, D-1]; each subscription constrains every
 * attribute (or each with probability {@code constrainProb}, at least one) to a range whose width
 * is uniform in [1, maxWidth·D] and whose position is uniform among those that fit the domain.
 * Subscriptions go round-robin to the hosts unless told otherwise, which divides them equally.
 */
public final class UniformModel implements WorkloadModel {
  public static final String NAME = "uniform";

  private final IntSpace space;
  private final Schema schema;

  public UniformModel(IntSpace space) {
    this.space = Objects.requireNonNull(space, "space");
    this.schema = space.schema(NAME);
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
    return g.assemble(
        NAME,
        schema,
        Generation.Destination.HOST,
        0,
        (rng, i) -> new Generation.Drawn(space.drawFilter(rng, null), -1),
        (rng, i) -> {
          Event.Builder b = Event.builder(schema).sequence(i);
          for (int a = 0; a < space.attributes(); a++) {
            b.set(schema.attribute(a), rng.below(space.domain()));
          }
          return b.build();
        });
  }
}
