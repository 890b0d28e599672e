import ipaddr from 'ipaddr.js';

const normalize = (ip: string) => ipaddr.process(ip);

/** True when `ip` falls in one of the CIDRs (or equals one of the plain addresses). An empty list allows all. */
export function ipAllowed(ip: string, allowList: string[]): boolean {
  if (allowList.length === 0) return true;
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = normalize(ip);
  } catch {
    return false;
  }
  return allowList.some((entry) => {
    try {
      const [range, bits] = entry.includes('/') ? ipaddr.parseCIDR(entry) : [normalize(entry), entry.includes(':') ? 128 : 32];
      return address.kind() === range.kind() && address.match(range, bits as number);
    } catch {
      return false;
    }
  });
}

export function isValidCidr(entry: string): boolean {
  try {
    if (entry.includes('/')) ipaddr.parseCIDR(entry);
    else ipaddr.parse(entry);
    return true;
  } catch {
    return false;
  }
}
