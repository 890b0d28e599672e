import { env } from '../config.js';

/** Where the API is served: this deployment (or local stack) first, then the default local stack. */
export const openApiServers = () => {
  const here = env.publicBaseUrl;
  const local = 'http://127.0.0.1:3000';
  return here === local
    ? [{ url: local, description: 'Local stack (npm start)' }]
    : [
        { url: here, description: `This deployment (${env.stage})` },
        { url: local, description: 'Local stack (npm start)' },
      ];
};

/** The servers of the published document (docs/openapi.json and the typed client). */
export const publishedServers = [
  { url: 'https://{api-id}.execute-api.{region}.amazonaws.com', description: 'A deployed stage (cdk deploy)' },
  { url: 'http://127.0.0.1:3000', description: 'Local stack (npm start)' },
];
