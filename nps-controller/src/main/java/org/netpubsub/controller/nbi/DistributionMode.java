package org.netpubsub.controller.nbi;

/** How the bus hands packet-ins to apps. */
public enum DistributionMode {
  /** Every app gets every packet-in, as Ryu and ONOS do: the baseline EMD is measured against. */
  BROADCAST,
  /** Each packet-in goes only to the apps whose topics it matches (EMD Algorithm 1). */
  CLASSIFIED
}
