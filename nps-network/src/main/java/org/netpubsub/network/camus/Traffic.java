package org.netpubsub.network.camus;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.netpubsub.network.topology.SwitchPort;

/**
 * Traffic per layer over many disseminations, split into what was needed and what was not (Camus
 * Figure 13d): a transmission out of switch s by port p is needed when some host reached through p
 * — below p, or beyond s for an up port — wants the message. The rest is the price of MR's {true}
 * up port and of α's widened filters.
 */
public final class Traffic {
  /**
   * Transmissions out of one layer's switches: all of them, the needed ones, and of each the part
   * sent up.
   */
  public record LayerTraffic(String layer, long sent, long needed, long sentUp, long neededUp) {
    /** Transmissions no interested host is behind. */
    public long extra() {
      return sent - needed;
    }

    /** Extra traffic relative to the needed traffic (0 when nothing was needed). */
    public double extraRatio() {
      return needed == 0 ? 0 : (double) extra() / needed;
    }
  }

  private final Hierarchy hierarchy;
  private final long[] sent;
  private final long[] needed;
  private final long[] sentUp;
  private final long[] neededUp;
  private long messages;

  public Traffic(Hierarchy hierarchy) {
    this.hierarchy = hierarchy;
    int n = hierarchy.layerCount();
    sent = new long[n];
    needed = new long[n];
    sentUp = new long[n];
    neededUp = new long[n];
  }

  /**
   * Counts one dissemination; {@code interested}: the hosts whose subscriptions match the message
   * (the publisher is left out: it never gets its own message back).
   */
  public void add(Dissemination.Result r, BitSet interested) {
    BitSet want = (BitSet) interested.clone();
    want.clear(hierarchy.hostIndex(r.publisher()));
    messages++;
    for (Dissemination.Transmission t : r.transmissions()) {
      SwitchPort p = new SwitchPort(t.dpid(), t.port());
      int l = hierarchy.layerOf(t.dpid());
      boolean need = hierarchy.via(p).intersects(want);
      boolean up = hierarchy.isUpPort(p);
      sent[l]++;
      needed[l] += need ? 1 : 0;
      sentUp[l] += up ? 1 : 0;
      neededUp[l] += up && need ? 1 : 0;
    }
  }

  /** The messages counted. */
  public long messages() {
    return messages;
  }

  /** Per layer, bottom up. */
  public List<LayerTraffic> layers() {
    List<LayerTraffic> out = new ArrayList<>();
    for (int l = 0; l < sent.length; l++) {
      out.add(new LayerTraffic(hierarchy.layerName(l), sent[l], needed[l], sentUp[l], neededUp[l]));
    }
    return out;
  }
}
