import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { env } from '../config.js';

/**
 * Why an address is no place to send a webhook, or undefined for a public unicast address. Only
 * ipaddr.js's `unicast` range passes: loopback, private, link-local (169.254/16, cloud metadata),
 * unique-local, CGNAT, unspecified, multicast, reserved and the IPv6 forms embedding IPv4 (6to4,
 * NAT64, Teredo) are all refused; IPv4-mapped IPv6 is judged as the IPv4 address it maps.
 */
export function blockedAddressReason(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? undefined : `${address} is a ${range} address`;
}

/**
 * SSRF guard for a webhook URL, at registration and again before every delivery (a name can be
 * re-pointed after it was checked). Where private targets are allowed (the local stack) any http(s)
 * URL passes. Returns the reason a URL is refused, or undefined.
 */
export async function checkWebhookTarget(rawUrl: string): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return 'The URL is not valid.';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'The URL must use https.';
  if (env.allowPrivateWebhookTargets) return undefined;
  if (url.protocol !== 'https:') return 'The URL must use https.';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (ipaddr.isValid(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      return `${host} does not resolve.`;
    }
  }
  for (const address of addresses) {
    const reason = blockedAddressReason(address);
    if (reason) return `${host} resolves to a non-public address (${reason}).`;
  }
  return undefined;
}
