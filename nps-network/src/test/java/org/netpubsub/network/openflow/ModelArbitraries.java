package org.netpubsub.network.openflow;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import org.netpubsub.content.address.Ipv6Address;

/** jqwik generators of arbitrary model values (for syntax round trips). */
final class ModelArbitraries {
  private ModelArbitraries() {}

  static Arbitrary<Ipv6Address> addresses() {
    return Arbitraries.oneOf(
        Combinators.combine(Arbitraries.longs(), Arbitraries.longs()).as(Ipv6Address::new),
        Arbitraries.integers().between(0, 0xffff).map(i -> new Ipv6Address(0xff0eL << 48, i)));
  }

  static Arbitrary<MaskedIpv6> masked() {
    return Combinators.combine(
            addresses(),
            Arbitraries.oneOf(
                Arbitraries.integers().between(1, 128).map(Ipv6Address::prefixMask), addresses()))
        .as(MaskedIpv6::of);
  }

  /** Physical ports (below OpenFlow 1.0's reserved range, which ovs-ofctl reinterprets). */
  static Arbitrary<Long> ports() {
    return Arbitraries.oneOf(
        Arbitraries.longs().between(1, 0xfeff),
        Arbitraries.of(
            OfPort.IN_PORT,
            OfPort.ALL,
            OfPort.FLOOD,
            OfPort.CONTROLLER,
            OfPort.LOCAL,
            OfPort.NORMAL));
  }

  static Arbitrary<Match> matches() {
    Arbitrary<Integer> u16 = Arbitraries.integers().between(0, 0xffff);
    return Combinators.combine(
            ports().filter(p -> OfPort.isPhysicalOrLocal(p)).injectNull(0.6),
            Arbitraries.of(0x86dd, 0x0800, 0x0806).injectNull(0.3),
            masked().injectNull(0.5),
            masked().injectNull(0.5),
            Arbitraries.of(17, 6, 58, 1, 132, 0).injectNull(0.4),
            u16.injectNull(0.6),
            u16.injectNull(0.6),
            Combinators.combine(Arbitraries.longs(), Arbitraries.longs())
                .as(MaskedLong::new)
                .injectNull(0.5))
        .as(Match::new);
  }

  static Arbitrary<Action> actions() {
    return Arbitraries.oneOf(
        ports().map(Action::output),
        Arbitraries.integers().between(0, 0xffff).map(n -> new Action.Output(OfPort.CONTROLLER, n)),
        Arbitraries.longs().between(0, GroupEntry.MAX).map(Action::group),
        addresses().map(Action.SetIpv6Dst::new),
        addresses().map(Action.SetIpv6Src::new),
        Arbitraries.integers().between(0, 0xffff).map(Action.SetUdpDst::new),
        Arbitraries.integers().between(0, 0xffff).map(Action.SetUdpSrc::new),
        Arbitraries.longs().between(0, 0xffff_ffff_ffffL).map(Action.SetEthDst::new));
  }

  static Arbitrary<List<Instruction>> instructions() {
    Arbitrary<List<Action>> list = actions().list().ofMaxSize(4);
    return Combinators.combine(
            list.injectNull(0.3),
            Arbitraries.of(true, false),
            list.injectNull(0.5),
            Combinators.combine(Arbitraries.longs(), Arbitraries.longs())
                .as(Instruction.WriteMetadata::new)
                .injectNull(0.6),
            Arbitraries.integers().between(1, 254).injectNull(0.5))
        .as(
            (apply, clear, write, metadata, gotoTable) -> {
              List<Instruction> out = new ArrayList<>();
              if (apply != null) {
                out.add(new Instruction.ApplyActions(apply));
              }
              if (clear) {
                out.add(Instruction.clearActions());
              }
              if (write != null) {
                out.add(new Instruction.WriteActions(write));
              }
              if (metadata != null) {
                out.add(metadata);
              }
              if (gotoTable != null) {
                out.add(Instruction.gotoTable(gotoTable));
              }
              return out;
            });
  }

  static Arbitrary<FlowEntry> flows() {
    return Combinators.combine(
            Arbitraries.integers().between(0, 254),
            Arbitraries.integers().between(0, 0xffff),
            matches(),
            instructions(),
            Arbitraries.longs(),
            Arbitraries.subsetOf(FlowFlag.values()),
            Arbitraries.integers().between(0, 0xffff),
            Arbitraries.integers().between(0, 0xffff))
        .as(
            (table, priority, match, instructions, cookie, flags, idle, hard) ->
                new FlowEntry(
                    table,
                    priority,
                    match,
                    instructions,
                    cookie,
                    flags.isEmpty() ? EnumSet.noneOf(FlowFlag.class) : EnumSet.copyOf(flags),
                    idle,
                    hard));
  }

  static Arbitrary<GroupEntry> groups() {
    return Arbitraries.of(GroupType.values())
        .flatMap(
            type ->
                Combinators.combine(
                        Arbitraries.longs().between(0, GroupEntry.MAX),
                        bucket(type).list().ofMaxSize(3))
                    .as((id, buckets) -> new GroupEntry(id, type, buckets)));
  }

  private static Arbitrary<Bucket> bucket(GroupType type) {
    return Combinators.combine(
            type == GroupType.SELECT
                ? Arbitraries.integers().between(0, 0xffff)
                : Arbitraries.just(0),
            ports().filter(OfPort::isPhysicalOrLocal).injectNull(0.5),
            Arbitraries.longs().between(0, GroupEntry.MAX).injectNull(0.5),
            actions().list().ofMaxSize(3))
        .as(
            (weight, watchPort, watchGroup, actions) ->
                new Bucket(
                    weight,
                    watchPort == null ? OfPort.ANY : watchPort,
                    watchGroup == null ? FlowMod.ANY_GROUP : watchGroup,
                    actions));
  }
}
