package org.netpubsub.client;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.netpubsub.content.address.SchemaAddress;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.SchemaLoader;

/**
 * What a host needs to address events exactly as the controller routes them ({@code GET
 * /v1/pubsub}): the schema, the index length L, the index dimensions in the order their bits
 * alternate, the UDP port events are sent to, and the routing. With PLEROMA routing an event goes
 * to its content address (its dz); with Camus routing ({@code camus-mr}, {@code camus-tr}) to the
 * address that carries its attributes as query fields ({@link SchemaAddress}, packed as the
 * controller's {@code QueryAddressLayout} of the schema's spec packs them).
 *
 * @param schema the schema with the controller's index dimensions
 * @param index the spatial index built exactly as the controller builds it
 * @param routing {@code pleroma}, {@code camus-mr} or {@code camus-tr}
 * @param queryAddress the query fields' places, for Camus routing (null: derived from the schema)
 * @param localSwitch on a local network ({@code nps local}, docs/local.md): where hosts attach,
 *     {@code [::1]:PORT}; null on a real network
 */
public record PubSubConfig(
    Schema schema,
    SpatialIndex index,
    int eventPort,
    String routing,
    SchemaAddress queryAddress,
    InetSocketAddress localSwitch) {
  /** The port events are sent to (docs/pubsub.md). */
  public static final int DEFAULT_EVENT_PORT = 7073;

  public static final String PLEROMA = "pleroma";

  public PubSubConfig {
    if (!List.of(PLEROMA, "camus-mr", "camus-tr").contains(routing)) {
      throw new IllegalArgumentException("unknown routing '" + routing + "'");
    }
    if (queryAddress == null && !routing.equals(PLEROMA)) {
      queryAddress = SchemaAddress.of(schema); // as the controller's spec of the schema
    }
  }

  public PubSubConfig(
      Schema schema, SpatialIndex index, int eventPort, String routing, SchemaAddress query) {
    this(schema, index, eventPort, routing, query, null);
  }

  public PubSubConfig(Schema schema, SpatialIndex index, int eventPort, String routing) {
    this(schema, index, eventPort, routing, null, null);
  }

  /** The same configuration on the local network whose switch is at {@code at}. */
  public PubSubConfig withLocalSwitch(InetSocketAddress at) {
    return new PubSubConfig(schema, index, eventPort, routing, queryAddress, at);
  }

  public PubSubConfig(Schema schema, SpatialIndex index, int eventPort) {
    this(schema, index, eventPort, PLEROMA, null, null);
  }

  /** The IPv6 destination of an event under this routing. */
  public InetAddress address(Event event) {
    if (routing.equals(PLEROMA)) {
      return index.address(event).address();
    }
    return queryAddress.address(event).toInet6Address();
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
