import { env } from '@helpdesk/core/kernel/config';
import { dynamo } from '@helpdesk/core/kernel/db/client';
import { loadSigningSecret } from '@helpdesk/core/kernel/secrets';
import { readStackFile } from '@helpdesk/local/stack-file';
import { parseFlags, UsageError } from './args.js';
import { commands } from './commands.js';

/**
 * Admin CLI: `npm run -s admin -- <command> [--flags]`. JSON on stdout; a message on stderr and a
 * non-zero exit on error. Talks to the local stack on PORT (default 3000) through its stack file, or
 * to a deployed stage when TABLE_NAME is set (with the usual AWS credentials). The core reads its
 * configuration on first use, so setting process.env below, after the imports, is enough.
 */
const [command, ...rest] = process.argv.slice(2);

function fail(message: string, code = 1): never {
  process.stderr.write(`admin: ${message}\n`);
  process.exit(code);
}

if (!process.env.TABLE_NAME) {
  const port = Number(process.env.PORT ?? 3000);
  const stack = readStackFile(port);
  if (!stack)
    fail(`no local stack is running on port ${port} (start it with npm start, or set TABLE_NAME for a deployed stage)`);
  Object.assign(process.env, {
    TABLE_NAME: stack.tableName,
    DYNAMODB_ENDPOINT: stack.dynamodbEndpoint,
    SQS_ENDPOINT: stack.sqsEndpoint,
    ...Object.fromEntries(Object.entries(stack.queueUrls).map(([q, url]) => [`QUEUE_URL_${q.toUpperCase()}`, url])),
    ...Object.fromEntries(Object.entries(stack.dlqUrls ?? {}).map(([q, url]) => [`DLQ_URL_${q.toUpperCase()}`, url])),
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    STAGE: 'local',
  });
} else {
  // A deployed table: deployed-stage rules apply (a project sender must be on a verified SES identity).
  // The stage names its signing secret in Secrets Manager (read the way the Lambdas read it).
  process.env.STAGE ||= 'prod';
  if (!process.env.SIGNING_SECRET) process.env.SIGNING_SECRET_ARN ||= `helpdesk/${process.env.STAGE}/signing-secret`;
}

const usage = () =>
  'usage: npm run -s admin -- <command> [--flags]\n' +
  Object.entries(commands)
    .map(([name, c]) => `  ${name} ${c.usage}`)
    .join('\n');

if (!command || command === 'help' || command === '--help') {
  process.stdout.write(usage() + '\n');
  process.exit(command ? 0 : 2);
}
const cmd = commands[command];
if (!cmd) fail(`unknown command "${command}"\n${usage()}`, 2);

/** Where the command went: an AWS error alone does not say which table or region was tried. */
async function target() {
  const region = await dynamo.config.region().catch(() => 'none (set AWS_REGION or a region in the AWS profile)');
  return `table ${env.tableName}, region ${region}`;
}

try {
  await loadSigningSecret();
  const result = await cmd.run(parseFlags(rest));
  process.stdout.write(JSON.stringify(result, null, 2) + '\n');
  process.exit(0);
} catch (err) {
  if (err instanceof UsageError) fail(`${err.message}\n  ${command} ${cmd.usage}`, 2);
  fail(`${(err as Error).message} (${await target()})`);
}
