package org.netpubsub.content.schema;

/** One attribute of a {@link Schema}: a named, typed dimension of the event space. */
public sealed interface Attribute permits IntAttribute, StringAttribute {
  String name();

  /** 0-based position in the schema; events store values by position. */
  int position();
}
