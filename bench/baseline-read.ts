import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

/**
 * The cold-request baseline: a Lambda that reads one item by key with the document client and answers
 * it (bench/cold-request.ts). The endpoint variable is the local stand-in's; deployed it is unset.
 */
const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT }));

export const handler = async () => {
  const out = await client.send(
    new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: 'bench#baseline', sk: 'item' } }),
  );
  return { statusCode: 200, body: JSON.stringify(out.Item ?? null) };
};
