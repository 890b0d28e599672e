import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { env, localCredentials } from '../config.js';

const endpoint = env.endpoint('dynamodb');

/** Created once per Lambda instance, outside any handler. */
export const dynamo = new DynamoDBClient({
  region: env.region,
  ...(endpoint ? { endpoint, credentials: localCredentials('other') } : {}),
});

export const documentClient = DynamoDBDocumentClient.from(dynamo, {
  marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: true },
});

export const SERVICE = 'helpdesk';

/** Options every ElectroDB entity is built with: the one table, the shared client. */
export const entityConfig = () => ({ client: documentClient, table: env.tableName });

/** A DynamoDB TTL value (epoch seconds). DynamoDB Local never expires items, so readers also check it. */
export const ttlIn = (seconds: number, from = Date.now()) => Math.floor(from / 1000) + seconds;
export const isExpired = (expiresAt: number | undefined, now = Date.now()) =>
  expiresAt !== undefined && expiresAt * 1000 <= now;
