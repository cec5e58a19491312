# SPDX-License-Identifier: BSD-3-Clause
# Two "hosts" on this machine for the benchmarks (sourced, not run): network
# namespaces $ns1 and $ns2 joined by a veth pair (10.199.0.1 and .2), and
# $net, an Open MPI mpirun that starts its ranks in them and talks TCP
# between them. Needs root; netns_up sets it up in $tmp, netns_down undoes it.
ns1="simpi-val-a"; ns2="simpi-val-b"
netns_down() {
  ip netns del $ns1 2>/dev/null || true
  ip netns del $ns2 2>/dev/null || true
}
netns_up() {
  netns_down
  ip netns add $ns1; ip netns add $ns2
  ip link add simpi-va type veth peer name simpi-vb
  ip link set simpi-va netns $ns1; ip link set simpi-vb netns $ns2
  ip -n $ns1 addr add 10.199.0.1/24 dev simpi-va; ip -n $ns2 addr add 10.199.0.2/24 dev simpi-vb
  for n in "$ns1" "$ns2"; do ip -n "$n" link set lo up; done
  ip -n $ns1 link set simpi-va up; ip -n $ns2 link set simpi-vb up
  # Open MPI starts its daemon on the other "host" through this agent
  cat > "$tmp/agent" <<AGENT
#!/bin/sh
host=\$1; shift
case "\$host" in 10.199.0.1) ns=$ns1 ;; *) ns=$ns2 ;; esac
exec ip netns exec \$ns sh -c "\$*"
AGENT
  chmod +x "$tmp/agent"
  printf '10.199.0.1 slots=1\n10.199.0.2 slots=1\n' > "$tmp/hosts"
  # --bind-to none: each "host" would bind its rank to core 0, both the same
  # core (a ping-pong then takes 4 ms: the scheduler's time slice)
  net="ip netns exec $ns1 mpirun --allow-run-as-root --oversubscribe --map-by slot --bind-to none
    --mca plm_rsh_agent $tmp/agent --mca btl tcp,self --mca btl_tcp_if_include 10.199.0.0/24
    --mca oob_tcp_if_include 10.199.0.0/24 -x PATH"
}
