/**
 * The flow service between the controller's apps and the switches (ONOS's FlowRuleService and
 * FlowRuleStore as model): apps depend on {@link org.netpubsub.controller.flows.FlowService}, write
 * their deltas into a per-owner {@link org.netpubsub.controller.flows.FlowStore} inside their
 * {@link org.netpubsub.network.layout.SwitchLayout} space, and reconciling reads the store. Below
 * the apps ({@code app}, {@code pubsub}, {@code multicast}); depends on {@code southbound} and
 * nps-network only.
 */
package org.netpubsub.controller.flows;
