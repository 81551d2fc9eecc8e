package org.netpubsub.network.camus;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.IntFunction;
import org.netpubsub.compiler.rules.Rule;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.network.topology.SwitchPort;

/**
 * The local rules of one switch (Camus §4, "F_p^s : fwd(p)"): every subscription in F_p^s becomes
 * {@code filter : fwd(p)} under its own id. Actions are physical port numbers, except {@link #UP}:
 * the logical up port, for which the switch picks one physical up port ({@link UpPortChoice}). The
 * sets of one switch are disjoint (down ports reach disjoint hosts, and F_up^s under TR holds only
 * hosts not below s), so a subscription id occurs at most once per switch.
 */
public final class LocalRules {
  /** The action of the logical up port: 0 is no physical port number (OpenFlow's start at 1). */
  public static final int UP = 0;

  /** The id of MR's {@code true : fwd(UP)}; no subscription may use it. */
  public static final String TRUE_UP_ID = "mr:up";

  private LocalRules() {}

  /**
   * The rule action of a physical port; IllegalArgumentException if the compiler cannot hold it.
   */
  public static int action(long port) {
    if (port < 1 || port > Rule.MAX_PORT) {
      throw new IllegalArgumentException(
          "port " + port + " is outside 1.." + Rule.MAX_PORT + ", the ports a rule can name");
    }
    return (int) port;
  }

  /** MR's up rule, {@code true : fwd(UP)}. */
  public static Rule trueUp(Schema schema) {
    Dnf always = Normalizer.toDnf(FilterParser.parse(schema, "true"));
    return new Rule(TRUE_UP_ID, "true", always, new int[] {UP});
  }

  /**
   * The rules of switch {@code dpid}: its down ports' sets, then its up port's. {@code
   * subscriptions} gives a host index's subscriptions.
   */
  public static List<Rule> of(
      FilterSets sets,
      long dpid,
      Schema schema,
      IntFunction<? extends Iterable<PacketSubscription>> subscriptions) {
    List<Rule> out = new ArrayList<>();
    Hierarchy h = sets.hierarchy();
    for (long p : h.downPorts(dpid)) {
      add(out, sets.down(new SwitchPort(dpid, p)), action(p), subscriptions);
    }
    if (sets.upIsTrue(dpid)) {
      out.add(trueUp(schema));
    } else {
      add(out, sets.up(dpid), UP, subscriptions);
    }
    return out;
  }

  private static void add(
      List<Rule> out,
      BitSet hosts,
      int action,
      IntFunction<? extends Iterable<PacketSubscription>> subscriptions) {
    for (int i = hosts.nextSetBit(0); i >= 0; i = hosts.nextSetBit(i + 1)) {
      for (PacketSubscription s : subscriptions.apply(i)) {
        out.add(s.forward(action));
      }
    }
  }
}
