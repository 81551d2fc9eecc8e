package org.netpubsub.edge.overlay;

import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;

/**
 * Picks the routing broker for a topic (the paper's §2.4.1 Strategy): the least loaded by some
 * measure, ties broken by name so that every leader decides alike. Pure.
 */
public interface AssignmentStrategy {
  /** The broker for a topic among the live ones, or empty when there is none. */
  Optional<String> choose(String topic, Collection<BrokerLoad> live);

  String name();

  /** The paper's: fewest assigned topics. */
  AssignmentStrategy TOPIC_COUNT =
      new AssignmentStrategy() {
        @Override
        public Optional<String> choose(String topic, Collection<BrokerLoad> live) {
          return live.stream()
              .min(Comparator.comparingInt(BrokerLoad::topics).thenComparing(BrokerLoad::broker))
              .map(BrokerLoad::broker);
        }

        @Override
        public String name() {
          return "topic-count";
        }
      };

  /** Lowest relayed message rate (reported by each broker), then fewest topics. */
  AssignmentStrategy MESSAGE_RATE =
      new AssignmentStrategy() {
        @Override
        public Optional<String> choose(String topic, Collection<BrokerLoad> live) {
          return live.stream()
              .min(
                  Comparator.comparingDouble(BrokerLoad::rate)
                      .thenComparingInt(BrokerLoad::topics)
                      .thenComparing(BrokerLoad::broker))
              .map(BrokerLoad::broker);
        }

        @Override
        public String name() {
          return "message-rate";
        }
      };

  static AssignmentStrategy named(String name) {
    return switch (name) {
      case "topic-count" -> TOPIC_COUNT;
      case "message-rate" -> MESSAGE_RATE;
      default ->
          throw new IllegalArgumentException(
              "unknown assignment strategy '" + name + "' (topic-count, message-rate)");
    };
  }
}
