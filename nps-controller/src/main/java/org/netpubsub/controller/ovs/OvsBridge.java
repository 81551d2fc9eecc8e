package org.netpubsub.controller.ovs;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.OvsFlowParser;

/**
 * A throw-away Open vSwitch bridge managed by an OpenFlow controller: userspace datapath ({@code
 * datapath_type=netdev}), {@code fail-mode=secure}, OpenFlow 1.3 only, a fixed random datapath id
 * (so it survives a restart of ovs-vswitchd), internal ports 1..n with fixed OpenFlow numbers, and
 * the controller {@code tcp:HOST:PORT}. {@link #close} deletes it.
 */
public final class OvsBridge implements AutoCloseable {
  private final String name;
  private final long datapathId;

  private OvsBridge(String name, long datapathId) {
    this.name = name;
    this.datapathId = datapathId;
  }

  /** Creates {@code <prefix><6 hex digits>} with {@code ports} internal ports, up. */
  public static OvsBridge create(
      String prefix, int ports, String controllerHost, int controllerPort) {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    String name = String.format("%s%06x", prefix, r.nextInt(1 << 24));
    long dpid = 0x00aa_0000_0000_0000L | (r.nextLong() & 0xffff_ffff_ffffL);
    OvsBridge b = new OvsBridge(name, dpid);
    try {
      List<String> cmd = new ArrayList<>(List.of("ovs-vsctl", "--timeout=20", "add-br", name));
      cmd.addAll(
          List.of(
              "--",
              "set",
              "bridge",
              name,
              "datapath_type=netdev",
              "fail-mode=secure",
              "protocols=OpenFlow13",
              String.format("other-config:datapath-id=%016x", dpid),
              "other-config:disable-in-band=true"));
      for (int p = 1; p <= ports; p++) {
        String port = name + "-p" + p;
        cmd.addAll(List.of("--", "add-port", name, port));
        cmd.addAll(List.of("--", "set", "interface", port, "type=internal", "ofport_request=" + p));
      }
      cmd.addAll(
          List.of("--", "set-controller", name, "tcp:" + controllerHost + ":" + controllerPort));
      OvsCommands.check(cmd);
      for (int p = 1; p <= ports; p++) {
        OvsCommands.check(List.of("ip", "link", "set", "dev", name + "-p" + p, "up"));
      }
      return b;
    } catch (RuntimeException e) {
      b.close();
      throw e;
    }
  }

  public String name() {
    return name;
  }

  /** The datapath id set on the bridge at creation. */
  public long datapathId() {
    return datapathId;
  }

  /** The datapath id as ovs-vsctl reports it ({@code get bridge NAME datapath-id}). */
  public long reportedDatapathId() {
    String out =
        OvsCommands.check(
            List.of("ovs-vsctl", "--timeout=10", "get", "bridge", name, "datapath-id"));
    return Long.parseUnsignedLong(out.trim().replace("\"", ""), 16);
  }

  /** {@code ovs-ofctl -O OpenFlow13 dump-flows}, parsed (statistics dropped). */
  public List<FlowEntry> dumpFlows() {
    List<FlowEntry> out = new ArrayList<>();
    String text =
        OvsCommands.check(
            List.of(
                "ovs-ofctl", "-O", "OpenFlow13", "dump-flows", "--no-stats", "--no-names", name));
    for (String line : text.split("\n")) {
      if (!line.isBlank() && !line.startsWith("OFPST_FLOW")) {
        out.add(OvsFlowParser.parseFlow(line.trim()));
      }
    }
    return out;
  }

  /** {@code ovs-ofctl -O OpenFlow13 dump-groups}, parsed. */
  public List<GroupEntry> dumpGroups() {
    List<GroupEntry> out = new ArrayList<>();
    String text =
        OvsCommands.check(
            List.of("ovs-ofctl", "-O", "OpenFlow13", "dump-groups", "--no-names", name));
    for (String line : text.split("\n")) {
      if (!line.isBlank() && !line.startsWith("OFPST_GROUP")) {
        out.add(OvsFlowParser.parseGroup(line.trim()));
      }
    }
    return out;
  }

  /** Deletes the bridge and its ports (no error if it is gone). */
  @Override
  public void close() {
    OvsCommands.run(List.of("ovs-vsctl", "--timeout=20", "--if-exists", "del-br", name));
  }
}
