package org.netpubsub.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/** Reading fields of a JSON request body; every refusal is a 400 naming the field. */
public final class Fields {
  private Fields() {}

  /** A string field; null if absent and not required. */
  public static String text(JsonNode n, String field, boolean required) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      if (required) {
        throw ApiError.field(field, field + " is required");
      }
      return null;
    }
    if (!v.isTextual()) {
      throw ApiError.field(field, field + " must be a string");
    }
    return v.asText();
  }

  /** An array of strings; empty if absent. */
  public static List<String> strings(JsonNode n, String field, String what) {
    JsonNode v = n.get(field);
    List<String> out = new ArrayList<>();
    if (v == null) {
      return out;
    }
    if (!v.isArray()) {
      throw ApiError.field(field, "'" + field + "' must be an array of " + what);
    }
    for (JsonNode x : v) {
      if (!x.isTextual()) {
        throw ApiError.field(field, "'" + field + "' must be an array of " + what);
      }
      out.add(x.asText());
    }
    return out;
  }

  /** 400 naming the first key of {@code body} not in {@code allowed}. */
  public static void onlyKeys(JsonNode body, Set<String> allowed) {
    for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (!allowed.contains(k)) {
        throw ApiError.field(
            k, "unknown field '" + k + "'; expected " + new java.util.TreeSet<>(allowed));
      }
    }
  }
}
