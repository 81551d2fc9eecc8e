package org.netpubsub.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;

/**
 * The JSON mapper of every REST server. Bodies are built as trees with snake_case keys; records and
 * beans written through it get snake_case names too, so no camelCase reaches a client.
 */
public final class Json {
  public static final ObjectMapper MAPPER =
      new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

  private Json() {}
}
