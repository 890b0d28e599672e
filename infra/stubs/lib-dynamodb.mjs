/**
 * Replaces `@aws-sdk/lib-dynamodb` in Lambda bundles (BUNDLE_ALIASES in infra/constructs/bundle.ts).
 * ElectroDB require()s the whole package, which keeps every command and the aggregated DynamoDB
 * client (all of client-dynamodb's schemas) in the bundle; these are the commands ElectroDB and
 * packages/core use. A command missing here fails the bundle build (esbuild), not a request.
 * Paths are relative: the alias also rewrites `@aws-sdk/lib-dynamodb/...` subpaths.
 */
export { DynamoDBDocumentClient } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/DynamoDBDocumentClient.js';
export { BatchGetCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/BatchGetCommand.js';
export { BatchWriteCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/BatchWriteCommand.js';
export { DeleteCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/DeleteCommand.js';
export { GetCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/GetCommand.js';
export { PutCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/PutCommand.js';
export { QueryCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/QueryCommand.js';
export { ScanCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/ScanCommand.js';
export { TransactGetCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/TransactGetCommand.js';
export { TransactWriteCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/TransactWriteCommand.js';
export { UpdateCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/UpdateCommand.js';
