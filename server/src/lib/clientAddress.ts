import net from 'node:net';

/**
 * The key a client address is counted under by every rate limit (sign-in failures, the database
 * counters, the per-minute ceiling of the whole API).
 *
 * One person usually holds a whole IPv6 /64 (often a /56 or /48): keyed by the full address, a
 * single client would have 2^64 fresh buckets. So an IPv6 address counts as its /64, written
 * `2001:db8:0:12::/64` (the first four groups, lower case, no leading zeros). An IPv4 address
 * wrapped in IPv6 (`::ffff:192.0.2.7`, `::ffff:c000:207`, as a dual-stack socket reports IPv4
 * clients) counts as that IPv4 address, and an IPv4 address as itself. Anything that is not an IP
 * address (there should be none) is kept as it is, cut to 64 characters.
 */
export function addressKey(address: string): string {
  const trimmed = address.trim();
  const bare = trimmed.startsWith('[') && trimmed.endsWith(']') ? trimmed.slice(1, -1) : trimmed;
  const kind = net.isIP(bare);
  if (kind === 4) return bare;
  if (kind !== 6) return trimmed.slice(0, 64);
  const groups = ipv6Groups(bare);
  if (!groups) return trimmed.slice(0, 64);
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (a zone and an IPv4 tail allowed); null if it is not one. */
function ipv6Groups(address: string): number[] | null {
  let text = address.split('%')[0]!.toLowerCase();
  // An IPv4 tail (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) becomes its two groups.
  const tail = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const part = (half: string) => (half === '' ? [] : half.split(':').map((group) => Number.parseInt(group, 16)));
  const head = part(halves[0]!);
  const rest = halves.length === 2 ? part(halves[1]!) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return null;
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...rest];
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : null;
}
