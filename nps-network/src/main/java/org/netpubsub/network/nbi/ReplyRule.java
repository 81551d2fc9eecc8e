package org.netpubsub.network.nbi;

import java.util.function.Predicate;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.discovery.NdCodec;
import org.netpubsub.network.discovery.NdMessage;

/**
 * EMD's REPLY set (Algorithm 1, lines 14–19): packet-ins simple enough that the core answers them
 * itself with a packet-out, so no app is bothered. The classifier only asks; building the answer is
 * the core's job.
 */
@FunctionalInterface
public interface ReplyRule {
  /** Answers nothing: every packet-in goes to the apps. */
  ReplyRule NONE = packet -> false;

  /** True if the core answers this packet-in itself. Must not throw, whatever the bytes. */
  boolean answers(PacketInView packet);

  /** Either rule answers. */
  default ReplyRule or(ReplyRule other) {
    return packet -> answers(packet) || other.answers(packet);
  }

  /**
   * A valid IPv6 neighbour solicitation (RFC 4861 checks, as {@link NdCodec#decode}) for a target
   * the controller knows: the core answers with the host's advertisement (proxy ND). Duplicate
   * address detection is left alone, since answering it would tell a host its address is taken.
   */
  static ReplyRule neighbourSolicitationFor(Predicate<Ipv6Address> knownHost) {
    return packet -> {
      if (packet.headers().icmpv6Type().orElse(-1) != NdMessage.Kind.SOLICITATION.icmpType()) {
        return false; // cheap test first: most packet-ins are not neighbour solicitations
      }
      return NdCodec.decode(packet.data())
          .toOptional()
          .filter(m -> m.kind() == NdMessage.Kind.SOLICITATION && !m.isDad())
          .filter(m -> knownHost.test(m.target()))
          .isPresent();
    };
  }
}
