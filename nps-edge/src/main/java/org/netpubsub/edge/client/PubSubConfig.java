package org.netpubsub.edge.client;

import java.net.InetAddress;
import java.util.List;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.SchemaLoader;
import org.netpubsub.network.camus.openflow.QueryAddressLayout;
import org.netpubsub.network.openflow.Ipv6Address;

/**
 * What a host needs to address events exactly as the controller routes them ({@code GET
 * /v1/pubsub}): the schema, the index length L, the index dimensions in the order their bits
 * alternate, the UDP port events are sent to, and the routing. With PLEROMA routing an event goes
 * to its content address (its dz); with Camus routing ({@code camus-mr}, {@code camus-tr}) to the
 * address that carries its query fields ({@link QueryAddressLayout} of the schema's spec).
 *
 * @param schema the schema with the controller's index dimensions
 * @param index the spatial index built exactly as the controller builds it
 * @param routing {@code pleroma}, {@code camus-mr} or {@code camus-tr}
 * @param layout the query fields' places, for Camus routing (null: derived from the schema)
 */
public record PubSubConfig(
    Schema schema, SpatialIndex index, int eventPort, String routing, QueryAddressLayout layout) {
  /** The port events are sent to (docs/pubsub.md). */
  public static final int DEFAULT_EVENT_PORT = 7073;

  public static final String PLEROMA = "pleroma";

  public PubSubConfig {
    if (!List.of(PLEROMA, "camus-mr", "camus-tr").contains(routing)) {
      throw new IllegalArgumentException("unknown routing '" + routing + "'");
    }
    if (layout == null && !routing.equals(PLEROMA)) {
      layout = QueryAddressLayout.of(MessageSpec.fromSchema(schema)); // as the controller does
    }
  }

  public PubSubConfig(Schema schema, SpatialIndex index, int eventPort, String routing) {
    this(schema, index, eventPort, routing, null);
  }

  public PubSubConfig(Schema schema, SpatialIndex index, int eventPort) {
    this(schema, index, eventPort, PLEROMA, null);
  }

  /** The IPv6 destination of an event under this routing. */
  public InetAddress address(Event event) {
    if (routing.equals(PLEROMA)) {
      return index.address(event).address();
    }
    Ipv6Address a = layout.address(event);
    byte[] bytes = java.nio.ByteBuffer.allocate(16).putLong(a.high()).putLong(a.low()).array();
    try {
      return InetAddress.getByAddress(bytes);
    } catch (java.net.UnknownHostException e) {
      throw new AssertionError("16 bytes are an IPv6 address", e);
    }
  }

  /**
   * Builds the configuration from the controller's answer; the schema id must match the YAML's (so
   * both sides hash the same attribute list), the dimensions must name attributes.
   *
   * @throws IllegalArgumentException when the parts do not fit together
   */
  /** {@link #of(String, long, int, List, int, String)} for PLEROMA routing. */
  public static PubSubConfig of(
      String schemaYaml, long schemaId, int length, List<String> dimensions, int eventPort) {
    return of(schemaYaml, schemaId, length, dimensions, eventPort, PLEROMA);
  }

  public static PubSubConfig of(
      String schemaYaml,
      long schemaId,
      int length,
      List<String> dimensions,
      int eventPort,
      String routing) {
    Schema parsed = SchemaLoader.parse(schemaYaml, "controller schema");
    if ((parsed.id() & 0xffffffffL) != (schemaId & 0xffffffffL)) {
      throw new IllegalArgumentException(
          String.format(
              "the controller's schema_id %08x does not match its schema (id %08x)",
              schemaId, parsed.id()));
    }
    if (eventPort < 1 || eventPort > 65535) {
      throw new IllegalArgumentException("event_port " + eventPort + " is not a UDP port");
    }
    Schema schema = parsed.withIndex(dimensions);
    return new PubSubConfig(schema, new SpatialIndex(schema, length), eventPort, routing);
  }

  /** For tests and tools without a controller: the schema's own index at {@code length}. */
  public static PubSubConfig of(Schema schema, int length) {
    return new PubSubConfig(schema, new SpatialIndex(schema, length), DEFAULT_EVENT_PORT);
  }
}
