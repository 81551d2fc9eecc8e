package org.netpubsub.controller.southbound;

import java.util.List;
import java.util.function.Function;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowStats;
import org.netpubsub.network.openflow.GroupEntry;
import org.projectfloodlight.openflow.protocol.OFFlowStatsReply;
import org.projectfloodlight.openflow.protocol.OFGroupDescStatsReply;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPortDescStatsReply;
import org.projectfloodlight.openflow.protocol.OFPortStatsReply;
import org.projectfloodlight.openflow.protocol.OFStatsReply;
import org.projectfloodlight.openflow.types.OFGroup;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U64;

/**
 * A multipart request the southbound sends, and how to read the items of each reply part into the
 * model: flow-stats (every table), group-desc, port-desc, port-stats.
 */
record MultipartRequest<T>(
    long xid, String what, OFMessage request, Function<OFStatsReply, List<T>> items) {

  static MultipartRequest<FlowEntry> flowStats(long xid) {
    return new MultipartRequest<>(
        xid,
        "flow-stats request",
        flowStatsRequest(xid, 0, 0),
        r ->
            ((OFFlowStatsReply) r)
                .getEntries().stream().map(OpenFlowTranslator::fromStats).toList());
  }

  /** Flow-stats of the flows with exactly this cookie, with their packet counters. */
  static MultipartRequest<FlowStats> flowCounters(long xid, long cookie) {
    return new MultipartRequest<>(
        xid,
        "flow-stats request",
        flowStatsRequest(xid, cookie, -1L),
        r ->
            ((OFFlowStatsReply) r)
                .getEntries().stream()
                    .map(
                        e ->
                            new FlowStats(
                                OpenFlowTranslator.fromStats(e),
                                e.getPacketCount().getValue(),
                                e.getDurationSec()))
                    .toList());
  }

  /** Every table's flows whose cookie has {@code cookie}'s bits under {@code mask} (0: all). */
  private static OFMessage flowStatsRequest(long xid, long cookie, long mask) {
    return OpenFlowTranslator.OF13
        .buildFlowStatsRequest()
        .setXid(xid)
        .setTableId(TableId.ALL)
        .setOutPort(OFPort.ANY)
        .setOutGroup(OFGroup.ANY)
        .setCookie(U64.of(cookie))
        .setCookieMask(U64.of(mask))
        .setMatch(OpenFlowTranslator.OF13.buildMatch().build())
        .build();
  }

  static MultipartRequest<GroupEntry> groupDesc(long xid) {
    return new MultipartRequest<>(
        xid,
        "group-desc request",
        OpenFlowTranslator.OF13.buildGroupDescStatsRequest().setXid(xid).build(),
        r ->
            ((OFGroupDescStatsReply) r)
                .getEntries().stream().map(OpenFlowTranslator::fromGroupDesc).toList());
  }

  static MultipartRequest<PortCounters> portStats(long xid) {
    return new MultipartRequest<>(
        xid,
        "port-stats request",
        OpenFlowTranslator.OF13.buildPortStatsRequest().setXid(xid).setPortNo(OFPort.ANY).build(),
        r ->
            ((OFPortStatsReply) r)
                .getEntries().stream().map(OpenFlowTranslator::fromPortStats).toList());
  }

  static MultipartRequest<PortInfo> portDesc(long xid) {
    return new MultipartRequest<>(
        xid,
        "port-desc request",
        OpenFlowTranslator.OF13.buildPortDescStatsRequest().setXid(xid).build(),
        r ->
            ((OFPortDescStatsReply) r)
                .getEntries().stream().map(OpenFlowTranslator::fromOpenFlow).toList());
  }
}
