package org.netpubsub.content.event;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.SourcePosition;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.StringAttribute;

/**
 * The JSON-line form of events, read strictly: {@code
 * {"kind":"event","attributes":{...},"payload":"<base64>","publisher":N,"sequence":N,"timestamp_ns":N}}.
 * kind is optional but must be "event" when given; payload, publisher (unsigned 64-bit), sequence
 * (unsigned 64-bit) and timestamp_ns (signed 64-bit) are optional and default to empty/0.
 */
final class EventJson {
  static final List<String> KEYS =
      List.of("kind", "attributes", "payload", "publisher", "sequence", "timestamp_ns");

  private static final ObjectMapper MAPPER =
      new ObjectMapper()
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);

  private EventJson() {}

  static Event parse(Schema schema, String line) {
    JsonNode root;
    try {
      root = MAPPER.readTree(line);
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      SourcePosition position =
          at == null || at.getLineNr() < 1 || at.getColumnNr() < 1
              ? null
              : new SourcePosition(at.getLineNr(), at.getColumnNr());
      throw new InvalidInputException("invalid JSON: " + e.getOriginalMessage(), position, line);
    }
    if (root == null || !root.isObject()) {
      throw new InvalidInputException(
          "an event is a JSON object {\"kind\":\"event\",\"attributes\":{...}}, got "
              + (root == null || root.isMissingNode() ? "nothing" : show(root)));
    }
    for (Iterator<String> keys = root.fieldNames(); keys.hasNext(); ) {
      String key = keys.next();
      if (!KEYS.contains(key)) {
        throw new InvalidInputException(
            "unknown key '" + key + "' in an event; expected " + String.join(", ", KEYS));
      }
    }
    JsonNode kind = root.get("kind");
    if (kind != null && !(kind.isTextual() && kind.textValue().equals("event"))) {
      throw new InvalidInputException("kind must be \"event\", got " + show(kind));
    }
    Event.Builder b = Event.builder(schema);
    readAttributes(schema, root.get("attributes"), b);
    JsonNode payload = root.get("payload");
    if (payload != null) {
      if (!payload.isTextual()) {
        throw new InvalidInputException("payload must be a base64 string, got " + show(payload));
      }
      try {
        b.payload(Base64.getDecoder().decode(payload.textValue()));
      } catch (IllegalArgumentException e) {
        throw new InvalidInputException("payload is not valid base64: " + e.getMessage());
      }
    }
    b.publisherId(unsigned(root, "publisher"));
    b.sequence(unsigned(root, "sequence"));
    JsonNode ts = root.get("timestamp_ns");
    if (ts != null) {
      if (!ts.isIntegralNumber() || !ts.canConvertToLong()) {
        throw new InvalidInputException("timestamp_ns must be a 64-bit integer, got " + show(ts));
      }
      b.timestampNanos(ts.longValue());
    }
    return b.build();
  }

  private static void readAttributes(Schema schema, JsonNode attrs, Event.Builder b) {
    if (attrs == null || !attrs.isObject()) {
      throw new InvalidInputException(
          "attributes must be a JSON object of name: value, got "
              + (attrs == null ? "nothing" : show(attrs)));
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = attrs.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      String name = field.getKey();
      JsonNode v = field.getValue();
      Attribute a =
          schema
              .attribute(name)
              .orElseThrow(() -> new InvalidInputException(AttributeValues.unknown(schema, name)));
      switch (a) {
        case IntAttribute i -> {
          if (!v.isIntegralNumber()) {
            throw new InvalidInputException(name + " must be a JSON integer, got " + show(v));
          }
          String problem = AttributeValues.intProblem(i, v.bigIntegerValue());
          if (problem != null) {
            throw new InvalidInputException(name + " = " + show(v) + " is " + problem);
          }
          b.set(i, v.longValue());
        }
        case StringAttribute s -> {
          if (!v.isTextual()) {
            throw new InvalidInputException(name + " must be a JSON string, got " + show(v));
          }
          String problem = AttributeValues.stringProblem(s, v.textValue());
          if (problem != null) {
            throw new InvalidInputException(name + " is " + problem);
          }
          b.set(s, v.textValue());
        }
      }
    }
    List<String> missing = new ArrayList<>();
    for (Attribute a : schema.attributes()) {
      if (!attrs.has(a.name())) {
        missing.add(a.name());
      }
    }
    if (!missing.isEmpty()) {
      throw new InvalidInputException(
          "missing "
              + (missing.size() == 1 ? "attribute " : "attributes ")
              + String.join(", ", missing)
              + "; every attribute of "
              + schema.name()
              + " needs a value");
    }
  }

  /** An unsigned 64-bit field, 0 when absent, as the long with the same bits. */
  private static long unsigned(JsonNode root, String key) {
    JsonNode v = root.get(key);
    if (v == null) {
      return 0;
    }
    if (!v.isIntegralNumber()
        || v.bigIntegerValue().signum() < 0
        || v.bigIntegerValue().compareTo(TWO_TO_64) >= 0) {
      throw new InvalidInputException(key + " must be an integer in [0, 2^64), got " + show(v));
    }
    return v.bigIntegerValue().longValue();
  }

  /** A JSON value for a message, cut short: a hostile line may be megabytes. */
  private static String show(JsonNode v) {
    String text = v.toString();
    return text.length() <= 60 ? text : text.substring(0, 57) + "...";
  }

  static Map<String, Object> toJsonObject(Event event) {
    Map<String, Object> attrs = new LinkedHashMap<>();
    for (Attribute a : event.schema().attributes()) {
      attrs.put(a.name(), event.value(a));
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("kind", "event");
    out.put("attributes", attrs);
    if (event.payloadLength() > 0) {
      out.put("payload", Base64.getEncoder().encodeToString(event.payload()));
    }
    if (event.publisherId() != 0) {
      out.put("publisher", unsignedNumber(event.publisherId()));
    }
    if (event.sequence() != 0) {
      out.put("sequence", unsignedNumber(event.sequence()));
    }
    if (event.timestampNanos() != 0) {
      out.put("timestamp_ns", event.timestampNanos());
    }
    return out;
  }

  private static Number unsignedNumber(long bits) {
    return bits >= 0 ? (Number) bits : new BigInteger(Long.toUnsignedString(bits));
  }
}
