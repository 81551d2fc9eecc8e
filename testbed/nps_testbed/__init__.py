"""netpubsub test bed: emulated OpenFlow 1.3 networks (Mininet + Open vSwitch) to prove the controller on."""
