// The caller's address as the limits count it: an IPv4 address as it is, an IPv6 address by its
// /64 network. One IPv6 host usually holds a whole /64 and can send from any address in it, so
// counting single IPv6 addresses would give it a fresh count (and a fresh key) per request.
import net from 'node:net';

/** The eight 16-bit groups of an IPv6 address, or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  if (!net.isIPv6(address)) return null;
  const [head = '', tail] = address.split('::');
  const parse = (part: string) => (part ? part.split(':') : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  // An embedded IPv4 tail (::ffff:1.2.3.4) is two groups.
  const expand = (parts: string[]) =>
    parts.flatMap((part) => {
      if (!part.includes('.')) return [parseInt(part, 16)];
      const [a = 0, b = 0, c = 0, d = 0] = part.split('.').map(Number);
      return [(a << 8) | b, (c << 8) | d];
    });
  const l = expand(left);
  const r = expand(right);
  return [...l, ...Array<number>(8 - l.length - r.length).fill(0), ...r];
}

export function addressKey(address: string): string {
  const groups = ipv6Groups(address);
  if (!groups) return address;
  // An IPv4 address seen through an IPv6 socket (::ffff:a.b.c.d) is that IPv4 address.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi = 0, lo = 0] = groups.slice(6);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
