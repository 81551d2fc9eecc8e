package org.netpubsub.content.event;

import java.util.List;
import java.util.Map;
import org.netpubsub.content.schema.Schema;

/**
 * Events as people and scripts write them: {@code name=value} words on a command line, and JSON
 * objects ({@code {"kind":"event","attributes":{...},"payload":"<base64>"}}, one per line).
 */
public final class EventText {
  private EventText() {}

  /** Parses {@code name=value} words; every attribute of the schema must appear once. */
  public static Event fromAssignments(Schema schema, List<String> assignments) {
    throw new UnsupportedOperationException("TODO(codec helper)");
  }

  /** Parses one JSON line. */
  public static Event fromJson(Schema schema, String jsonLine) {
    throw new UnsupportedOperationException("TODO(codec helper)");
  }

  /**
   * The JSON-line form: kind, attributes (in schema order), payload (base64, omitted when empty).
   */
  public static Map<String, Object> toJsonObject(Event event) {
    throw new UnsupportedOperationException("TODO(codec helper)");
  }
}
