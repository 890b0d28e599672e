import { env } from '../../kernel/config.js';

/** This deployment (or local stack) first, then the published servers: the local stack and a deployed stage. */
export const openApiServers = () => {
  const here = { url: env.publicBaseUrl, description: `This deployment (${env.stage})` };
  return [here, ...publishedServers.filter((s) => s.url !== here.url)];
};

/** The servers of the published document (docs/openapi.json and the typed client). */
export const publishedServers = [
  { url: 'https://{api-id}.execute-api.{region}.amazonaws.com', description: 'A deployed stage (cdk deploy)' },
  { url: 'http://127.0.0.1:3000', description: 'Local stack (npm start)' },
];
