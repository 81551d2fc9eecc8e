package org.netpubsub.network.camus;

import java.util.Objects;
import org.netpubsub.compiler.rules.Rule;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.schema.Schema;

/**
 * One filter a host subscribed (Camus's Subscriptions(h)): an id unique across the network, so that
 * withdrawing it finds the same rule on every switch, the text, and its normal form.
 */
public record PacketSubscription(String id, String filter, Dnf dnf) {
  public PacketSubscription {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(dnf, "dnf");
  }

  /** Parses {@code filter} over {@code schema} (InvalidInputException if it is no filter). */
  public static PacketSubscription parse(Schema schema, String id, String filter) {
    return new PacketSubscription(id, filter, Normalizer.toDnf(FilterParser.parse(schema, filter)));
  }

  /** The local rule {@code filter : fwd(action)}, under the same id. */
  public Rule forward(int action) {
    return new Rule(id, filter, dnf, new int[] {action});
  }
}
