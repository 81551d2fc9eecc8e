package org.netpubsub.cli;

import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.netpubsub.edge.link.LinkProfile;
import org.netpubsub.edge.link.WanEmulation;
import org.netpubsub.edge.overlay.ZnodeData;
import picocli.CommandLine.Option;

/** The overlay brokers' WAN emulation options, for experiments only (docs/overlay.md). */
final class WanEmulationOptions {
  @Option(
      names = "--emulate-wan",
      paramLabel = "SPEC",
      description =
          "Experiments only: emulate a WAN on every datagram sent, e.g. delay=30ms,jitter=5ms,loss=1%%.")
  String wan;

  @Option(
      names = "--emulate-link",
      paramLabel = "ADDR:PORT=SPEC",
      description = "Experiments only: emulation towards one destination (repeatable).")
  List<String> links = List.of();

  @Option(
      names = "--emulation-seed",
      defaultValue = "1",
      paramLabel = "N",
      description = "Seed of the emulated loss and jitter (default: ${DEFAULT-VALUE}).")
  long seed;

  /** The WAN emulation the options describe, or null (the production path). */
  WanEmulation emulation() {
    if (wan == null && links.isEmpty()) {
      return null;
    }
    LinkProfile defaults = wan == null ? LinkProfile.PERFECT : LinkProfile.parse(wan);
    Map<InetSocketAddress, LinkProfile> per = new HashMap<>();
    for (String l : links) {
      int eq = l.indexOf('=');
      if (eq < 1) {
        throw new IllegalArgumentException("--emulate-link needs ADDR:PORT=SPEC, not '" + l + "'");
      }
      per.put(ZnodeData.address(l.substring(0, eq)), LinkProfile.parse(l.substring(eq + 1)));
    }
    return new WanEmulation(defaults, per, seed);
  }
}
