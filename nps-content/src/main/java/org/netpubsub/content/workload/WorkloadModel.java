package org.netpubsub.content.workload;

import org.netpubsub.content.schema.Schema;

/**
 * A seeded workload generator: from a {@link WorkloadSpec} it produces the same {@link Workload},
 * byte for byte, every time. Implementations: {@link UniformModel}, {@link ZipfModel}, {@link
 * SsbgModel}, {@link ItchModel}.
 */
public interface WorkloadModel {
  /** The model's name as the CLI spells it ({@code uniform}, {@code zipf}, ...). */
  String name();

  /** The schema of the generated events; it does not depend on the seed. */
  Schema schema();

  /** Hosts when the user names none: 16 end hosts as in PLEROMA, unless a model says otherwise. */
  default int defaultHosts() {
    return 16;
  }

  /** How subscriptions are divided among hosts when the user does not say: round-robin. */
  default HostAssignment defaultAssignment() {
    return HostAssignment.ROUND_ROBIN;
  }

  Workload generate(WorkloadSpec spec);
}
