package org.netpubsub.client;

import java.util.List;
import org.netpubsub.content.schema.Schema;

/** The schema the client tests use: a symbol and two indexed ints on [0, 1023]. */
public final class TestSchemas {
  /** 10 bits per dimension: every value has its own cell. */
  public static final int INDEX_LENGTH = 20;

  private TestSchemas() {}

  public static Schema quotes() {
    return Schema.builder("quotes")
        .stringAttribute("symbol", 8)
        .intAttribute("price", 0, 1023)
        .intAttribute("volume", 0, 1023)
        .index(List.of("price", "volume"))
        .build();
  }
}
