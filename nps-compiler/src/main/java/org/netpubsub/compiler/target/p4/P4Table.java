package org.netpubsub.compiler.target.p4;

import java.util.List;

/**
 * One table of the emitted control: its key (fields in order, each with its match kind and width),
 * the actions it may run, the default action (what a miss does) and its entries.
 *
 * @param name unqualified, as in the P4 source
 */
public record P4Table(
    String name,
    List<Key> keys,
    List<String> actions,
    String defaultAction,
    List<P4TableEntry> entries) {
  public record Key(String field, KeyKind kind, int width) {}

  public P4Table {
    keys = List.copyOf(keys);
    actions = List.copyOf(actions);
    entries = List.copyOf(entries);
  }

  /** P4Info's name: {@code CamusIngress.<name>}. */
  public String qualifiedName() {
    return P4Names.qualified(name);
  }

  /**
   * The {@code size} to declare: the entries rounded up to a power of two (at least 16), leaving
   * room for the entries an incremental update adds before it removes the old ones.
   */
  public int size() {
    return Math.max(16, Integer.highestOneBit(Math.max(1, 2 * entries.size() - 1)));
  }
}
