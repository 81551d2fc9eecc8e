package org.netpubsub.network.openflow;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A throw-away Open vSwitch bridge for tests: userspace datapath, fail-mode secure, OpenFlow 1.3
 * only, ports with fixed OpenFlow numbers. Talks to OVS through ovs-vsctl, ovs-ofctl and ovs-appctl
 * (test code only: it runs processes).
 */
final class OvsBridge implements AutoCloseable {
  private static final Pattern OFP_ERROR =
      Pattern.compile("\\b(OFP(?:BRC|BAC|BIC|BMC|FMFC|GMFC)_[A-Z_]+)\\b");
  private static final long TIMEOUT_SECONDS =
      (long) (20 * Double.parseDouble(System.getProperty("nps.test.timeoutScale", "1")));

  final String name;
  private final Map<Long, Long> datapathToOpenFlow = new HashMap<>();
  private int processes;

  private OvsBridge(String name) {
    this.name = name;
  }

  /** The output of one process. */
  record Result(int exitCode, String stdout, String stderr) {}

  /** Starts Open vSwitch if it is not running; throws with a clear message if it cannot. */
  static void ensureRunning() {
    if (run(List.of("ovs-vsctl", "--timeout=5", "show")).exitCode() == 0) {
      return;
    }
    Result start =
        run(List.of("/usr/share/openvswitch/scripts/ovs-ctl", "start", "--system-id=random"));
    Result again = run(List.of("ovs-vsctl", "--timeout=5", "show"));
    if (again.exitCode() != 0) {
      throw new IllegalStateException(
          "Open vSwitch is not running and `ovs-ctl start` did not start it (run scripts/bootstrap"
              + " as root, or set -Dnps.skipOvs=true to skip this test):\n"
              + start.stdout()
              + start.stderr()
              + again.stderr());
    }
  }

  /**
   * Creates a bridge {@code npsd<random>} with ports 1..n ({@code type=internal}, tap devices on
   * the netdev datapath); the ports in {@code up} are brought up (OpenFlow state LIVE), the others
   * stay down.
   */
  static OvsBridge create(int ports, List<Integer> up) {
    String name = String.format("npsd%06x", ThreadLocalRandom.current().nextInt(1 << 24));
    OvsBridge b = new OvsBridge(name);
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
              "protocols=OpenFlow13"));
      for (int p = 1; p <= ports; p++) {
        String port = name + "-p" + p;
        cmd.addAll(List.of("--", "add-port", name, port));
        cmd.addAll(List.of("--", "set", "interface", port, "type=internal", "ofport_request=" + p));
      }
      b.check(cmd);
      for (int p : up) {
        b.check(List.of("ip", "link", "set", "dev", name + "-p" + p, "up"));
      }
      b.readDatapathPorts();
      return b;
    } catch (RuntimeException e) {
      b.close();
      throw e;
    }
  }

  /** Parses {@code ovs-appctl dpif/show}: lines {@code " NAME OFPORT/DPPORT: (tap)"}. */
  private void readDatapathPorts() {
    Pattern line = Pattern.compile("^\\s+(\\S+) (\\d+)/(\\d+):");
    boolean inBridge = false;
    for (String l : check(List.of("ovs-appctl", "dpif/show")).stdout().split("\n")) {
      if (l.matches("^  \\S+:$")) {
        inBridge = l.trim().equals(name + ":");
        continue;
      }
      Matcher m = line.matcher(l);
      if (inBridge && m.find()) {
        datapathToOpenFlow.put(Long.parseLong(m.group(3)), OfPort.parse(m.group(2)));
      }
    }
    if (!datapathToOpenFlow.containsValue(OfPort.LOCAL)) {
      throw new IllegalStateException("no datapath port numbers for " + name + " in dpif/show");
    }
  }

  Map<Long, Long> datapathToOpenFlow() {
    return datapathToOpenFlow;
  }

  /** Sends a flow-mod; the OpenFlow error name ovs-ofctl reports, if any. */
  Optional<String> apply(FlowMod fm) {
    List<String> cmd = ofctl();
    cmd.addAll(OvsFlowSyntax.ofctlCommand(fm));
    cmd.add(name);
    cmd.add(OvsFlowSyntax.flowMod(fm));
    return error(cmd);
  }

  /** Sends a group-mod; the OpenFlow error name ovs-ofctl reports, if any. */
  Optional<String> apply(GroupMod gm) {
    List<String> cmd = ofctl();
    cmd.add(OvsFlowSyntax.ofctlCommand(gm));
    cmd.add(name);
    cmd.add(OvsFlowSyntax.groupMod(gm));
    return error(cmd);
  }

  /**
   * Sends many flow-mods through one {@code ovs-ofctl add-flows} process: each line of its file is
   * a flow-mod with its command ({@code add}, {@code delete_strict}, …); fails on any error.
   */
  void applyBatch(List<FlowMod> mods) {
    if (mods.isEmpty()) {
      return;
    }
    List<String> lines = new ArrayList<>();
    for (FlowMod m : mods) {
      String command = m.command().name().toLowerCase(java.util.Locale.ROOT);
      lines.add(command + " " + OvsFlowSyntax.flowMod(m));
    }
    List<String> cmd = ofctl();
    cmd.addAll(List.of("add-flows", name, file(lines)));
    check(cmd);
  }

  /** Adds groups through one ovs-ofctl process. */
  void addGroups(List<GroupEntry> groups) {
    if (groups.isEmpty()) {
      return;
    }
    List<String> cmd = ofctl();
    cmd.addAll(
        List.of("add-groups", name, file(groups.stream().map(OvsFlowSyntax::group).toList())));
    check(cmd);
  }

  private static String file(List<String> lines) {
    try {
      java.nio.file.Path f = java.nio.file.Files.createTempFile("nps-ofctl-", ".txt");
      f.toFile().deleteOnExit();
      java.nio.file.Files.write(f, lines);
      return f.toString();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Runs an ovs-ofctl command: the last OpenFlow error name in its output (an error the switch
   * answered, or ovs-ofctl's own check of the same rule), or empty if it succeeded.
   */
  private Optional<String> error(List<String> cmd) {
    Result r = run(cmd);
    processes++;
    Matcher m = OFP_ERROR.matcher(r.stderr() + r.stdout());
    String last = null;
    while (m.find()) {
      last = m.group(1);
    }
    if (last == null && r.exitCode() != 0) {
      throw new IllegalStateException(
          "ovs-ofctl failed without an OpenFlow error: " + cmd + "\n" + r);
    }
    return Optional.ofNullable(last);
  }

  List<FlowEntry> dumpFlows() {
    List<String> cmd = ofctl();
    cmd.addAll(List.of("dump-flows", "--no-stats", "--no-names", name));
    List<FlowEntry> out = new ArrayList<>();
    for (String line : check(cmd).stdout().split("\n")) {
      if (!line.isBlank() && !line.startsWith("OFPST_FLOW")) {
        out.add(OvsFlowParser.parseFlow(line.trim()));
      }
    }
    return out;
  }

  List<GroupEntry> dumpGroups() {
    List<String> cmd = ofctl();
    cmd.addAll(List.of("dump-groups", "--no-names", name));
    List<GroupEntry> out = new ArrayList<>();
    for (String line : check(cmd).stdout().split("\n")) {
      if (!line.isBlank() && !line.startsWith("OFPST_GROUP")) {
        out.add(OvsFlowParser.parseGroup(line.trim()));
      }
    }
    return out;
  }

  /** The text of {@code ovs-appctl ofproto/trace} for the packet, with a fixed dp_hash. */
  String trace(long inPort, PacketHeaders h, long dpHash) {
    // A non-zero dp_hash makes OVS pick a select group's bucket at once instead of recirculating.
    String flow = "dp_hash=0x" + Long.toHexString(dpHash) + "," + OvsFlowSyntax.packet(inPort, h);
    return check(List.of("ovs-appctl", "ofproto/trace", name, flow)).stdout();
  }

  /** Deletes every flow and group. */
  void clear() {
    List<String> flows = ofctl();
    flows.addAll(List.of("del-flows", name));
    check(flows);
    List<String> groups = ofctl();
    groups.addAll(List.of("del-groups", name));
    check(groups);
  }

  int processes() {
    return processes;
  }

  private static List<String> ofctl() {
    return new ArrayList<>(List.of("ovs-ofctl", "-O", "OpenFlow13"));
  }

  private Result check(List<String> cmd) {
    Result r = run(cmd);
    processes++;
    if (r.exitCode() != 0) {
      throw new IllegalStateException("command failed: " + String.join(" ", cmd) + "\n" + r);
    }
    return r;
  }

  static Result run(List<String> cmd) {
    try {
      Process p = new ProcessBuilder(cmd).start();
      p.getOutputStream().close();
      // stderr is drained on its own thread so that neither pipe can fill up and block the child.
      var err = new java.util.concurrent.CompletableFuture<String>();
      Thread.ofVirtual().start(() -> err.complete(read(p.getErrorStream())));
      String out = read(p.getInputStream());
      if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException("timed out: " + cmd);
      }
      return new Result(p.exitValue(), out, err.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
    } catch (IOException e) {
      return new Result(127, "", cmd.get(0) + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String read(java.io.InputStream in) {
    try (in) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  /** Deletes the bridge (and its ports). */
  @Override
  public void close() {
    run(List.of("ovs-vsctl", "--timeout=20", "--if-exists", "del-br", name));
  }
}
