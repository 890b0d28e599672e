/**
 * Replaces `@aws-sdk/middleware-endpoint-discovery` in Lambda bundles (BUNDLE_ALIASES in
 * infra/constructs/bundle.ts). The DynamoDB client resolves its endpoint-discovery settings when it is
 * built, and that builds an LRU endpoint cache (mnemonist and obliterator, ~8 KB at every init); only
 * the discovery middleware reads the cache, and none of DynamoDB's commands adds it (they send to the
 * regional endpoint). These are the settings without the cache; a command that starts to need the
 * middleware's plugin fails the bundle build here, since this module does not export it.
 */
export { NODE_ENDPOINT_DISCOVERY_CONFIG_OPTIONS } from '../../node_modules/@aws-sdk/middleware-endpoint-discovery/dist-es/configurations.js';

export const resolveEndpointDiscoveryConfig = (input, { endpointDiscoveryCommandCtor }) =>
  Object.assign(input, {
    endpointDiscoveryCommandCtor,
    endpointDiscoveryEnabled:
      input.endpointDiscoveryEnabled !== undefined ? () => Promise.resolve(input.endpointDiscoveryEnabled) : input.endpointDiscoveryEnabledProvider,
    isClientEndpointDiscoveryEnabled: input.endpointDiscoveryEnabled !== undefined,
  });
