package org.netpubsub.edge.broker;

import java.util.Map;
import java.util.Optional;

/**
 * What RabbitMQ's event exchange ({@code amq.rabbitmq.event}, plugin {@code
 * rabbitmq_event_exchange}) says about exchanges and bindings; {@link #parse} reads one event
 * message (routing key and headers). Pure.
 */
public sealed interface AmqpEvent {
  record ExchangeCreated(String name, String type, boolean durable) implements AmqpEvent {}

  record ExchangeDeleted(String name) implements AmqpEvent {}

  /**
   * A binding of exchange {@code source} to a queue or exchange; {@code id} tells bindings apart.
   */
  record Binding(boolean created, String source, String destination, String key, String id)
      implements AmqpEvent {}

  /**
   * The event of an event message in virtual host {@code vhost}; empty for other kinds, other
   * virtual hosts, and messages lacking what the kind needs.
   */
  static Optional<AmqpEvent> parse(String routingKey, Map<String, Object> headers, String vhost) {
    if (headers == null || !vhost.equals(text(headers, "vhost"))) {
      return Optional.empty();
    }
    return Optional.ofNullable(
        switch (routingKey) {
          case "exchange.created" -> {
            String name = text(headers, "name");
            String type = text(headers, "type");
            yield name == null || type == null
                ? null
                : new ExchangeCreated(name, type, Boolean.TRUE.equals(headers.get("durable")));
          }
          case "exchange.deleted" -> {
            String name = text(headers, "name");
            yield name == null ? null : new ExchangeDeleted(name);
          }
          case "binding.created", "binding.deleted" -> {
            String source = text(headers, "source_name");
            String destination = text(headers, "destination_name");
            String kind = text(headers, "destination_kind");
            String key = text(headers, "routing_key");
            yield source == null || destination == null || kind == null || key == null
                ? null
                : new Binding(
                    routingKey.equals("binding.created"),
                    source,
                    destination,
                    key,
                    kind + "\0" + destination + "\0" + key + "\0" + headers.get("arguments"));
          }
          default -> null;
        });
  }

  private static String text(Map<String, Object> headers, String key) {
    Object v = headers.get(key);
    return v == null ? null : v.toString(); // the client reads strings as LongString
  }
}
