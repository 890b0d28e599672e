import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { env } from '../../kernel/config.js';

/** Every address a host name resolves to; rejects when it does not resolve. */
export type HostResolver = (host: string) => Promise<string[]>;

const systemResolver: HostResolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** A checked target: connect only to `addresses`, never to what a later lookup of `host` answers. */
export interface PinnedTarget {
  url: URL;
  /** The URL's host without IPv6 brackets: the Host header and the TLS server name. */
  host: string;
  addresses: string[];
}

const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/**
 * Why an address is no place to send a webhook, or undefined for a public unicast address. Only
 * ipaddr.js's `unicast` range passes: loopback, private, link-local (169.254/16, cloud metadata),
 * unique-local, CGNAT, unspecified, multicast, reserved and the IPv6 forms embedding IPv4 (6to4,
 * NAT64, Teredo) are all refused; IPv4-mapped IPv6 is judged as the IPv4 address it maps.
 */
export function blockedAddressReason(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range !== 'unicast') return `${address} is a ${range} address`;
  // IPv6 outside 2000::/3 has no public route: ipaddr.js calls the IPv4-compatible ::/96 (`::127.0.0.1`)
  // and other unassigned space unicast, so IPv6 must also be global unicast by prefix.
  if (parsed.kind() === 'ipv6' && !parsed.match(GLOBAL_UNICAST)) return `${address} is not a global unicast address`;
  return undefined;
}

function parseTarget(rawUrl: string): URL | string {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return 'The URL is not valid.';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'The URL must use https.';
  if (!env.allowPrivateWebhookTargets && url.protocol !== 'https:') return 'The URL must use https.';
  return url;
}

/**
 * The SSRF guard at delivery: resolves the host once and checks every address, so the caller can
 * connect to exactly these (a name re-pointed after this check cannot redirect the connection).
 * Where private targets are allowed (the local stack) the addresses are resolved but not judged.
 */
export async function pinWebhookTarget(
  rawUrl: string,
  resolve: HostResolver = systemResolver,
): Promise<PinnedTarget | { refused: string }> {
  const url = parseTarget(rawUrl);
  if (typeof url === 'string') return { refused: url };
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (ipaddr.isValid(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) return { refused: `${host} does not resolve.` };
  }
  if (!env.allowPrivateWebhookTargets) {
    for (const address of addresses) {
      const reason = blockedAddressReason(address);
      if (reason) return { refused: `${host} resolves to a non-public address (${reason}).` };
    }
  }
  return { url, host, addresses };
}

/**
 * The SSRF guard at registration (delivery checks again: see pinWebhookTarget). The local stack
 * accepts any http(s) URL here, even a name that does not resolve yet. Returns the reason a URL is
 * refused, or undefined.
 */
export async function checkWebhookTarget(rawUrl: string): Promise<string | undefined> {
  if (env.allowPrivateWebhookTargets) {
    const url = parseTarget(rawUrl);
    return typeof url === 'string' ? url : undefined;
  }
  const target = await pinWebhookTarget(rawUrl);
  return 'refused' in target ? target.refused : undefined;
}
