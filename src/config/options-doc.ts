/**
 * The options table of docs/options.md, generated from the table of options (options.ts): one
 * row per option and command group, so the docs cannot drift from the flags:
 * test/config/options-table.test.ts compares docs/options.md with `optionsMarkdown()`
 * (regenerate: `UPDATE_OPTIONS_DOC=1 npx vitest run --project unit test/config/options-table.test.ts`).
 */
import {
  defaultShown,
  OPTION_COMMANDS,
  OPTIONS,
  isSharedKey,
  specFor,
  type OptionKey,
  type OptionSpec,
} from './options.js';

export const OPTIONS_BEGIN = '<!-- options:begin (generated from src/config/options.ts; do not edit by hand) -->';
export const OPTIONS_END = '<!-- options:end -->';

const cell = (s: string | undefined): string => (s === undefined || s === '' ? '' : s.replace(/\|/g, '\\|'));
const code = (s: string | undefined): string => (s === undefined || s === '' ? '' : `\`${s}\``);

function flagCell(key: OptionKey, spec: OptionSpec): string {
  if (spec.flag === undefined) return key === 'paths' ? '`[paths...]` (argument)' : `library API only: \`${key}\``;
  const long = spec.arg ? `${spec.flag} ${spec.arg}` : spec.flag;
  return [spec.short, long]
    .filter(Boolean)
    .map((f) => code(f))
    .join(', ');
}

/** The config-file key: top-level for an option of every job command, else `<command>.<key>` of the row's commands. */
function fileCell(key: OptionKey, spec: OptionSpec, commands: readonly string[]): string {
  if (spec.file === false) return '';
  if (isSharedKey(key)) return code(key);
  return commands
    .filter((c) => c !== 'doctor')
    .map((c) => code(`${c}.${key}`))
    .join(', ');
}

/** One markdown row per option (a per-command difference gets its own row). */
function rows(key: OptionKey): string[] {
  const base = OPTIONS[key] as OptionSpec;
  const groups = new Map<string, { commands: string[]; spec: OptionSpec }>();
  for (const command of OPTION_COMMANDS) {
    if (!base.commands.includes(command)) continue;
    const spec = specFor(key, command);
    const id = `${spec.help}|${defaultShown(spec) ?? ''}`;
    const g = groups.get(id);
    if (g) g.commands.push(command);
    else groups.set(id, { commands: [command], spec });
  }
  return [...groups.values()].map(
    ({ commands, spec }) =>
      `| ${flagCell(key, spec)} | ${code(spec.env)} | ${fileCell(key, spec, commands)} | ${cell(spec.unit)} | ${cell(defaultShown(spec))} | ${commands.join(', ')} | ${cell(spec.help)} |`,
  );
}

/** The markdown table, between its markers. */
export function optionsMarkdown(): string {
  const head = [
    '| flag | environment | config file | unit | default | commands | what it does |',
    '|---|---|---|---|---|---|---|',
  ];
  return [OPTIONS_BEGIN, ...head, ...(Object.keys(OPTIONS) as OptionKey[]).flatMap(rows), OPTIONS_END].join('\n');
}
