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

  /** Hosts when the user names none (PLEROMA: 16 end hosts; Camus ITCH: 200). */
  int defaultHosts();

  /** How subscriptions are divided among hosts when the user does not say. */
  HostAssignment defaultAssignment();

  Workload generate(WorkloadSpec spec);
}
