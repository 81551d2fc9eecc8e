package org.netpubsub.edge.client;

import java.util.List;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.SchemaLoader;

/**
 * What a host needs to compute content addresses exactly as the controller does ({@code GET
 * /v1/pubsub}): the schema, the index length L, the index dimensions in the order their bits
 * alternate, and the UDP port events are sent to.
 *
 * @param schema the schema with the controller's index dimensions
 * @param index the spatial index built exactly as the controller builds it
 */
public record PubSubConfig(Schema schema, SpatialIndex index, int eventPort) {
  /** The port events are sent to (docs/pubsub.md). */
  public static final int DEFAULT_EVENT_PORT = 7073;

  /**
   * Builds the configuration from the controller's answer; the schema id must match the YAML's (so
   * both sides hash the same attribute list), the dimensions must name attributes.
   *
   * @throws IllegalArgumentException when the parts do not fit together
   */
  public static PubSubConfig of(
      String schemaYaml, long schemaId, int length, List<String> dimensions, int eventPort) {
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
    return new PubSubConfig(schema, new SpatialIndex(schema, length), eventPort);
  }

  /** For tests and tools without a controller: the schema's own index at {@code length}. */
  public static PubSubConfig of(Schema schema, int length) {
    return new PubSubConfig(schema, new SpatialIndex(schema, length), DEFAULT_EVENT_PORT);
  }
}
