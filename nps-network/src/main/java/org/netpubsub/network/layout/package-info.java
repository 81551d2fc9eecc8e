/**
 * The switch layout (Faucet's {@code faucet_pipeline.py} as model): who owns which tables, priority
 * band, cookies and group ids of a switch, declared once in {@link
 * org.netpubsub.network.layout.SwitchLayout}. Depends on the OpenFlow model only.
 */
package org.netpubsub.network.layout;
