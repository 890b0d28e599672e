import { timingSafeEqual } from 'node:crypto';
import { env } from './config.js';
import { SECRET_REFRESH_MS, secretsClient } from './secrets.js';

/**
 * Who is asking, behind the stage's CloudFront distribution (infra/constructs/edge.ts): API Gateway
 * sees the edge's address, CloudFront passes the viewer's in `CloudFront-Viewer-Address`. A header
 * anyone could send, so it counts only beside the distribution's secret header.
 */
let fetched: { value: string; at: number } | undefined;

async function edgeSecret(now = Date.now()): Promise<string | undefined> {
  if (env.edgeSecret) return env.edgeSecret;
  const secretId = env.edgeSecretArn;
  if (!secretId) return undefined;
  if (fetched && now - fetched.at < SECRET_REFRESH_MS) return fetched.value;
  try {
    const { sdk, client } = await secretsClient();
    const out = await client.send(new sdk.GetSecretValueCommand({ SecretId: secretId }));
    if (out.SecretString) fetched = { value: out.SecretString, at: now };
  } catch {
    // Unreadable now: the value read before, else the request's own address (a stricter limit, never a looser one).
  }
  return fetched?.value;
}

const same = (a: string, b: string) => {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
};

/** `203.0.113.7:443` or `2001:db8::1:443`: the address before the last colon. */
const addressOf = (viewer: string) => {
  const at = viewer.lastIndexOf(':');
  return at > 0 ? viewer.slice(0, at) : undefined;
};

/** The visitor's address: CloudFront's word for it when the request proves it came through CloudFront, else the connection's. */
export async function viewerAddress(headers: Record<string, string | undefined>, sourceIp: string): Promise<string> {
  const viewer = headers['cloudfront-viewer-address'];
  const proof = headers['x-helpdesk-edge'];
  if (!viewer || !proof || viewer.length > 100) return sourceIp;
  const secret = await edgeSecret();
  return secret && same(proof, secret) ? (addressOf(viewer) ?? sourceIp) : sourceIp;
}
