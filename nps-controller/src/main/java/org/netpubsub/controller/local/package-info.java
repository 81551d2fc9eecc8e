/**
 * {@code nps local}: the controller with an embedded software network and no root. Simulated
 * OpenFlow switches (the controller's own switch model) connect to the controller over loopback
 * TCP, and a loopback UDP data plane runs every event through their flow tables (docs/local.md).
 */
package org.netpubsub.controller.local;
