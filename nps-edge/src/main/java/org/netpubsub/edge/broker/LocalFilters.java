package org.netpubsub.edge.broker;

import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * The coordinator filters a local broker's clients hold, as the broker side of an agent learns them
 * ({@link LocalSubscriptions} from Mosquitto's log, {@link LocalBindings} from RabbitMQ's events).
 * Pure, not thread-safe: the {@link FilterReporter}'s thread alone uses it.
 */
interface LocalFilters {
  /**
   * Filters the coordinator still has for this edge from before a restart: the broker does not
   * repeat old subscriptions, so they are kept.
   */
  List<FilterChange> carryOver(Collection<String> filters);

  /** The filters present now. */
  Set<String> filters();
}
