package org.netpubsub.content.filter;

import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.StringAttribute;

/** Example schemas of the filter tests. */
final class Schemas {
  /** An ITCH-like quote schema plus an INT telemetry attribute with a dotted name. */
  static final Schema QUOTES =
      Schema.builder("quotes")
          .intAttribute("price", 0, 1023)
          .stringAttribute("symbol", 8)
          .intAttribute("volume", -100, 100)
          .intAttribute("int.switch_id", 0, 255)
          .intAttribute("wide", Long.MIN_VALUE, Long.MAX_VALUE)
          .build();

  static final IntAttribute PRICE = (IntAttribute) QUOTES.attribute("price").orElseThrow();
  static final StringAttribute SYMBOL = (StringAttribute) QUOTES.attribute("symbol").orElseThrow();
  static final IntAttribute VOLUME = (IntAttribute) QUOTES.attribute("volume").orElseThrow();
  static final IntAttribute SWITCH = (IntAttribute) QUOTES.attribute("int.switch_id").orElseThrow();
  static final IntAttribute WIDE = (IntAttribute) QUOTES.attribute("wide").orElseThrow();

  private Schemas() {}
}
