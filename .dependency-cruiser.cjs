/**
 * The layers of packages/core, checked in CI (`npm run lint:layers`): imports go one way,
 * kernel -> identity -> areas -> top (the request pipeline, the route-table aggregator, OpenAPI, the
 * console). Known violations, listed in .dependency-cruiser-known-violations.json, are the ones
 * issue 15's refactor still has to remove; any new one fails the check.
 */
const core = '^packages/core/src/';
const KERNEL = `${core}((config|logger)\\.ts$|(errors|db|ports)/|http/(route|schemas|errors|problems|list|ip|match)\\.ts$)`;
const IDENTITY = `${core}auth/`;
const AREAS = `${core}(tickets|emails|templates|articles|logs|customers|feedback|webhooks)/`;
const TOP = `${core}(http/(pipeline|tenancy|rate-limit|routes)\\.ts$|openapi/|console/)`;

module.exports = {
  forbidden: [
    { name: 'kernel-imports-up', severity: 'error', comment: 'The kernel (config, errors, db, ports, the route and schema vocabulary) knows no identity, area or pipeline.', from: { path: KERNEL }, to: { path: [IDENTITY, AREAS, TOP] } },
    { name: 'identity-imports-up', severity: 'error', comment: 'Keys, accounts, plans and quota know no area and no pipeline.', from: { path: IDENTITY }, to: { path: [AREAS, TOP] } },
    { name: 'area-imports-top', severity: 'error', comment: 'Areas are called by the pipeline, the route table and the console, never the other way round.', from: { path: AREAS }, to: { path: TOP } },
    { name: 'core-imports-outside', severity: 'error', comment: 'The domain package stands alone: no handler, stack, local stack, CLI or test code.', from: { path: '^packages/core/' }, to: { path: '^(functions|infra|test|bench)/|^packages/(local|cli|client)/' } },
    { name: 'no-cycles', severity: 'error', comment: 'Modules of core never import each other in a circle.', from: { path: '^packages/core/' }, to: { circular: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.d\\.ts$' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.js'] },
  },
};
