/** Controller apps that run on the northbound bus. */
package org.netpubsub.controller.nbi.apps;
