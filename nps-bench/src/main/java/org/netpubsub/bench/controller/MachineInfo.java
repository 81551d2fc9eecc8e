package org.netpubsub.bench.controller;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.netpubsub.controller.ovs.OvsCommands;

/** The machine a benchmark ran on: cores, CPU model, JDK, Open vSwitch version. */
public final class MachineInfo {
  private MachineInfo() {}

  public static Map<String, Object> describe() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("nproc", Runtime.getRuntime().availableProcessors());
    m.put("cpu", cpuModel());
    m.put("java", System.getProperty("java.vm.name") + " " + Runtime.version());
    m.put("ovs", OvsCommands.version());
    return m;
  }

  static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException e) {
      // not Linux
    }
    return System.getProperty("os.arch");
  }
}
