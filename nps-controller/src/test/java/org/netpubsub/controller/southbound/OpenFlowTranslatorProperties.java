package org.netpubsub.controller.southbound;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.GroupMod;
import org.netpubsub.network.openflow.OpenFlowError;
import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFlowMod;
import org.projectfloodlight.openflow.protocol.OFFlowStatsReply;
import org.projectfloodlight.openflow.protocol.OFGroupDescStatsReply;
import org.projectfloodlight.openflow.protocol.OFGroupMod;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFStatsReplyFlags;

/**
 * Round trips through the wire: model → openflowj → bytes (Netty 4.1 ByteBuf) → openflowj → model
 * gives back the same value, for flow-mods, flow-stats entries, group-mods, group-desc entries and
 * errors.
 */
class OpenFlowTranslatorProperties {

  static OFMessage throughBytes(OFMessage m) {
    ByteBuf buf = Unpooled.buffer();
    try {
      m.writeTo(buf);
      assertThat(buf.getUnsignedShort(2)).as("length field").isEqualTo(buf.readableBytes());
      OFMessage back = OFFactories.getGenericReader().readFrom(buf);
      assertThat(buf.readableBytes()).as("bytes left after decoding").isZero();
      return back;
    } catch (org.projectfloodlight.openflow.exceptions.OFParseError e) {
      throw new AssertionError(e);
    } finally {
      buf.release();
    }
  }

  @Property(tries = 500)
  void flowModRoundTrip(@ForAll long seed) {
    FlowMod fm = new RandomModel(seed).anyFlowMod();
    OFMessage back = throughBytes(OpenFlowTranslator.toOpenFlow(fm, seed & 0xffffffffL));
    assertThat(back.getXid()).isEqualTo(seed & 0xffffffffL);
    assertThat(OpenFlowTranslator.fromOpenFlow((OFFlowMod) back)).isEqualTo(fm);
  }

  @Property(tries = 500)
  void flowEntryRoundTripViaStatsReply(@ForAll long seed) {
    RandomModel r = new RandomModel(seed);
    List<FlowEntry> entries = List.of(r.anyFlowEntry(), r.anyFlowEntry(), r.anyFlowEntry());
    OFFlowStatsReply reply =
        OpenFlowTranslator.OF13
            .buildFlowStatsReply()
            .setXid(7)
            .setFlags(java.util.Set.of(OFStatsReplyFlags.REPLY_MORE))
            .setEntries(entries.stream().map(e -> OpenFlowTranslator.toStats(e, 5, 17)).toList())
            .build();
    OFFlowStatsReply back = (OFFlowStatsReply) throughBytes(reply);
    assertThat(back.getFlags()).containsExactly(OFStatsReplyFlags.REPLY_MORE);
    assertThat(back.getEntries().stream().map(OpenFlowTranslator::fromStats).toList())
        .isEqualTo(entries);
  }

  @Property(tries = 300)
  void groupModRoundTrip(@ForAll long seed) {
    GroupMod gm = new RandomModel(seed).anyGroupMod();
    OFMessage back = throughBytes(OpenFlowTranslator.toOpenFlow(gm, 3));
    assertThat(OpenFlowTranslator.fromOpenFlow((OFGroupMod) back)).isEqualTo(gm);
  }

  @Property(tries = 300)
  void groupEntryRoundTripViaGroupDescReply(@ForAll long seed) {
    GroupMod gm = new RandomModel(seed).anyGroupMod();
    GroupEntry g = new GroupEntry(gm.groupId() % (GroupEntry.MAX + 1), gm.type(), gm.buckets());
    OFGroupDescStatsReply reply =
        OpenFlowTranslator.OF13
            .buildGroupDescStatsReply()
            .setEntries(List.of(OpenFlowTranslator.toGroupDesc(g)))
            .build();
    OFGroupDescStatsReply back = (OFGroupDescStatsReply) throughBytes(reply);
    assertThat(OpenFlowTranslator.fromGroupDesc(back.getEntries().get(0))).isEqualTo(g);
  }

  @Property(tries = 100)
  void errorRoundTrip(@ForAll long seed) {
    OpenFlowError[] all = OpenFlowError.values();
    OpenFlowError e = all[(int) Math.floorMod(seed, (long) all.length)];
    byte[] data = {4, 14, 0, 8, 0, 0, 0, 9};
    OFMessage back = throughBytes(OpenFlowTranslator.toOpenFlow(e, 9, data));
    SwitchError err = OpenFlowTranslator.fromOpenFlow((OFErrorMsg) back);
    assertThat(back.getXid()).isEqualTo(9);
    assertThat(err.known()).contains(e);
    assertThat(err.type()).isEqualTo(e.typeNumber());
    assertThat(err.code()).isEqualTo(e.code());
    assertThat(err.data()).isEqualTo(data);
  }
}
