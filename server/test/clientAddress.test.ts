import fc from 'fast-check';
import { addressKey } from '../src/lib/clientAddress';

const group = fc.integer({ min: 0, max: 0xffff });
const groups = (count: number) => fc.array(group, { minLength: count, maxLength: count });

/** Writes eight groups the ways a socket or a proxy header may: full, zero-padded, compressed, upper case. */
function write(parts: number[], style: number): string {
  const hex = parts.map((part) => part.toString(16));
  switch (style % 4) {
    case 0:
      return hex.join(':');
    case 1:
      return parts.map((part) => part.toString(16).padStart(4, '0')).join(':');
    case 2: {
      // The longest run of zero groups as "::" (the canonical form), when there is one.
      let best = [-1, 0];
      for (let start = 0; start < 8; start++) {
        let end = start;
        while (end < 8 && parts[end] === 0) end++;
        if (end - start > best[1]!) best = [start, end - start];
      }
      if (best[1]! < 2) return hex.join(':');
      return `${hex.slice(0, best[0]).join(':')}::${hex.slice(best[0]! + best[1]!).join(':')}`;
    }
    default:
      return hex.join(':').toUpperCase();
  }
}

describe('addressKey: one key per IPv4 address and per IPv6 /64', () => {
  test('every address of one /64 has the same key, however it is written', () => {
    fc.assert(
      fc.property(groups(4), groups(4), groups(4), fc.nat(), fc.nat(), (prefix, one, two, styleOne, styleTwo) => {
        fc.pre(!(prefix.every((part) => part === 0) && one[0] === 0 && one[1] === 0xffff));
        fc.pre(!(prefix.every((part) => part === 0) && two[0] === 0 && two[1] === 0xffff));
        expect(addressKey(write([...prefix, ...one], styleOne))).toBe(addressKey(write([...prefix, ...two], styleTwo)));
      }),
      { numRuns: 500 },
    );
  });

  test('addresses of different /64s have different keys', () => {
    fc.assert(
      fc.property(groups(4), groups(4), groups(4), fc.nat(), (first, second, suffix, style) => {
        fc.pre(first.join() !== second.join());
        expect(addressKey(write([...first, ...suffix], style))).not.toBe(addressKey(write([...second, ...suffix], style)));
      }),
      { numRuns: 500 },
    );
  });

  test("fast-check's IPv6 addresses: the key is the /64 and never the whole address", () => {
    fc.assert(
      fc.property(fc.ipV6(), (address) => {
        const key = addressKey(address);
        if (key.includes('.')) return; // ::ffff:a.b.c.d, checked below
        expect(key).toMatch(/^([0-9a-f]{1,4}:){4}:\/64$/);
      }),
      { numRuns: 500 },
    );
  });

  test('an IPv4 address is its own key, and the same address wrapped in IPv6 has that key too', () => {
    fc.assert(
      fc.property(fc.ipV4(), (address) => {
        expect(addressKey(address)).toBe(address);
        expect(addressKey(`::ffff:${address}`)).toBe(address);
        expect(addressKey(`::FFFF:${address}`)).toBe(address);
        const [a, b, c, d] = address.split('.').map(Number) as [number, number, number, number];
        const hex = `::ffff:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
        expect(addressKey(hex)).toBe(address);
        expect(addressKey(`0:0:0:0:0:ffff:${address}`)).toBe(address);
      }),
      { numRuns: 500 },
    );
  });

  test('examples', () => {
    expect(addressKey('127.0.0.1')).toBe('127.0.0.1');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('2001:db8:0:12:aaaa::1')).toBe('2001:db8:0:12::/64');
    expect(addressKey('2001:0DB8:0000:0012:ffff:ffff:ffff:ffff')).toBe('2001:db8:0:12::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::ffff:127.0.0.2')).toBe('127.0.0.2');
    expect(addressKey('2001:db8:0:13::1')).not.toBe(addressKey('2001:db8:0:12::1'));
    expect(addressKey('not an address')).toBe('not an address');
  });
});
