package org.netpubsub.content.event;

import java.util.List;
import java.util.Map;
import org.netpubsub.content.schema.Schema;

/**
 * Events as people and scripts write them: {@code name=value} words on a command line, and JSON
 * objects ({@code {"kind":"event","attributes":{...},"payload":"<base64>"}}, one per line). Bad
 * input is an {@link org.netpubsub.content.InvalidInputException} naming the word or key.
 */
public final class EventText {
  private EventText() {}

  /**
   * Parses {@code name=value} words; every attribute of the schema must appear once. The value is
   * everything after the first '=' (it may contain '='); surrounding double quotes are dropped.
   */
  public static Event fromAssignments(Schema schema, List<String> assignments) {
    return EventAssignments.parse(schema, assignments);
  }

  /**
   * Parses one JSON line, strictly: unknown keys, unknown or missing attributes and wrong JSON
   * types are errors. Optional keys: kind ("event"), payload (base64), publisher, sequence,
   * timestamp_ns.
   */
  public static Event fromJson(Schema schema, String jsonLine) {
    return EventJson.parse(schema, jsonLine);
  }

  /**
   * The JSON-line form: kind, attributes (in schema order), payload (base64, omitted when empty),
   * and publisher, sequence (unsigned) and timestamp_ns when not 0.
   */
  public static Map<String, Object> toJsonObject(Event event) {
    return EventJson.toJsonObject(event);
  }
}
