// The commands that build a shaped link's namespaces (pure: names in, `ip`/`ethtool`/`sysctl` argument lists out).
//
// direct:  <p>-srv 10.99.0.1 <== veth ==> 10.99.0.2 <p>-cli            tbf on each end's egress
// routed:  <p>-srv 10.99.0.1 <== veth ==> <p>-rtr <== veth ==> 10.99.1.2 <p>-cli
//          The router forwards every packet arriving on its veths to a TUN device (policy routing: iif → table 100 →
//          default dev TUN), where tools/link-emulator delays or drops it and writes it back; the kernel then forwards
//          it by the main table. tbf sits on the router's egress veths, after the delay, so the bottleneck queue is in
//          the middle of the path as on a real network (not in the sender's own qdisc, where TCP would feel it
//          directly through local back-pressure).

/** @typedef {{ serverNs: string, clientNs: string, routerNs: string, serverDev: string, clientDev: string, routerServerDev: string, routerClientDev: string, tunDev: string }} LinkNames */
/** @typedef {[string, string[]]} Command */

/** Interface and namespace names for a prefix (≤ 10 chars, so every device name fits Linux's 15). @param {string} prefix */
export function linkNames(prefix) {
  if (!/^[a-z0-9]{1,10}$/.test(prefix)) throw new Error(`prefix must be 1-10 chars of [a-z0-9], got "${prefix}"`);
  return {
    serverNs: `${prefix}-srv`,
    clientNs: `${prefix}-cli`,
    routerNs: `${prefix}-rtr`,
    serverDev: `${prefix}-s`,
    clientDev: `${prefix}-c`,
    routerServerDev: `${prefix}-rs`,
    routerClientDev: `${prefix}-rc`,
    tunDev: `${prefix}-t`,
  };
}

/** Policy-routing table that sends forwarded packets to the TUN device. */
export const emulatorTable = '100';
// Per-netns TCP buffer limits for routed links: 32 MiB lets one stream fill 1 Gbit/s at 200 ms (a BDP of 25 MB);
// the defaults (4-6 MiB) cap a single stream at ~400 Mbit/s on an 80 ms path.
const tcpBuffers = '4096 131072 33554432';

/**
 * The end hosts' veths segment nothing themselves (TSO/GSO on): their TCP stacks hand 64 KB super-packets through
 * the router to the TUN device, and the emulator takes one read and one write per super-packet instead of per
 * 1500-byte segment (tools/link-emulator/README.md). GRO stays off: receivers see the segments tbf let through one
 * by one, as from a NIC without coalescing.
 * @param {string} ns @param {string} dev
 */
const endHostOffloads = (ns, dev) =>
  /** @type {Command} */ (['ip', ['netns', 'exec', ns, 'ethtool', '-K', dev, 'gso', 'on', 'tso', 'on', 'gro', 'off']]);

/**
 * The router's veths segment in software whatever tbf has not (tbf itself cuts a super-packet larger than its
 * burst into segments before it meters them), and never coalesce what they receive.
 * @param {string} ns @param {string} dev
 */
const offloadsOff = (ns, dev) =>
  /** @type {Command} */ ([
    'ip',
    ['netns', 'exec', ns, 'ethtool', '-K', dev, 'gso', 'off', 'tso', 'off', 'gro', 'off'],
  ]);

/**
 * @param {LinkNames} names
 * @returns {{ serverIp: string, clientIp: string, commands: Command[], shapers: { down: { ns: string, dev: string }, up: { ns: string, dev: string } } }}
 */
export function directTopology(names) {
  const serverIp = '10.99.0.1';
  const clientIp = '10.99.0.2';
  /** @type {Command[]} */
  const commands = [
    ['ip', ['netns', 'add', names.serverNs]],
    ['ip', ['netns', 'add', names.clientNs]],
    [
      'ip',
      [
        'link',
        'add',
        names.serverDev,
        'netns',
        names.serverNs,
        'type',
        'veth',
        'peer',
        'name',
        names.clientDev,
        'netns',
        names.clientNs,
      ],
    ],
  ];
  for (const [ns, dev, ip] of [
    [names.serverNs, names.serverDev, serverIp],
    [names.clientNs, names.clientDev, clientIp],
  ]) {
    commands.push(
      ['ip', ['-n', ns, 'addr', 'add', `${ip}/24`, 'dev', dev]],
      ['ip', ['-n', ns, 'link', 'set', dev, 'up']],
      ['ip', ['-n', ns, 'link', 'set', 'lo', 'up']],
      ['ip', ['netns', 'exec', ns, 'ethtool', '-K', dev, 'gso', 'off', 'tso', 'off']],
    );
  }
  return {
    serverIp,
    clientIp,
    commands,
    shapers: { down: { ns: names.serverNs, dev: names.serverDev }, up: { ns: names.clientNs, dev: names.clientDev } },
  };
}

/**
 * The three namespaces, the two veth pairs through the router, and forwarding on in the router.
 * @param {LinkNames} names
 * @returns {Command[]}
 */
function routedNamespaceCommands(names) {
  const { serverNs, clientNs, routerNs } = names;
  /** @type {Command[]} */
  const commands = [];
  for (const ns of [serverNs, routerNs, clientNs]) {
    commands.push(['ip', ['netns', 'add', ns]], ['ip', ['-n', ns, 'link', 'set', 'lo', 'up']]);
  }
  commands.push(
    [
      'ip',
      [
        'link',
        'add',
        names.serverDev,
        'netns',
        serverNs,
        'type',
        'veth',
        'peer',
        'name',
        names.routerServerDev,
        'netns',
        routerNs,
      ],
    ],
    [
      'ip',
      [
        'link',
        'add',
        names.clientDev,
        'netns',
        clientNs,
        'type',
        'veth',
        'peer',
        'name',
        names.routerClientDev,
        'netns',
        routerNs,
      ],
    ],
    // Forwarding on, reverse-path filtering off: re-injected packets arrive on the TUN device with foreign sources.
    [
      'ip',
      [
        'netns',
        'exec',
        routerNs,
        'sysctl',
        '-qw',
        'net.ipv4.ip_forward=1',
        'net.ipv4.conf.all.rp_filter=0',
        'net.ipv4.conf.default.rp_filter=0',
      ],
    ],
  );
  return commands;
}

/**
 * Server and client ends: address, default route via the router, TCP buffers.
 * @param {LinkNames} names
 * @returns {Command[]}
 */
function routedEndpointCommands(names) {
  const { serverNs, clientNs } = names;
  /** @type {Command[]} */
  const commands = [];
  for (const [ns, dev, address, gateway] of [
    [serverNs, names.serverDev, '10.99.0.1/24', '10.99.0.254'],
    [clientNs, names.clientDev, '10.99.1.2/24', '10.99.1.254'],
  ]) {
    commands.push(
      ['ip', ['-n', ns, 'addr', 'add', address, 'dev', dev]],
      ['ip', ['-n', ns, 'link', 'set', dev, 'up']],
      ['ip', ['-n', ns, 'route', 'add', 'default', 'via', gateway]],
      [
        'ip',
        ['netns', 'exec', ns, 'sysctl', '-qw', `net.ipv4.tcp_rmem=${tcpBuffers}`, `net.ipv4.tcp_wmem=${tcpBuffers}`],
      ],
    );
  }
  return commands;
}

/**
 * The router's veth addresses, offloads off on every veth end, and the TUN device with its routing table.
 * @param {LinkNames} names
 * @returns {Command[]}
 */
function routerCommands(names) {
  const { serverNs, clientNs, routerNs } = names;
  /** @type {Command[]} */
  const commands = [];
  for (const [dev, address] of [
    [names.routerServerDev, '10.99.0.254/24'],
    [names.routerClientDev, '10.99.1.254/24'],
  ]) {
    commands.push(
      ['ip', ['-n', routerNs, 'addr', 'add', address, 'dev', dev]],
      ['ip', ['-n', routerNs, 'link', 'set', dev, 'up']],
    );
  }
  commands.push(
    endHostOffloads(serverNs, names.serverDev),
    endHostOffloads(clientNs, names.clientDev),
    offloadsOff(routerNs, names.routerServerDev),
    offloadsOff(routerNs, names.routerClientDev),
    // A persistent TUN device: routes through it survive an emulator restart. A long queue, so a busy emulator
    // delays packets rather than the kernel dropping them before it reads them.
    ['ip', ['-n', routerNs, 'tuntap', 'add', 'dev', names.tunDev, 'mode', 'tun']],
    ['ip', ['-n', routerNs, 'link', 'set', names.tunDev, 'up', 'txqueuelen', '10000']],
    ['ip', ['netns', 'exec', routerNs, 'sysctl', '-qw', `net.ipv4.conf.${names.tunDev}.rp_filter=0`]],
    ['ip', ['-n', routerNs, 'route', 'add', 'default', 'dev', names.tunDev, 'table', emulatorTable]],
  );
  return commands;
}

/**
 * @param {LinkNames} names
 * @returns {{ serverIp: string, clientIp: string, clientNet: string, commands: Command[], shapers: { down: { ns: string, dev: string }, up: { ns: string, dev: string } } }}
 */
export function routedTopology(names) {
  const commands = [...routedNamespaceCommands(names), ...routedEndpointCommands(names), ...routerCommands(names)];
  return {
    serverIp: '10.99.0.1',
    clientIp: '10.99.1.2',
    clientNet: '10.99.1.0/24',
    commands,
    // Down is shaped where packets leave the router toward the client, up where they leave toward the server.
    shapers: {
      down: { ns: names.routerNs, dev: names.routerClientDev },
      up: { ns: names.routerNs, dev: names.routerServerDev },
    },
  };
}

/**
 * Commands that send (on = true) or stop sending (false) the router's forwarded packets through the emulator.
 * @param {LinkNames} names @param {boolean} on
 * @returns {Command[]}
 */
export function emulatorRuleCommands(names, on) {
  return [names.routerServerDev, names.routerClientDev].map((dev) => [
    'ip',
    ['-n', names.routerNs, 'rule', on ? 'add' : 'del', 'iif', dev, 'lookup', emulatorTable],
  ]);
}
