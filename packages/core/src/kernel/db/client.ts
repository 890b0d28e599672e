import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { awsClientConfig, env } from '../config.js';
import { lazy } from './lazy.js';

/** Created once per Lambda instance, outside any handler, on first use (its endpoint is read then). */
export const dynamo = lazy(() => new DynamoDBClient(awsClientConfig('dynamodb')));

export const documentClient = lazy(() =>
  DynamoDBDocumentClient.from(dynamo, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: true },
  }),
);

export const SERVICE = 'helpdesk';

/** Options every ElectroDB entity is built with: the one table, the shared client. */
export const entityConfig = () => ({ client: documentClient, table: env.tableName });

/** A DynamoDB TTL value (epoch seconds). DynamoDB Local never expires items, so readers also check it. */
export const ttlIn = (seconds: number, from = Date.now()) => Math.floor(from / 1000) + seconds;
export const isExpired = (expiresAt: number | undefined, now = Date.now()) =>
  expiresAt !== undefined && expiresAt * 1000 <= now;
