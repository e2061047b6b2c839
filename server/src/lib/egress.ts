import dns from 'node:dns';
import net from 'node:net';
import { Agent, buildConnector, fetch as undiciFetch, type Dispatcher, type RequestInit, type Response } from 'undici';
import { findCause } from './errorCause';

/**
 * Outbound requests to addresses a user typed (a chat-model base URL, speech and image servers, a
 * webhook, a proxy) must not reach this server's own network: loopback, private ranges, link-local
 * (cloud metadata at 169.254.169.254 among them), unspecified and multicast addresses are refused,
 * checked where the connection is made, after DNS resolution, so a name that resolves to a private
 * address (or changes its answer between a check and the connection) cannot slip through. Hosts
 * written in odd forms (2130706433, 0x7f.0.0.1, 127.1) are already normalised by the URL parser
 * to 127.0.0.1 before they get here. An operator who runs a model server on the local network
 * allows it with ALLOW_PRIVATE_URLS=true. The operator's own settings (OPENAI_BASE_URL and the other
 * *_URL variables) do not go through here.
 */

export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKEDADDRESS';
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} (${address}) is not a public address`);
    this.name = 'BlockedAddressError';
  }
}

const blocked = new net.BlockList();
for (const [subnet, bits] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(subnet, bits, 'ipv4');
}
for (const [subnet, bits] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(subnet, bits, 'ipv6');
}

/** The IPv4 address an IPv6 one carries (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16), if any. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  const groups = expandIpv6(lower);
  if (!groups) return null;
  const toIpv4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) return toIpv4(groups[6]!, groups[7]!);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0))
    return toIpv4(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return toIpv4(groups[1]!, groups[2]!);
  return null;
}

/** The eight 16-bit groups of an IPv6 address (no embedded dotted part), or null. */
function expandIpv6(address: string): number[] | null {
  if (address.includes('.')) return null;
  const [head, tail] = address.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const groups = tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/** True for an address a user's URL may not reach (see the top of this file). */
export function isBlockedAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const ipv4 = embeddedIpv4(address);
    if (ipv4 !== null) return blocked.check(ipv4, 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** A `lookup` for net.connect that resolves as usual and refuses names that lead to a blocked address. */
export function publicOnlyLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const bad = addresses.find((entry) => isBlockedAddress(entry.address));
    if (bad) return callback(new BlockedAddressError(hostname, bad.address) as unknown as NodeJS.ErrnoException, []);
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
    return callback(null, first.address, first.family);
  });
}

/**
 * The address to connect to for `host` (a name or an IP literal, without brackets): an IP literal
 * as it is, a name resolved now; throws BlockedAddressError when it (or any of the name's
 * addresses) may not be reached. A connection through a proxy is made to the answer, never to the
 * name, so the proxy cannot resolve the name again to another address (providers/proxies.ts proxyDispatcher).
 */
export async function publicAddressOf(host: string): Promise<string> {
  if (net.isIP(host)) {
    if (isBlockedAddress(host)) throw new BlockedAddressError(host, host);
    return host;
  }
  const addresses = await dns.promises.lookup(host, { all: true });
  const bad = addresses.find((entry) => isBlockedAddress(entry.address));
  if (bad) throw new BlockedAddressError(host, bad.address);
  const first = addresses[0];
  if (!first) throw Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' });
  return first.address;
}

/** Checks a URL's host now (the proxy a run leaves through, a media server before a run uses it). Throws BlockedAddressError. */
export async function assertPublicUrl(url: string | URL): Promise<void> {
  const { hostname } = new URL(url);
  await publicAddressOf(hostname.replace(/^\[|\]$/g, ''));
}

let sharedAgent: Agent | undefined;

/**
 * An undici dispatcher whose connections reach public addresses only: IP literals are checked
 * before connecting, names after resolving (publicOnlyLookup). Shared by every user call. Every
 * connection is checked, so a redirect to a private address fails like a first request would.
 */
export function publicOnlyDispatcher(): Dispatcher {
  if (!sharedAgent) {
    const connector = buildConnector({ lookup: publicOnlyLookup } as buildConnector.BuildOptions);
    sharedAgent = new Agent({
      connect: (options, callback) => {
        const host = options.hostname.replace(/^\[|\]$/g, '');
        if (net.isIP(host) && isBlockedAddress(host)) {
          callback(new BlockedAddressError(host, host), null);
          return;
        }
        connector(options, callback);
      },
    });
  }
  return sharedAgent;
}

/**
 * A proxy's dispatcher that has a twin for users' addresses (providers/proxies.ts proxyDispatcher makes
 * them): the twin resolves each target itself, refuses private addresses, and asks the proxy for
 * the checked IP, on every connection (redirects included).
 */
export interface PublicOnlyCapable {
  publicOnly(): Dispatcher;
}

function publicOnlyTwin(proxy: Dispatcher): Dispatcher | undefined {
  const twin = (proxy as Partial<PublicOnlyCapable>).publicOnly;
  return typeof twin === 'function' ? twin.call(proxy) : undefined;
}

/**
 * The dispatcher for a request to a user's URL: through the run's proxy, to checked public
 * addresses only (its public-only twin), else straight but to public addresses only; anything
 * goes when the operator allowed private addresses. Each connection is checked, so every hop of
 * a redirect is too.
 */
export function userDispatcher(options: { allowPrivate: boolean; proxy?: Dispatcher | undefined }): Dispatcher | undefined {
  if (options.proxy) return options.allowPrivate ? options.proxy : (publicOnlyTwin(options.proxy) ?? options.proxy);
  return options.allowPrivate ? undefined : publicOnlyDispatcher();
}

/**
 * A fetch for a user's URL (the official `openai` client takes one): each request is checked as
 * userDispatcher says (a proxy without a public-only twin: its target checked before sending).
 * Answers undici's Response, which has what the client reads of one. It sends one request as
 * asked: the clients follow redirects by hand through it (providers/httpBodies), so each hop is
 * checked again.
 */
export function userFetch(options: { allowPrivate: boolean; proxy?: Dispatcher | undefined }) {
  const dispatcher = userDispatcher(options);
  const checkFirst = Boolean(options.proxy && !options.allowPrivate && dispatcher === options.proxy);
  return async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const target = typeof url === 'string' || url instanceof URL ? url : url.url;
    if (checkFirst) await assertPublicUrl(target);
    return undiciFetch(target, { ...init, ...(dispatcher ? { dispatcher } : {}) });
  };
}

/** True when `error` (or something it wraps) is a BlockedAddressError. */
export function isBlockedAddressError(error: unknown): boolean {
  const blocked = (cause: unknown) =>
    cause instanceof BlockedAddressError || (cause as { code?: unknown }).code === 'EBLOCKEDADDRESS';
  return findCause(error, blocked, 8) !== undefined;
}
