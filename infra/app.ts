import { App } from 'aws-cdk-lib';
import { readSettings } from './config.js';
import { HelpdeskStack } from './stack.js';

/**
 * `cdk synth -c stage=dev|sandbox|prod` (default dev). The stack is environment-agnostic, so synth needs
 * no credentials; `cdk deploy` takes the account and region from the CLI's profile.
 */
const app = new App();
const settings = readSettings(app.node);
new HelpdeskStack(app, `Helpdesk-${settings.stage}`, {
  settings,
  description: `Helpdesk API (${settings.stage})`,
  tags: { service: 'helpdesk', stage: settings.stage },
});
app.synth();
