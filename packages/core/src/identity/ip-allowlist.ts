import { BlockList, isIP } from 'node:net';

type Subnet = { address: string; prefix: number; type: 'ipv4' | 'ipv6' };

/** An allow-list entry as a subnet: `a.b.c.d/n`, `x::y/n`, or one address (a subnet of its full length). */
function subnet(entry: string): Subnet | undefined {
  const [address = '', bits, ...rest] = entry.split('/');
  const version = isIP(address);
  if (!version || rest.length > 0 || (bits !== undefined && !/^\d{1,3}$/.test(bits))) return undefined;
  const full = version === 4 ? 32 : 128;
  const prefix = bits === undefined ? full : Number(bits);
  return prefix <= full ? { address, prefix, type: version === 4 ? 'ipv4' : 'ipv6' } : undefined;
}

/**
 * True when `ip` falls in one of the CIDRs (or equals one of the plain addresses). An empty list
 * allows all. Node's BlockList matches an IPv4-mapped IPv6 address (`::ffff:10.1.2.3`) against IPv4 subnets.
 */
export function ipAllowed(ip: string, allowList: string[]): boolean {
  if (allowList.length === 0) return true;
  const version = isIP(ip);
  if (!version) return false;
  const allowed = new BlockList();
  for (const entry of allowList) {
    const s = subnet(entry);
    if (s) allowed.addSubnet(s.address, s.prefix, s.type);
  }
  return allowed.check(ip, version === 4 ? 'ipv4' : 'ipv6');
}

export const isValidCidr = (entry: string): boolean => subnet(entry) !== undefined;
