/**
 * Replaces `@aws-sdk/credential-provider-node` in Lambda bundles (BUNDLE_ALIASES in infra/constructs/bundle.ts). A
 * Lambda always gets its role's credentials in the environment (AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), so the default chain's other links (SSO, INI profiles,
 * credential processes, web identity, container and instance metadata) are dead code that costs every
 * bundle ~75 KB and its cold start the time to load them. Local runs and tests are not bundled and
 * keep the real chain.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';
import type { AwsCredentialIdentity } from '@aws-sdk/types';

export const defaultProvider = (init: Parameters<typeof fromEnv>[0] = {}) => fromEnv(init);

export const credentialsWillNeedRefresh = (credentials?: AwsCredentialIdentity) =>
  credentials?.expiration !== undefined;

export const credentialsTreatedAsExpired = (credentials?: AwsCredentialIdentity) =>
  credentials?.expiration !== undefined && credentials.expiration.getTime() - Date.now() < 300_000;
