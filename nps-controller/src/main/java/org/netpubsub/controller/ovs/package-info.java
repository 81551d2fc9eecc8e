/**
 * Driving a local Open vSwitch from Java for tests and benchmarks: throw-away bridges pointed at
 * this controller, table dumps through ovs-ofctl, and restarting ovs-vswitchd.
 */
package org.netpubsub.controller.ovs;
