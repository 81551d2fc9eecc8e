/**
 * The northbound bus as pure code, after EMD (Wang, Ni, Liu 2021; {@code
 * ../shared/papers/emd.txt}): apps subscribe to {@link org.netpubsub.network.nbi.NbiTopic}s
 * (OpenFlow match fields or offset/length/mask byte patterns), and the {@link
 * org.netpubsub.network.nbi.TopicClassifier} hands each packet-in only to the apps whose topics it
 * matches (Algorithm 1). Answers come back through two checks (Algorithm 2): {@link
 * org.netpubsub.network.nbi.MultiAppRecord} drops duplicate packet-outs for packet-ins several apps
 * got, and {@link org.netpubsub.network.nbi.InvariantChecker} refuses route changes that would make
 * traffic loop or vanish. No I/O, no threads, no clock; the runtime that carries messages lives in
 * nps-controller. See docs/northbound.md.
 */
package org.netpubsub.network.nbi;
