import { writeFileSync } from 'node:fs';
import { allRoutes } from '../routes/table.js';
import { buildOpenApiDocument } from './document.js';
import { publishedServers } from './servers.js';

/** `npm run openapi`: writes docs/openapi.json from the route table. */
const doc = buildOpenApiDocument(allRoutes, publishedServers);
writeFileSync(new URL('../../../../../docs/openapi.json', import.meta.url), JSON.stringify(doc, null, 2) + '\n');
console.log(`docs/openapi.json: ${Object.keys(doc.paths).length} paths, version ${doc.info.version}`);
