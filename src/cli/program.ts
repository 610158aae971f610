/** The commander program: each command a thin wrapper over a function of src/index.ts, so a script
 * can do whatever the command line does (docs/architecture.md, "A thin CLI over a library"). */
import { Command } from 'commander';
import { registerCapacityCommand } from './capacity-command.js';
import { registerCompareCommand } from './compare-command.js';
import { registerCoverageCommand } from './coverage-command.js';
import { registerDoctorCommand } from './doctor-command.js';
import { registerMergeCommand } from './merge-command.js';
import { registerEmulateCommand } from './emulate-command.js';
import { registerLoadCommand } from './load-command.js';
import { registerImportCommand } from './import-command.js';
import { registerInitCommand } from './init-command.js';
import { registerReceiveCommand } from './receive-command.js';
import { registerRedteamCommand } from './redteam-command.js';
import { registerRunCommand } from './run-command.js';
import { registerSchemaCommand } from './schema-command.js';
import { registerValidateCommand } from './validate-command.js';
import { registerWebhookPolicyCommand } from './webhook-policy-command.js';
import { rejectEmptyValues } from './flag-values.js';
import type { CliContext } from './shared.js';
import { TOOL_VERSION } from '../report/index.js';

export function createProgram(ctx: CliContext): Command {
  const program = new Command('droidcheck')
    .description('Conversation-testing and load harness for the droid Message Endpoint API')
    .version(TOOL_VERSION)
    .showHelpAfterError('(run droidcheck --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.stdout.write(s),
      writeErr: (s) => ctx.stderr.write(s),
    })
    // An empty value (`--tag ""`) is a mistake in every command, never "the default".
    .hook('preAction', (_program, command) => rejectEmptyValues(command));
  registerRunCommand(program, ctx);
  registerCompareCommand(program, ctx);
  registerMergeCommand(program, ctx);
  registerCoverageCommand(program, ctx);
  registerLoadCommand(program, ctx);
  registerCapacityCommand(program, ctx);
  registerValidateCommand(program, ctx);
  registerSchemaCommand(program, ctx);
  registerInitCommand(program, ctx);
  registerEmulateCommand(program, ctx);
  registerImportCommand(program, ctx);
  registerDoctorCommand(program, ctx);
  registerReceiveCommand(program, ctx);
  registerRedteamCommand(program, ctx);
  registerWebhookPolicyCommand(program, ctx);
  return program;
}
