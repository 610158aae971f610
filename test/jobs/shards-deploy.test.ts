/**
 * deploy/ (docs/scale.md): Docker cannot run here, so the compose file and the Kubernetes
 * manifests are checked as data. Each parses as YAML; every droidcheck command in them goes
 * through our real CLI parser (commander) and our real resolution (the CLI's one wiring,
 * commandConfig, then emulateOptions for emulate) with the environment the file gives it, so a renamed
 * flag or a bad value fails here; names that refer to each other (services, volumes, secrets,
 * selectors, scrape targets) resolve; the Grafana dashboard asks only for metrics the exporter
 * serves; the commands in docs/scale.md parse too.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { emulateOptions } from '../../src/cli/emulate-command.js';
import { commandConfig } from '../../src/cli/job-options.js';
import { createProgram } from '../../src/cli/program.js';
import type { CliContext } from '../../src/cli/shared.js';
import type { ConfigOf, LoadConfig, ResolvedConfig } from '../../src/config/index.js';
import { createLiveMetrics } from '../../src/metrics/prometheus.js';
import { REPO } from '../helpers/cli.js';

const DEPLOY = join(REPO, 'deploy');
const SAMPLE_START = new Date(Date.now() + 60_000).toISOString();
const SAMPLE_ENV = { DROID_API_TOKEN: 'tok-sample-0123456789', DROID_WEBHOOK_SECRET: 'whsec-sample-0123456789' };

type Checked = {
  command: string;
  config?: ResolvedConfig & Partial<Pick<LoadConfig, 'load'>>;
  receive?: ConfigOf<'receive'>;
  emulate?: Awaited<ReturnType<typeof emulateOptions>>;
  operands: string[];
};

/**
 * Runs `args` through droidcheck's commander program with every action replaced by our own
 * resolution of that command (nothing is started). Throws what the CLI would report.
 */
async function checkCommand(args: string[], env: Record<string, string>): Promise<Checked> {
  const ctx: CliContext = {
    stdout: process.stdout,
    stderr: process.stderr,
    env: { ...env },
    color: false,
    exitCode: 0,
  };
  const program = createProgram(ctx);
  const errors: string[] = [];
  program.configureOutput({ writeOut: () => undefined, writeErr: (s) => void errors.push(s) });
  let checked: Checked | undefined;
  const sub = program.commands.find((c) => c.name() === args[0]);
  if (!sub) throw new Error(`droidcheck has no command ${args[0]}`);
  sub.exitOverride();
  sub.configureOutput({ writeOut: () => undefined, writeErr: (s) => void errors.push(s) });
  sub.action(async (...a: unknown[]) => {
    const cmd = a[a.length - 1] as Command;
    const name = cmd.name();
    if (name === 'run' || name === 'load' || name === 'capacity')
      checked = { command: name, config: await commandConfig(name, cmd, ctx), operands: cmd.args };
    else if (name === 'receive')
      checked = { command: name, receive: await commandConfig(name, cmd, ctx), operands: cmd.args };
    else if (name === 'emulate')
      checked = {
        command: name,
        emulate: await emulateOptions(await commandConfig(name, cmd, ctx)),
        operands: cmd.args,
      };
    else checked = { command: name, operands: cmd.args };
  });
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (err) {
    throw new Error(`droidcheck ${args.join(' ')}: ${errors.join('') || (err as Error).message}`);
  }
  return checked!;
}

/** Compose's variable interpolation with sample values (START_AT an instant 60 s ahead). */
function interpolate(value: string): string {
  return value.replace(/\$\{([A-Z_]+)(?::?[?-][^}]*)?\}/g, (_, name: string) =>
    name === 'START_AT' ? SAMPLE_START : ((SAMPLE_ENV as Record<string, string>)[name] ?? `sample-${name}`),
  );
}

describe('deploy/docker-compose.yml', async () => {
  const compose = parseYaml(await readFile(join(DEPLOY, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<
      string,
      {
        image?: string;
        command?: string[];
        entrypoint?: string[];
        environment?: Record<string, string>;
        depends_on?: Record<string, unknown>;
        volumes?: string[];
        profiles?: string[];
      }
    >;
    volumes: Record<string, unknown>;
  };
  const services = compose.services;
  const droidcheckServices = Object.entries(services).filter(([, s]) => s.image === 'droidcheck:local');

  it('has Redis from the official image, two receivers, the emulator, shards and a merge step', () => {
    expect(services.redis!.image).toMatch(/^redis:\d/);
    expect(droidcheckServices.map(([n, s]) => `${n}:${s.command![0]}`).sort()).toEqual([
      'emulator:emulate',
      'merge:merge',
      'receiver-1:receive',
      'receiver-2:receive',
      'shard-1:load',
      'shard-2:load',
    ]);
  });

  it('every droidcheck command parses and resolves with the environment compose gives it', async () => {
    for (const [name, s] of droidcheckServices) {
      const env = Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, interpolate(String(v))]));
      const checked = await checkCommand(s.command!.map(interpolate), env);
      if (checked.command === 'receive')
        expect(checked.receive).toMatchObject({
          host: '0.0.0.0',
          port: 8787,
          redisUrl: 'redis://redis:6379/0',
          secret: SAMPLE_ENV.DROID_WEBHOOK_SECRET,
        });
      if (checked.command === 'load') {
        const c = checked.config!;
        expect(c.deliveries, name).toEqual({ redisUrl: 'redis://redis:6379/0', stream: 'droidcheck:deliveries' });
        expect(c.load!.startAt).toBe(SAMPLE_START);
        expect(c.load!.segment).toEqual({ index: Number(name.slice(-1)), total: 2 });
        expect(c.target).toMatchObject({ kind: 'remote', baseUrl: 'http://emulator:8080' });
        expect(c.metrics).toMatchObject({ host: '0.0.0.0', port: 9464 });
      }
      if (checked.command === 'emulate') {
        expect(checked.emulate!.webhookUrl).toEqual([
          'http://receiver-1:8787/webhook',
          'http://receiver-2:8787/webhook',
        ]);
        expect(checked.emulate!.token).toBe(SAMPLE_ENV.DROID_API_TOKEN);
      }
      if (checked.command === 'merge')
        expect(checked.operands).toEqual(['/reports/shard-1/report.json', '/reports/shard-2/report.json']);
    }
  });

  it('refers only to services and volumes it defines; Prometheus scrapes the metrics ports', async () => {
    for (const s of Object.values(services)) {
      for (const dep of Object.keys(s.depends_on ?? {})) expect(services, dep).toHaveProperty(dep);
      for (const v of s.volumes ?? []) {
        const source = v.split(':')[0]!;
        if (!source.startsWith('.')) expect(compose.volumes).toHaveProperty(source);
      }
    }
    // The shards' entrypoint passes the command through a shell that keeps the merge going.
    expect(services['shard-1']!.entrypoint).toEqual(['sh', '-c', expect.stringContaining('droidcheck "$$@" ||'), '--']);
    const prom = parseYaml(await readFile(join(DEPLOY, 'monitoring', 'prometheus.yml'), 'utf8')) as {
      scrape_configs: { static_configs: { targets: string[] }[] }[];
    };
    for (const t of prom.scrape_configs[0]!.static_configs[0]!.targets) {
      const [host, port] = t.split(':');
      expect(services, t).toHaveProperty(host!);
      expect(services[host!]!.command!.join(' ')).toContain(`--metrics-port ${port}`);
    }
  });
});

/** A Kubernetes object as parsed (the fields the checks read; `spec` is whatever its kind holds). */
interface K8sObject {
  file: string;
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  spec: any;
}

describe('deploy/k8s', async () => {
  const files = [
    'redis.yaml',
    'receiver.yaml',
    'emulator.yaml',
    'reports-pvc.yaml',
    'shards-job.yaml',
    'merge-job.yaml',
  ];
  const docs = (
    await Promise.all(
      files.map(async (f) => {
        const parsed = parseAllDocuments(await readFile(join(DEPLOY, 'k8s', f), 'utf8'));
        for (const d of parsed) expect(d.errors, f).toEqual([]);
        return parsed.map((d): K8sObject => ({ file: f, ...(d.toJS() as Omit<K8sObject, 'file'>) }));
      }),
    )
  ).flat();
  const byKind = (kind: string) => docs.filter((d) => d.kind === kind);
  const named = (kind: string, name: string) => docs.find((d) => d.kind === kind && d.metadata?.name === name);

  it('are Kubernetes objects: Redis, a receiver Deployment with a Service, an Indexed Job of shards, a merge Job', () => {
    for (const d of docs) {
      expect(d.apiVersion, d.file).toBeTruthy();
      expect(d.metadata?.name, d.file).toBeTruthy();
    }
    expect(named('Deployment', 'redis')!.spec.template.spec.containers[0].image).toMatch(/^redis:\d/);
    expect(named('Service', 'droidcheck-receiver')).toBeDefined();
    const shards = named('Job', 'droidcheck-shards')!;
    expect(shards.spec.completionMode).toBe('Indexed');
    expect(shards.spec.parallelism).toBe(shards.spec.completions);
    expect(named('Job', 'droidcheck-merge')).toBeDefined();
  });

  it('every Service selects pods of a Deployment, and the names pods use exist', () => {
    for (const svc of byKind('Service')) {
      const selected = byKind('Deployment').filter((d) =>
        Object.entries(svc.spec.selector).every(([k, v]) => d.spec.template.metadata.labels[k] === v),
      );
      expect(selected, svc.metadata.name).toHaveLength(1);
    }
    for (const w of [...byKind('Deployment'), ...byKind('Job')]) {
      const spec = w.spec.template.spec;
      for (const v of spec.volumes ?? [])
        if (v.persistentVolumeClaim)
          expect(named('PersistentVolumeClaim', v.persistentVolumeClaim.claimName), v.name).toBeDefined();
      for (const c of spec.containers)
        for (const e of c.env ?? [])
          if (e.valueFrom?.secretKeyRef) expect(e.valueFrom.secretKeyRef.name).toBe('droidcheck');
    }
  });

  /** A container's droidcheck argv: its args, with what its shell wrapper adds for pod index 0. */
  function argvOf(container: { command?: string[]; args?: string[] }): string[] {
    const script = container.command?.[0] === 'sh' ? container.command[2]! : undefined;
    const args = container.args ?? [];
    if (!script) return args;
    const tail =
      /droidcheck "\$@" (.*?)(?: \|\||'|$)/.exec(script.replace(/\$\(\(JOB_COMPLETION_INDEX \+ 1\)\)/g, '1'))?.[1] ??
      '';
    return [
      ...args,
      ...tail
        .split(/\s+/)
        .filter(Boolean)
        .map((t) => t.replace('/reports/shard-*/report.json', '/reports/shard-1/report.json')),
    ];
  }

  it('every droidcheck container parses and resolves with its environment (Secret values sampled)', async () => {
    const shardsJob = named('Job', 'droidcheck-shards')!;
    for (const w of [...byKind('Deployment'), ...byKind('Job')]) {
      for (const c of w.spec.template.spec.containers) {
        if (c.image !== 'droidcheck:local') continue;
        const env: Record<string, string> = {};
        for (const e of c.env ?? [])
          env[e.name] = e.value ?? (SAMPLE_ENV as Record<string, string>)[e.name] ?? `sample-${e.name}-0123456789`;
        const argv = argvOf(c).map((a) => a.replace('${START_AT}', SAMPLE_START));
        const checked = await checkCommand(argv, env);
        if (checked.command === 'load') {
          expect(checked.config!.load!.segment).toEqual({ index: 1, total: shardsJob.spec.completions });
          expect(checked.config!.deliveries!.redisUrl).toBe('redis://redis:6379/0');
          expect(checked.config!.reportDir).toBe('/reports/shard-1');
          expect(checked.config!.target).toMatchObject({ kind: 'remote', baseUrl: 'http://droidcheck-emulator:8080' });
        }
        if (checked.command === 'receive') expect(checked.receive!.redisUrl).toBe('redis://redis:6379/0');
        if (checked.command === 'emulate')
          expect(checked.emulate!.webhookUrl).toBe(
            `http://${named('Service', 'droidcheck-receiver')!.metadata.name}/webhook`,
          );
      }
    }
  });
});

describe('the Grafana dashboard', async () => {
  const dashboard = JSON.parse(await readFile(join(DEPLOY, 'monitoring', 'grafana-dashboard.json'), 'utf8')) as {
    panels: { type: string; title: string; targets?: { expr: string }[] }[];
  };

  it('asks only for metrics droidcheck serves, and shows the ones docs/scale.md names', async () => {
    const served = new Set<string>();
    for (const line of (await createLiveMetrics().metrics()).split('\n')) {
      const m = /^# TYPE (\S+) (\S+)/.exec(line);
      if (!m) continue;
      served.add(m[1]!);
      if (m[2] === 'histogram') for (const s of ['_bucket', '_sum', '_count']) served.add(m[1]! + s);
    }
    const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
    const used = new Set(exprs.flatMap((e) => e.match(/droidcheck_[a-z0-9_]+/g) ?? []));
    for (const name of used) expect(served, name).toContain(name);
    for (const name of [
      'droidcheck_requests_total',
      'droidcheck_requests_in_flight',
      'droidcheck_open_conversations',
      'droidcheck_ack_latency_seconds_bucket',
      'droidcheck_answer_latency_seconds_bucket',
      'droidcheck_sync_latency_seconds_bucket',
      'droidcheck_reply_latency_seconds_bucket',
      'droidcheck_webhooks_total',
      'droidcheck_send_delay_seconds_bucket',
      'droidcheck_scenario_results_total',
    ]) {
      expect(used, name).toContain(name);
    }
  });
});

describe('docs/scale.md', async () => {
  const text = await readFile(join(REPO, 'docs', 'scale.md'), 'utf8');

  /** `droidcheck ...` lines of the sh blocks, joined across `\` continuations, tokenized like a shell (quotes, no expansion). */
  function commandLines(md: string): string[][] {
    const blocks = [...md.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.replace(/\\\n\s*/g, ' '));
    const out: string[][] = [];
    for (const line of blocks.flatMap((b) => b.split('\n'))) {
      const m = /^(?:[A-Z_]+=\S+\s+)*(?:npx\s+)?droidcheck\s+(.*)$/.exec(line.trim());
      if (!m) continue;
      const rest = m[1]!
        .replace(/\s+#.*$/, '')
        .replace(/\$\(date[^)]*\)/g, SAMPLE_START)
        .replace(/\s*[&|;].*$/, '');
      const tokens = [...rest.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
      out.push(tokens);
    }
    return out;
  }

  it('every droidcheck command in it parses with our CLI', async () => {
    const commands = commandLines(text);
    expect(commands.map((c) => c[0])).toEqual(expect.arrayContaining(['receive', 'run', 'load', 'merge', 'emulate']));
    const env = { ...SAMPLE_ENV, DROIDCHECK_REDIS_URL: 'redis://127.0.0.1:6379/0' };
    for (const argv of commands) {
      const replaced = argv.map((a) => a.replace(/\$START_AT|\$\{START_AT\}/, SAMPLE_START).replace(/\$i\b/, '1'));
      await expect(checkCommand(replaced, env), replaced.join(' ')).resolves.toBeDefined();
    }
  });
});
