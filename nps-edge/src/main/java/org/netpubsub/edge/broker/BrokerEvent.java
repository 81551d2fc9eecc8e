package org.netpubsub.edge.broker;

/** What the local broker's log says about its clients' sessions and subscriptions. */
public sealed interface BrokerEvent {
  String client();

  /** A client connected; {@code cleanStart} ends any earlier session of the same id. */
  record Connected(String client, boolean cleanStart) implements BrokerEvent {}

  /** A client's network connection ended (its session ends too if it started clean). */
  record Disconnected(String client) implements BrokerEvent {}

  record Subscribed(String client, String filter) implements BrokerEvent {}

  record Unsubscribed(String client, String filter) implements BrokerEvent {}
}
