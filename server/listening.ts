// The start line of the log: where the server really listens, and the addresses that reach it.
import type { AddressInfo } from 'node:net';
import os from 'node:os';

const url = (address: string, port: number) =>
  address.includes(':') ? `http://[${address}]:${port}` : `http://${address}:${port}`;

/**
 * "Server listening on …" for the sockets `app.addresses()` lists. A wildcard address (0.0.0.0,
 * ::) is named as such, with the address of each interface it reaches (link-local IPv6 addresses
 * left out: they need a zone to be used); any other address is its URL, a socket file its path.
 */
export function listeningMessage(
  sockets: readonly (AddressInfo | string)[],
  interfaces: NodeJS.Dict<os.NetworkInterfaceInfo[]> = os.networkInterfaces(),
): string {
  const local = Object.values(interfaces)
    .flatMap((list) => list ?? [])
    .filter((info) => !(info.family === 'IPv6' && info.address.startsWith('fe80:')));
  const parts = sockets.map((socket) => {
    if (typeof socket === 'string') return socket;
    const { address, port, family } = socket;
    if (address !== '0.0.0.0' && address !== '::') return url(address, port);
    // An IPv6 wildcard socket takes IPv4 connections too (Node listens dual-stack by default).
    const reached = local.filter((info) => family === 'IPv6' || info.family === 'IPv4');
    const which = family === 'IPv6' ? 'every interface' : 'every IPv4 interface';
    const urls = reached.map((info) => url(info.address, port));
    const bound = family === 'IPv6' ? `[${address}]:${port}` : `${address}:${port}`;
    return `${bound} (${which}: ${urls.join(', ')})`;
  });
  return `Server listening on ${parts.join('; ')}`;
}
