import { writeFileSync } from 'node:fs';
import { allRoutes } from '../http/routes.js';
import { buildOpenApiDocument } from './document.js';

/** `npm run openapi`: writes docs/openapi.json from the route table. */
const doc = buildOpenApiDocument(allRoutes, [
  { url: 'https://{api-id}.execute-api.{region}.amazonaws.com', description: 'A deployed stage (cdk deploy)' },
  { url: 'http://127.0.0.1:3000', description: 'Local stack (npm start)' },
]);
writeFileSync(new URL('../../../../docs/openapi.json', import.meta.url), JSON.stringify(doc, null, 2) + '\n');
console.log(`docs/openapi.json: ${Object.keys(doc.paths).length} paths, version ${doc.info.version}`);
