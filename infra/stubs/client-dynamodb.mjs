/**
 * Replaces `@aws-sdk/client-dynamodb` in Lambda bundles (BUNDLE_ALIASES in infra/constructs/bundle.ts).
 * ElectroDB require()s lib-dynamodb, whose commands import this package's index; a module reached
 * through require() is wrapped whole by esbuild, so every command, waiter, paginator and the schema of
 * every operation stayed at init (~47 KB). These are the client and the item commands lib-dynamodb's
 * commands in infra/stubs/lib-dynamodb.mjs wrap. A name missing here fails the bundle build, not a request.
 */
export { DynamoDBClient } from '../../node_modules/@aws-sdk/client-dynamodb/dist-es/DynamoDBClient.js';
export { BatchGetItemCommand } from '../../node_modules/@aws-sdk/client-dynamodb/dist-es/commands/BatchGetItemCommand.js';
export { BatchWriteItemCommand } from '../../node_modules/@aws-sdk/client-dynamodb/dist-es/commands/BatchWriteItemCommand.js';
export { DeleteItemCommand } from '../../node_modules/@aws-sdk/client-dynamodb/dist-es/commands/DeleteItemCommand.js';
export { GetItemCommand } from '../../node_modules/@aws-sdk/client-dynamodb/dist-es/commands/GetItemCommand.js';
export { PutItemCommand } from '../../node_modules/@aws-sdk/client-dynamodb/dist-es/commands/PutItemCommand.js';
export { QueryCommand } from '../../node_modules/@aws-sdk/client-dynamodb/dist-es/commands/QueryCommand.js';
export { ScanCommand } from '../../node_modules/@aws-sdk/client-dynamodb/dist-es/commands/ScanCommand.js';
export { TransactGetItemsCommand } from '../../node_modules/@aws-sdk/client-dynamodb/dist-es/commands/TransactGetItemsCommand.js';
export { TransactWriteItemsCommand } from '../../node_modules/@aws-sdk/client-dynamodb/dist-es/commands/TransactWriteItemsCommand.js';
export { UpdateItemCommand } from '../../node_modules/@aws-sdk/client-dynamodb/dist-es/commands/UpdateItemCommand.js';
